// §4/§6 normalizeNames — capitalisation rules for proper names. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const normalizeNames = defineOperation({
  type: 'normalizeNames',
  doc: '§4/§6 normalizeNames — capitalisation rules for proper names',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
});
