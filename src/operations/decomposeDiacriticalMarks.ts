// §4 decomposeDiacriticalMarks — NFKD then strip combining marks. Reference: ../shared/reference/transforms.md.

import { decomposeDiacriticalMarks as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const decomposeDiacriticalMarks = defineOperation({
  type: 'decomposeDiacriticalMarks',
  doc: '§4 decomposeDiacriticalMarks — NFKD then strip combining marks',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
