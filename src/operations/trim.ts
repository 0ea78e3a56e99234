// §4 trim — Java String.trim (characters <= U+0020). Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const trim = defineOperation({
  type: 'trim',
  doc: '§4 trim — Java String.trim (characters <= U+0020)',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
});
