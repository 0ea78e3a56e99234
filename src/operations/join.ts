// §4 join — values joined with a separator (documented, not in the OpenAPI enum). Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const join = defineOperation({
  type: 'join',
  doc: '§4 join — values joined with a separator (documented, not in the OpenAPI enum)',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      values: ref.values,
      separator: ref.string,
    },
    required: ['values'],
  }),
});
