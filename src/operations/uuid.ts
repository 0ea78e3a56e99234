// §4 uuid — a random (version 4) UUID. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const uuid = defineOperation({
  type: 'uuid',
  doc: '§4 uuid — a random (version 4) UUID',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
});
