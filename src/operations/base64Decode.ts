// base64Decode — decode Base64 to text (https://developer.sailpoint.com/docs/extensibility/transforms/operations/base64-decode).

import { base64Decode as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const base64Decode = defineOperation({
  type: 'base64Decode',
  doc: 'base64Decode — decode Base64 to text',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
