// §4 identityAttribute — an attribute of the identity in the context. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const identityAttribute = defineOperation({
  type: 'identityAttribute',
  doc: '§4 identityAttribute — an attribute of the identity in the context',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      name: ref.string,
    },
    required: ['name'],
  }),
});
