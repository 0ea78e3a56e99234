// §4/§6 usernameGenerator — patterns tried in order with ${uniqueCounter}. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const usernameGenerator = defineOperation({
  type: 'usernameGenerator',
  doc: '§4/§6 usernameGenerator — patterns tried in order with ${uniqueCounter}',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      patterns: { type: 'array', items: ref.string, minItems: 1 },
      sourceCheck: ref.boolean,
      cloudMaxSize: ref.integer,
      cloudMaxUniqueChecks: ref.integer,
      cloudRequired: ref.boolean,
    },
    required: ['patterns'],
    dynamicVariables: true,
  }),
});
