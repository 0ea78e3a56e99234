// §4 decomposeDiacriticalMarks — NFKD then strip combining marks. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const decomposeDiacriticalMarks = defineOperation({
  type: 'decomposeDiacriticalMarks',
  doc: '§4 decomposeDiacriticalMarks — NFKD then strip combining marks',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
});
