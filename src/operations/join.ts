// join — the values joined with a separator (documented on the operations index,
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/, not in the OpenAPI enum).

import { all, andThen } from '../providers/maybe.js';
import { joinValues } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const join = defineOperation({
  type: 'join',
  doc: 'join — values joined with a separator (documented, not in the OpenAPI enum)',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      values: ref.values,
      separator: ref.string,
    },
    required: ['values'],
  }),
  compile(ctx) {
    const values = ctx.list('values');
    const separator = ctx.string('separator', { default: ',' })!;
    return (input, ev) =>
      andThen(all(values.map((v) => v(input, ev))), (vals) =>
        separator.kind === 'constant'
          ? joinValues(vals, separator.value, ev)
          : andThen(separator.evaluate(input, ev), (sep) => joinValues(vals, sep === null ? '' : String(sep), ev)),
      );
  },
});
