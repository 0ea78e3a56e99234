// The shared shape of leftPad and rightPad: Apache Commons StringUtils padding of the
// input to `length` with `padding` (default one space); null input gives null.

import { andThen } from '../../providers/maybe.js';
import type { OperationSpec } from '../../engine/types.js';
import { textOf } from './text.js';
import { attributesSchema, defineOperation, ref } from '../spec.js';

/** A guard against a transform asking for a gigabyte string; far above any identity value. */
const MAX_PAD_LENGTH = 1_000_000;

export function padOperation(type: string, doc: string, pad: (text: string, size: number, padding: string | null) => string | null): OperationSpec {
  return defineOperation({
    type,
    doc,
    attributesRequired: false,
    attributesSchema: attributesSchema({
      properties: {
        length: ref.integer,
        padding: ref.string,
      },
      required: ['length'],
    }),
    compile(ctx) {
      const length = ctx.integer('length', { required: true, min: 0, max: MAX_PAD_LENGTH })!;
      const padding = ctx.string('padding', { default: ' ' })!;
      return (input, ev) => {
        const text = textOf(input);
        if (text === null) return null;
        return andThen(length(input, ev), (size) =>
          padding.kind === 'constant'
            ? pad(text, size as number, padding.value)
            : andThen(padding.evaluate(input, ev), (p) => pad(text, size as number, p === null ? null : String(p))),
        );
      };
    },
  });
}
