// replace — Java String.replaceAll(regex, replacement): every match is replaced (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace).

import { toJavaString } from '../runtime/java-string.js';
import type { Value } from '../engine/types.js';
import type { JavaPattern, JavaReplacement } from '../runtime/regex/index.js';
import { andThen } from '../providers/maybe.js';
import { attributesSchema, defineOperation, ref } from './spec.js';
import { resolver } from './support/resolve.js';

export const replace = defineOperation({
  type: 'replace',
  doc: 'replace — replace all matches of a Java regex, Java replacement syntax ($1, ${name}, \\$)',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: { regex: ref.string, replacement: ref.string },
    required: ['regex', 'replacement'],
  }),
  compile(ctx) {
    const regexAt = ctx.at('regex');
    const replacementAt = ctx.at('replacement');
    const regex = ctx.string('regex', { required: true })!;
    const replacement = ctx.string('replacement', { required: true })!;
    // Constant attributes (the usual case) are compiled here, once; a templated regex is
    // compiled per distinct rendered text through the engine's regex cache.
    const pattern = resolver(regex, (s) => ctx.regex(s, regexAt));
    const repl = resolver(replacement, (s) => ctx.replacement(s, replacementAt));
    const run = (input: Value, p: JavaPattern, r: JavaReplacement): Value =>
      input === null ? null : p.replaceAll(toJavaString(input), r);
    if (pattern.kind === 'constant' && repl.kind === 'constant') {
      const p = pattern.value;
      const r = repl.value;
      return (input) => run(input, p, r);
    }
    return (input, ev) => andThen(pattern.get(input, ev), (p) => andThen(repl.get(input, ev), (r) => run(input, p, r)));
  },
  generate(code) {
    const ctx = code.compile;
    const regex = ctx.string('regex', { required: true })!;
    const replacement = ctx.string('replacement', { required: true })!;
    // Templated patterns stay with the closure (compiled per rendered text).
    if (regex.kind !== 'constant' || replacement.kind !== 'constant') return undefined;
    const p = code.bind(ctx.regex(regex.value, ctx.at('regex')));
    const r = code.bind(ctx.replacement(replacement.value, ctx.at('replacement')));
    return `return ${code.input} === null ? null : ${p}.replaceAll(${code.rt}.str(${code.input}), ${r});`;
  },
});
