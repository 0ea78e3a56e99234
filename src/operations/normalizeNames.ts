// normalizeNames — capitalisation rules for proper names (https://developer.sailpoint.com/docs/extensibility/transforms/operations/name-normalizer).

import { normalizeNames as run } from '../runtime/names.js';
import { mapText } from './support/text.js';
import { attributesSchema, defineOperation } from './spec.js';

export const normalizeNames = defineOperation({
  type: 'normalizeNames',
  doc: 'normalizeNames — capitalisation rules for proper names',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return mapText(run);
  },
});
