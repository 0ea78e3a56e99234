// §4 base64Decode — decode Base64 to text. Reference: ../shared/reference/transforms.md.

import { base64Decode as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const base64Decode = defineOperation({
  type: 'base64Decode',
  doc: '§4 base64Decode — decode Base64 to text',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
