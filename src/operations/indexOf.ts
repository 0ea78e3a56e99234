// §4 indexOf — first index of substring, -1 when absent. Reference: ../shared/reference/transforms.md.

import { andThen } from '../engine/maybe.js';
import { javaIndexOf } from '../runtime/java-string.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const indexOf = defineOperation({
  type: 'indexOf',
  doc: '§4 indexOf — first index of substring, -1 when absent',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      substring: ref.string,
    },
    required: ['substring'],
  }),
  compile(ctx) {
    const substring = ctx.string('substring', { required: true })!;
    // The result is the integer (the docs print it as "0"); null input gives null.
    return (input, ev) => {
      const text = textOf(input);
      if (text === null) return null;
      return substring.kind === 'constant'
        ? javaIndexOf(text, substring.value)
        : andThen(substring.evaluate(input, ev), (s) => (s === null ? -1 : javaIndexOf(text, String(s))));
    };
  },
});
