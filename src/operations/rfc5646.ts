// rfc5646 — language name or ISO 639-2 code to a language tag (https://developer.sailpoint.com/docs/extensibility/transforms/operations/rfc-5646).

import { rfc5646 as run } from '../runtime/locale.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const rfc5646 = defineOperation({
  type: 'rfc5646',
  doc: 'rfc5646 — language name or ISO 639-2 code to a language tag',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
