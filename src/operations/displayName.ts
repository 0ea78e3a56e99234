// §4/§6 displayName — preferred (or given) name + family name of the identity. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const displayName = defineOperation({
  type: 'displayName',
  doc: '§4/§6 displayName — preferred (or given) name + family name of the identity',
  attributesRequired: true,
  attributesSchema: attributesSchema({}),
});
