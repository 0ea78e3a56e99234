// §4/§6 normalizeNames — capitalisation rules for proper names. Reference: ../shared/reference/transforms.md.

import { normalizeNames as run } from '../runtime/names.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const normalizeNames = defineOperation({
  type: 'normalizeNames',
  doc: '§4/§6 normalizeNames — capitalisation rules for proper names',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
