// §4/§6 dateCompare — compare two ISO 8601 dates (or "now"). Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const dateCompare = defineOperation({
  type: 'dateCompare',
  doc: '§4/§6 dateCompare — compare two ISO 8601 dates (or "now")',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      firstDate: ref.stringOrTransform,
      secondDate: ref.stringOrTransform,
      operator: { type: 'string', enum: ['LT', 'LTE', 'GT', 'GTE', 'lt', 'lte', 'gt', 'gte'] },
      positiveCondition: ref.stringOrTransform,
      negativeCondition: ref.stringOrTransform,
    },
    required: ['firstDate', 'secondDate', 'operator', 'positiveCondition', 'negativeCondition'],
  }),
});
