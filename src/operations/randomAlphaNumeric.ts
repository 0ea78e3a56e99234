// randomAlphaNumeric — [A-Za-z0-9]{length}, length default 32, 1 to 450 (https://developer.sailpoint.com/docs/extensibility/transforms/operations/random-alphanumeric).

import { andThen } from '../providers/maybe.js';
import { randomAlphaNumeric as generate } from '../runtime/random.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const randomAlphaNumeric = defineOperation({
  type: 'randomAlphaNumeric',
  doc: 'randomAlphaNumeric — [A-Za-z0-9]{length}, length default 32, max 450',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      length: ref.integer,
    },
  }),
  compile(ctx) {
    const length = ctx.integer('length', { default: 32, min: 1, max: 450 })!;
    // Drawn from the engine's injected random source: reproducible in tests.
    return (input, ev) => andThen(length(input, ev), (n) => generate(n as number, ev.random));
  },
});
