// §4 rfc5646 — language name or ISO 639-2 code to a language tag. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const rfc5646 = defineOperation({
  type: 'rfc5646',
  doc: '§4 rfc5646 — language name or ISO 639-2 code to a language tag',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
});
