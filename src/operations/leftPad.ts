// §4/§6 leftPad — Apache Commons StringUtils.leftPad. Reference: ../shared/reference/transforms.md.

import { andThen } from '../engine/maybe.js';
import { leftPad as pad } from '../runtime/java-string.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

/** A guard against a transform asking for a gigabyte string; far above any identity value. */
const MAX_PAD_LENGTH = 1_000_000;

export const leftPad = defineOperation({
  type: 'leftPad',
  doc: '§4/§6 leftPad — Apache Commons StringUtils.leftPad',
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
