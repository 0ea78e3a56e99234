// §4 upper — upper case in the root locale. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const upper = defineOperation({
  type: 'upper',
  doc: '§4 upper — upper case in the root locale',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
});
