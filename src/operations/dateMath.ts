// §4/§6 dateMath — now, +/-N units, /unit rounding; output yyyy-MM-ddTHH:mm. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const dateMath = defineOperation({
  type: 'dateMath',
  doc: '§4/§6 dateMath — now, +/-N units, /unit rounding; output yyyy-MM-ddTHH:mm',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      expression: ref.string,
      roundUp: ref.boolean,
    },
    required: ['expression'],
  }),
});
