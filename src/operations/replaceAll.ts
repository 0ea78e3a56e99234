// §5.2 replaceAll — apply a table of regex → replacement pairs in order. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const replaceAll = defineOperation({
  type: 'replaceAll',
  doc: '§5.2 replaceAll — apply a table of regex → replacement pairs in order',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      table: { type: 'object', additionalProperties: ref.string },
    },
  }),
});
