// §4/§6 rightPad — Apache Commons StringUtils.rightPad. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const rightPad = defineOperation({
  type: 'rightPad',
  doc: '§4/§6 rightPad — Apache Commons StringUtils.rightPad',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      length: ref.integer,
      padding: ref.string,
    },
    required: ['length'],
  }),
});
