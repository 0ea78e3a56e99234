// §4/§6 rule — Cloud Services Deployment Utility operations and registered rules. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const rule = defineOperation({
  type: 'rule',
  doc: '§4/§6 rule — Cloud Services Deployment Utility operations and registered rules',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      name: ref.string,
      operation: ref.string,
    },
    required: ['name'],
    dynamicVariables: true,
  }),
});
