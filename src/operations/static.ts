// static — a fixed string or a Velocity template over dynamic variables (https://developer.sailpoint.com/docs/extensibility/transforms/operations/static).

import { attributesSchema, defineOperation, ref } from './spec.js';

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
    return `return ${code.rt}.render(${code.bind(template)}, ${code.bind(names)}, [${values.join(', ')}], ${code.ev});`;
  },
});
