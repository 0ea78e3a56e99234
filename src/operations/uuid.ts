// §4 uuid — a version-4 UUID drawn from the engine's random source. Reference: ../shared/reference/transforms.md.

import { uuidV4 } from '../runtime/random.js';
import { attributesSchema, defineOperation } from './spec.js';

export const uuid = defineOperation({
  type: 'uuid',
  doc: '§4 uuid — a random (version 4) UUID',
  attributesRequired: false,
  attributesSchema: attributesSchema({}),
  compile() {
    return (_input, ev) => uuidV4(ev.random);
  },
});
