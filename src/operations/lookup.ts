// lookup — exact, case-sensitive match of the stringified input against the table
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/lookup).

import { Failure } from '../errors/index.js';
import { toJavaString } from '../runtime/java-string.js';
import { decide } from '../engine/trace.js';

import type { Evaluator, Value } from '../engine/types.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const lookup = defineOperation({
  type: 'lookup',
  doc: 'lookup — table match on the input, "default" when no key matches, error without one',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: { table: { type: 'object', additionalProperties: ref.value } },
    required: ['table'],
  }),
  compile(ctx) {
    const table = ctx.attributes.table as Record<string, unknown>;
    const entries = new Map<string, Evaluator>();
    let fallback: Evaluator | undefined;
    for (const key of Object.keys(table)) {
      const evaluate = ctx.valueAt(table[key], 'table', key);
      // The literal key "default" is reserved for the fallback (the lookup page above).
      if (key === 'default') fallback = evaluate;
      else entries.set(key, evaluate);
    }
    const pointer = ctx.at('table');
    if (ctx.tracing) {
      return (input, ev) => {
        const key = input === null ? null : toJavaString(input as Value);
        const matched = key !== null && entries.has(key);
        decide(ev, { key, matched, usedDefault: !matched && fallback !== undefined });
        if (matched) return entries.get(key)!(input, ev);
        if (fallback) return fallback(input, ev);
        throw new Failure('EVAL_LOOKUP_NO_MATCH', `no table key matches ${JSON.stringify(input)} and the table has no default`, pointer);
      };
    }
    return (input, ev) => {
      // A null input matches no key (it is not the string "null"): it takes the default.
      const hit = input === null ? undefined : entries.get(toJavaString(input as Value));
      if (hit) return hit(input, ev);
      if (fallback) return fallback(input, ev);
      throw new Failure('EVAL_LOOKUP_NO_MATCH', `no table key matches ${JSON.stringify(input)} and the table has no default`, pointer);
    };
  },
  generate(code) {
    const ctx = code.compile;
    const table = ctx.attributes.table as Record<string, unknown>;
    const keys = Object.keys(table).filter((key) => key !== 'default');
    // The key's position in a Map, then a switch: only the matching entry is evaluated.
    const index = code.bind(new Map(keys.map((key, i) => [key, i])));
    const { rt, input } = code;
    const cases = keys.map((key, i) => `  case ${i}: return ${code.valueAt(table[key], 'table', key)};`);
    const miss = Object.prototype.hasOwnProperty.call(table, 'default')
      ? `return ${code.valueAt(table.default, 'table', 'default')};`
      : `throw ${rt}.error('EVAL_LOOKUP_NO_MATCH', 'no table key matches ' + JSON.stringify(${input}) + ' and the table has no default', ${code.literal(ctx.at('table'))});`;
    return [`switch (${input} === null ? undefined : ${index}.get(${rt}.str(${input}))) {`, ...cases, '}', miss].join('\n');
  },
});

