// §4/§6 substring — input.substring(begin+beginOffset, end+endOffset), -1 sentinels. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const substring = defineOperation({
  type: 'substring',
  doc: '§4/§6 substring — input.substring(begin+beginOffset, end+endOffset), -1 sentinels',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      begin: ref.integerOrTransform,
      beginOffset: ref.integer,
      end: ref.integerOrTransform,
      endOffset: ref.integer,
    },
    required: ['begin'],
  }),
});
