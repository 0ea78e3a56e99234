// replaceAll — apply a table of Java regex → Java replacement pairs in order; no table, no
// change (https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace-all).

import { toJavaString } from '../runtime/java-string.js';
import type { JavaPattern, JavaReplacement } from '../runtime/regex/index.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const replaceAll = defineOperation({
  type: 'replaceAll',
  doc: 'replaceAll — apply a table of regex → replacement pairs in order',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      table: { type: 'object', additionalProperties: ref.string },
    },
  }),
  compile(ctx) {
    const table = ctx.attributes.table;
    if (table !== undefined && table !== null && (typeof table !== 'object' || Array.isArray(table))) {
      throw ctx.error('SCHEMA_TYPE', 'table must be an object of regex → replacement', { attribute: 'table' });
    }
    // Every pair is compiled now, in the table's order (Java String.replaceAll for each key).
    // A missing or empty table returns the input unchanged (docs, changed 2026-05).
    const pairs: Array<readonly [JavaPattern, JavaReplacement]> = Object.entries((table ?? {}) as Record<string, unknown>).map(([regex, replacement]) => {
      if (replacement !== null && typeof replacement === 'object') {
        throw ctx.error('SCHEMA_TYPE', 'a replacement must be a string', { attribute: ['table', regex] });
      }
      return [
        ctx.regex(regex, ctx.at('table', regex)),
        ctx.replacement(replacement === null ? '' : toJavaString(replacement as string | number | boolean), ctx.at('table', regex)),
      ] as const;
    });
    return (input) => {
      const text = textOf(input);
      if (text === null) return null;
      let out = text;
      for (const [pattern, replacement] of pairs) out = pattern.replaceAll(out, replacement);
      return out;
    };
  },
});
