// §4 conditional — "ValueA eq ValueB" then positive or negative condition. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const conditional = defineOperation({
  type: 'conditional',
  doc: '§4 conditional — "ValueA eq ValueB" then positive or negative condition',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      expression: ref.string,
      positiveCondition: ref.stringOrTransform,
      negativeCondition: ref.stringOrTransform,
    },
    required: ['expression', 'positiveCondition', 'negativeCondition'],
    dynamicVariables: true,
  }),
});
