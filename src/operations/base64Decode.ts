// §4 base64Decode — decode Base64 to text. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const base64Decode = defineOperation({
  type: 'base64Decode',
  doc: '§4 base64Decode — decode Base64 to text',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
});
