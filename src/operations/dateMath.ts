// dateMath — add, subtract and round an ISO 8601 UTC date (or now); output yyyy-MM-dd'T'HH:mm (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-math).

import { andThen } from '../providers/maybe.js';
import { formatDateMathOutput, parseDateMath, parseIso8601, type DateMathExpression } from '../runtime/dates/index.js';
import { textOf } from './support/text.js';
import { resolver } from './support/resolve.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const dateMath = defineOperation({
  type: 'dateMath',
  doc: 'dateMath — date arithmetic and rounding; output yyyy-MM-dd\'T\'HH:mm',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      expression: ref.string,
      roundUp: ref.boolean,
    },
    required: ['expression'],
  }),
  compile(ctx) {
    const attribute = ctx.string('expression', { required: true })!;
    const roundUp = ctx.boolean('roundUp', false);
    // A constant expression is parsed here: "/w" and syntax errors surface when the transform
    // is compiled (validation), located at the attribute.
    const expression = resolver<DateMathExpression>(attribute, (source) => {
      try {
        return parseDateMath(source);
      } catch (error) {
        throw ctx.error(attribute.kind === 'constant' ? 'COMPILE_INVALID_ATTRIBUTE' : 'EVAL_DATE_MATH', (error as Error).message, {
          attribute: 'expression',
          cause: error,
        });
      }
    });
    return (input, ev) =>
      andThen(expression.get(input, ev), (expr) => {
        // "now" wins over the input (the docs); otherwise the input must be ISO 8601.
        let base: number;
        if (expr.anchoredToNow) {
          base = ev.now.getTime();
        } else {
          const text = textOf(input);
          if (text === null) return null;
          base = parseIso8601(text);
        }
        return formatDateMathOutput(expr.apply(base, roundUp));
      });
  },
});
