// §4 base64Encode — encode text as Base64. Reference: ../shared/reference/transforms.md.

import { base64Encode as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const base64Encode = defineOperation({
  type: 'base64Encode',
  doc: '§4 base64Encode — encode text as Base64',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
