// §4 trim — Java String.trim (characters <= U+0020). Reference: ../shared/reference/transforms.md.

import { javaTrim as run } from '../runtime/java-string.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const trim = defineOperation({
  type: 'trim',
  doc: '§4 trim — Java String.trim (characters <= U+0020)',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
