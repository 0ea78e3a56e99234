// decomposeDiacriticalMarks — NFKD then strip combining marks (https://developer.sailpoint.com/docs/extensibility/transforms/operations/decompose-diacritical-marks).

import { decomposeDiacriticalMarks as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const decomposeDiacriticalMarks = defineOperation({
  type: 'decomposeDiacriticalMarks',
  doc: 'decomposeDiacriticalMarks — NFKD then strip combining marks',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
