// §4 base64Encode — encode text as Base64. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const base64Encode = defineOperation({
  type: 'base64Encode',
  doc: '§4 base64Encode — encode text as Base64',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
});
