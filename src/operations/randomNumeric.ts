// randomNumeric — [0-9]{length}, length default 10 (the docs; the OpenAPI's 32 is a copy of randomAlphaNumeric's), 1 to 450 (https://developer.sailpoint.com/docs/extensibility/transforms/operations/random-numeric).

import { andThen } from '../providers/maybe.js';
import { randomNumeric as generate } from '../runtime/random.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const randomNumeric = defineOperation({
  type: 'randomNumeric',
  doc: 'randomNumeric — [0-9]{length}, length default 10, max 450',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      length: ref.integer,
    },
  }),
  compile(ctx) {
    const length = ctx.integer('length', { default: 10, min: 1, max: 450 })!;
    // Drawn from the engine's injected random source: reproducible in tests.
    return (input, ev) => andThen(length(input, ev), (n) => generate(n as number, ev.random));
  },
});
