// §4 lower — lower case in the root locale. Reference: ../shared/reference/transforms.md.

import { javaLowerCase as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const lower = defineOperation({
  type: 'lower',
  doc: '§4 lower — lower case in the root locale',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
