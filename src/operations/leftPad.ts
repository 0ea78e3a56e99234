// §4/§6 leftPad — Apache Commons StringUtils.leftPad. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const leftPad = defineOperation({
  type: 'leftPad',
  doc: '§4/§6 leftPad — Apache Commons StringUtils.leftPad',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      length: ref.integer,
      padding: ref.string,
    },
    required: ['length'],
  }),
});
