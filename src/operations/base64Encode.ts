// base64Encode — encode text as Base64 (https://developer.sailpoint.com/docs/extensibility/transforms/operations/base64-encode).

import { base64Encode as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const base64Encode = defineOperation({
  type: 'base64Encode',
  doc: 'base64Encode — encode text as Base64',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
