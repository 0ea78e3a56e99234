// concat — the values joined in order, no separator (https://developer.sailpoint.com/docs/extensibility/transforms/operations/concat).

import { all, andThen } from '../providers/maybe.js';
import { joinValues } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const concat = defineOperation({
  type: 'concat',
  doc: 'concat — the values joined in order, no separator',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: { values: ref.values },
    required: ['values'],
  }),
  compile(ctx) {
    const values = ctx.list('values');
    return (input, ev) => andThen(all(values.map((v) => v(input, ev))), (vals) => joinValues(vals, '', ev));
  },
  generate(code) {
    return `return ${code.bind(joinValues)}([${code.list('values').join(', ')}], '', ${code.ev});`;
  },
});
