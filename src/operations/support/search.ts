// The shared shape of indexOf and lastIndexOf: the position of `substring` in the input,
// -1 when absent. The result is the integer (the docs print it as "0"); null input gives null.

import { andThen } from '../../providers/maybe.js';
import type { OperationSpec } from '../../engine/types.js';
import { textOf } from './text.js';
import { attributesSchema, defineOperation, ref } from '../spec.js';

export function searchOperation(type: string, doc: string, find: (text: string, substring: string) => number): OperationSpec {
  return defineOperation({
    type,
    doc,
    attributesRequired: false,
    attributesSchema: attributesSchema({
      properties: {
        substring: ref.string,
      },
      required: ['substring'],
    }),
    compile(ctx) {
      const substring = ctx.string('substring', { required: true })!;
      return (input, ev) => {
        const text = textOf(input);
        if (text === null) return null;
        return substring.kind === 'constant'
          ? find(text, substring.value)
          : andThen(substring.evaluate(input, ev), (s) => (s === null ? -1 : find(text, String(s))));
      };
    },
  });
}
