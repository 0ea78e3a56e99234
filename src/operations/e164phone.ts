// §4 e164phone — E.164 phone number; invalid → null. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const e164phone = defineOperation({
  type: 'e164phone',
  doc: '§4 e164phone — E.164 phone number; invalid → null',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      defaultRegion: ref.string,
    },
  }),
});
