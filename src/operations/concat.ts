// §4 concat — join values in order, no separator. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const concat = defineOperation({
  type: 'concat',
  doc: '§4 concat — join values in order, no separator',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      values: ref.values,
    },
    required: ['values'],
  }),
});
