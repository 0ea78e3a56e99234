// uuid — a version-4 UUID drawn from the engine's random source (https://developer.sailpoint.com/docs/extensibility/transforms/operations/uuid-generator).

import { uuidV4 } from '../runtime/random.js';
import { attributesSchema, defineOperation } from './spec.js';

export const uuid = defineOperation({
  type: 'uuid',
  doc: 'uuid — a random (version 4) UUID',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return (_input, ev) => uuidV4(ev.random);
  },
});
