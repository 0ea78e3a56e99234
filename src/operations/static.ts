// §5.3 static — a fixed string or a Velocity template over dynamic variables. Reference: ../shared/reference/transforms.md.

import { attributesSchema, defineOperation, ref } from './spec.js';

export const staticOperation = defineOperation({
  type: 'static',
  doc: '§5.3 static — a fixed string or a Velocity template; every other attribute is a dynamic variable',
  attributesRequired: false,
  // The OpenAPI names the attribute `values`; every doc example uses `value` (reference §10.2).
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
});
