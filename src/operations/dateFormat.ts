// §4/§6 dateFormat — Java SimpleDateFormat or named constructs. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const dateFormat = defineOperation({
  type: 'dateFormat',
  doc: '§4/§6 dateFormat — Java SimpleDateFormat or named constructs',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      inputFormat: ref.string,
      outputFormat: ref.string,
    },
  }),
});
