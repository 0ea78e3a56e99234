// substring — input.substring(begin + beginOffset, end + endOffset) with the -1 sentinels
// (begin -1 → 0, end -1 or absent → the end); Java's StringIndexOutOfBoundsException otherwise (https://developer.sailpoint.com/docs/extensibility/transforms/operations/substring).

import { andThen } from '../providers/maybe.js';
import type { Evaluator } from '../engine/types.js';
import { javaSubstring } from '../runtime/java-string.js';
import { needsTemplate } from '../runtime/velocity/index.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const substring = defineOperation({
  type: 'substring',
  doc: 'substring — input.substring(begin+beginOffset, end+endOffset), -1 sentinels',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      begin: ref.integerOrTransform,
      beginOffset: ref.integer,
      end: ref.integerOrTransform,
      endOffset: ref.integer,
    },
    required: ['begin'],
  }),
  compile(ctx) {
    const begin = ctx.integer('begin', { required: true })!;
    const end: Evaluator | undefined = ctx.integer('end');
    const beginOffset = ctx.constantInteger('beginOffset', { default: 0 })!;
    const endOffset = ctx.constantInteger('endOffset', { default: 0 })!;
    return (input, ev) => {
      const text = textOf(input);
      if (text === null) return null;
      return andThen(begin(input, ev), (b) =>
        andThen(end === undefined ? -1 : end(input, ev), (e) => {
          // The offsets apply only when their bound is given and is not the -1 sentinel.
          const from = b === -1 ? 0 : (b as number) + beginOffset;
          const to = e === -1 ? text.length : (e as number) + endOffset;
          // Out of range: StringIndexOutOfBoundsException, located here by the compile wrapper.
          return javaSubstring(text, from, to);
        }),
      );
    };
  },
  generate(code) {
    const ctx = code.compile;
    const { input } = code;
    const bound = (name: string, e: Evaluator | undefined): string => {
      if (e === undefined) return '-1';
      const raw = ctx.attributes[name];
      // A constant bound is checked and folded at compile time.
      if (typeof raw === 'number' || (typeof raw === 'string' && !needsTemplate(raw))) return code.literal(e(null, undefined as never) as number);
      return code.sync(`${code.bind(e)}(${input}, ${code.ev})`);
    };
    const begin = bound('begin', ctx.integer('begin', { required: true }));
    const end = bound('end', ctx.integer('end'));
    const beginOffset = ctx.constantInteger('beginOffset', { default: 0 })!;
    const endOffset = ctx.constantInteger('endOffset', { default: 0 })!;
    const [t, b, e] = [code.local(), code.local(), code.local()];
    return [
      `const ${t} = ${code.bind(textOf)}(${input});`,
      `if (${t} === null) return null;`,
      `const ${b} = ${begin};`,
      `const ${e} = ${end};`,
      `return ${code.bind(javaSubstring)}(${t}, ${b} === -1 ? 0 : ${b} + ${beginOffset}, ${e} === -1 ? ${t}.length : ${e} + ${endOffset});`,
    ].join('\n');
  },
});
