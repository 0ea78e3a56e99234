// §4 randomAlphaNumeric — [A-Za-z0-9]{length}, length default 32, max 450. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const randomAlphaNumeric = defineOperation({
  type: 'randomAlphaNumeric',
  doc: '§4 randomAlphaNumeric — [A-Za-z0-9]{length}, length default 32, max 450',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      length: ref.integer,
    },
  }),
});
