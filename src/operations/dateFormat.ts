// dateFormat — parse with inputFormat, print with outputFormat (Java SimpleDateFormat or
// the named constructs ISO8601, LDAP, PEOPLE_SOFT, EPOCH_TIME_JAVA, EPOCH_TIME_WIN32) (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-format).

import { andThen } from '../providers/maybe.js';
import type { CompileContext } from '../engine/types.js';
import { compileDateFormat, type DateFormat } from '../runtime/dates/index.js';
import { textOf } from './support/text.js';
import { resolver, type Resolved } from './support/resolve.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

/** A format attribute: compiled once when constant (an illegal pattern is a compile error). */
function formatAttribute(ctx: CompileContext, name: string): Resolved<DateFormat> {
  const attribute = ctx.string(name, { default: 'ISO8601' })!;
  return resolver(attribute, (source) => {
    try {
      return compileDateFormat(source);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw ctx.error(attribute.kind === 'constant' ? 'COMPILE_INVALID_ATTRIBUTE' : 'EVAL_ILLEGAL_ARGUMENT', `${name}: ${message}`, {
        attribute: name,
        cause: error,
      });
    }
  });
}

export const dateFormat = defineOperation({
  type: 'dateFormat',
  doc: 'dateFormat — Java SimpleDateFormat or named constructs',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      inputFormat: ref.string,
      outputFormat: ref.string,
    },
  }),
  compile(ctx) {
    const inputFormat = formatAttribute(ctx, 'inputFormat');
    const outputFormat = formatAttribute(ctx, 'outputFormat');
    return (input, ev) => {
      // "now" is not special here (the docs: dateFormat does not support it); null stays null.
      const text = textOf(input);
      if (text === null) return null;
      return andThen(inputFormat.get(input, ev), (from) =>
        andThen(outputFormat.get(input, ev), (to) => to.format(from.parse(text, { now: ev.now.getTime() }))),
      );
    };
  },
  generate(code) {
    const { input, ev } = code;
    const format = (name: string): string => {
      const resolved = formatAttribute(code.compile, name);
      return resolved.kind === 'constant' ? code.bind(resolved.value) : code.sync(`${code.bind(resolved.get)}(${input}, ${ev})`);
    };
    const t = code.local();
    return [
      `const ${t} = ${code.bind(textOf)}(${input});`,
      `if (${t} === null) return null;`,
      `const from = ${format('inputFormat')};`,
      `return ${format('outputFormat')}.format(from.parse(${t}, { now: ${ev}.now.getTime() }));`,
    ].join('\n');
  },
});
