// §4 indexOf — first index of substring, -1 when absent. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const indexOf = defineOperation({
  type: 'indexOf',
  doc: '§4 indexOf — first index of substring, -1 when absent',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      substring: ref.string,
    },
    required: ['substring'],
  }),
});
