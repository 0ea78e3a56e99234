// static — a fixed string or a Velocity template over dynamic variables (https://developer.sailpoint.com/docs/extensibility/transforms/operations/static).

import { attributesSchema, defineOperation, ref } from './spec.js';
import { simpleTemplate } from '../engine/codegen/template.js';
import { identityTemplate } from '../engine/codegen/identity-template.js';

export const staticOperation = defineOperation({
  type: 'static',
  doc: 'static — a fixed string or a Velocity template; every other attribute is a dynamic variable',
  attributesRequired: false,
  // The OpenAPI names the attribute `values`; every doc example uses `value`, as do we.
  attributesSchema: attributesSchema({ properties: { value: ref.stringOrTransform }, required: ['value'], dynamicVariables: true }),
  compile(ctx) {
    const variables = ctx.dynamicVariables(['value']);
    const raw = ctx.attributes.value;
    if (typeof raw !== 'string') {
      // A nested transform (or a scalar) as the value: evaluated as is.
      const inner = ctx.value('value')!;
      return inner;
    }
    const template = ctx.template(raw, ctx.at('value'));
    return ctx.renderer(template, variables);
  },
  generate(code) {
    const ctx = code.compile;
    const raw = ctx.attributes.value;
    if (typeof raw !== 'string') return `return ${code.value('value')};`;
    const template = ctx.template(raw, ctx.at('value'));
    // A template without references is its text (folded); otherwise only the variables it names are evaluated.
    if (template.isConstant) return `return ${code.literal(template.source)};`;
    const names = code.dynamicVariableNames(['value']).filter((name) => template.references.has(name));
    const values = names.map((name) => code.value(name)!);
    const general = (args: readonly string[]) => `return ${code.render(template, names, args)};`;
    // One $identity reference (the identity or its manager) read from the identity graph, unless
    // a dynamic variable named identity would shadow it (engine/codegen/identity-template.ts).
    if (names.length === 0 && !code.dynamicVariableNames(['value']).includes('identity')) {
      const read = identityTemplate(template, code, general([]));
      if (read !== undefined) return read;
    }
    // The commonest shapes (text, references, #if on string comparisons) as JavaScript, while
    // every variable is present; the general renderer otherwise (engine/codegen/template.ts).
    const locals = names.map(() => code.local());
    const strings = names.map(() => code.local());
    const out = code.local();
    const body = simpleTemplate(template.source, names, strings, out);
    if (body === undefined) return general(values);
    return `${locals.map((l, i) => `const ${l} = ${values[i]};`).join('\n')}
if (${locals.map((l) => `${l} !== null && ${l} !== undefined`).join(' && ') || 'true'}) {
  ${strings.map((s, i) => `const ${s} = ${code.rt}.str(${locals[i]});`).join('\n')}
  let ${out} = '';
  ${body}
  if (${out}.length <= ${code.ev}.limits.maxStringLength) return ${out};
}
${general(locals)}`;
  },
});
