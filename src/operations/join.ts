// §4 join — the values joined with a separator (documented, not in the OpenAPI enum). Reference: ../shared/reference/transforms.md.

import { all, andThen } from '../engine/maybe.js';
import { joinValues } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const join = defineOperation({
  type: 'join',
  doc: '§4 join — values joined with a separator (documented, not in the OpenAPI enum)',
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
