// §4 lastIndexOf — last index of substring, -1 when absent. Reference: ../shared/reference/transforms.md.

import { andThen } from '../engine/maybe.js';
import { javaLastIndexOf } from '../runtime/java-string.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const lastIndexOf = defineOperation({
  type: 'lastIndexOf',
  doc: '§4 lastIndexOf — last index of substring, -1 when absent',
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
        ? javaLastIndexOf(text, substring.value)
        : andThen(substring.evaluate(input, ev), (s) => (s === null ? -1 : javaLastIndexOf(text, String(s))));
    };
  },
});
