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
});
