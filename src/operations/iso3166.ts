// §4 iso3166 — country code in alpha2, alpha3 or numeric format. Reference: ../shared/reference/transforms.md.
// Schema only until its evaluator lands (issue 5): evaluation fails with EVAL_NOT_EVALUABLE.

import { attributesSchema, defineOperation } from './spec.js';

export const iso3166 = defineOperation({
  type: 'iso3166',
  doc: '§4 iso3166 — country code in alpha2, alpha3 or numeric format',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      format: { type: 'string', enum: ['alpha2', 'alpha3', 'numeric'] },
    },
  }),
});
