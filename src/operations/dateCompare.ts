// dateCompare — compare two ISO 8601 dates (or "now") and return the positive or negative condition (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-compare).

import { codedError } from '../errors/index.js';
import { andThen, type MaybePromise } from '../providers/maybe.js';
import type { Evaluation, Evaluator, Value } from '../engine/types.js';
import { compareDates, parseDateCompareOperand, parseDateCompareOperator } from '../runtime/dates/index.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

/** LT, LTE, GT, GTE in any case: the OpenAPI enum is upper case, every doc example lower case. */
const OPERATOR_SPELLINGS = ['LT', 'LTE', 'GT', 'GTE'].flatMap(function spellings(word: string): string[] {
  if (word === '') return [''];
  const rest = spellings(word.slice(1));
  return [...rest.map((r) => word[0]!.toUpperCase() + r), ...rest.map((r) => word[0]!.toLowerCase() + r)];
});

export const dateCompare = defineOperation({
  type: 'dateCompare',
  doc: 'dateCompare — compare two ISO 8601 dates (or "now")',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      firstDate: ref.stringOrTransform,
      secondDate: ref.stringOrTransform,
      operator: { type: 'string', enum: OPERATOR_SPELLINGS },
      positiveCondition: ref.stringOrTransform,
      negativeCondition: ref.stringOrTransform,
    },
    required: ['firstDate', 'secondDate', 'operator', 'positiveCondition', 'negativeCondition'],
  }),
  compile(ctx) {
    const operatorText = ctx.attributes.operator;
    // Case-insensitive: the OpenAPI enum is upper case, every doc example lower case.
    const operator = typeof operatorText === 'string' ? parseDateCompareOperator(operatorText) : undefined;
    if (operator === undefined) {
      throw ctx.error('COMPILE_INVALID_ATTRIBUTE', `operator must be LT, LTE, GT or GTE, got ${JSON.stringify(operatorText)}`, { attribute: 'operator' });
    }
    const date = (name: 'firstDate' | 'secondDate'): ((input: Value, ev: Evaluation) => MaybePromise<number>) => {
      const evaluate: Evaluator | undefined = ctx.value(name);
      if (evaluate === undefined) throw ctx.error('SCHEMA_REQUIRED', `attribute "${name}" is required`, { attribute: name });
      const pointer = ctx.at(name);
      return (input, ev) =>
        andThen(evaluate(input, ev), (v): number => {
          const text = textOf(v);
          if (text === null) throw codedError('EVAL_ILLEGAL_ARGUMENT', `${name} is null`, { path: pointer });
          try {
            return parseDateCompareOperand(text, ev.now.getTime());
          } catch (error) {
            throw codedError('EVAL_DATE_PARSE', `${name}: ${(error as Error).message}`, { path: pointer, cause: error });
          }
        });
    };
    const first = date('firstDate');
    const second = date('secondDate');
    const positive = ctx.value('positiveCondition')!;
    const negative = ctx.value('negativeCondition')!;
    return (input, ev) =>
      andThen(first(input, ev), (a) =>
        andThen(second(input, ev), (b) => (compareDates(a, operator, b) ? positive : negative)(input, ev)),
      );
  },
});
