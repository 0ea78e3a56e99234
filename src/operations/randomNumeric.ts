// §4 randomNumeric — [0-9]{length}, length default 10 (docs), max 450. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const randomNumeric = defineOperation({
  type: 'randomNumeric',
  doc: '§4 randomNumeric — [0-9]{length}, length default 10 (docs), max 450',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      length: ref.integer,
    },
  }),
});
