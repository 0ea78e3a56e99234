// §4/§6 split — Java String.split(regex), then the element at index. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const split = defineOperation({
  type: 'split',
  doc: '§4/§6 split — Java String.split(regex), then the element at index',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      delimiter: ref.string,
      index: ref.integerOrTransform,
      throws: ref.boolean,
    },
    required: ['delimiter', 'index'],
  }),
});
