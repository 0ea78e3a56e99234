// What a real tenant was observed to answer, each row a transform evaluated through a tenant's
// identity-profile preview on 2026-10-06 and published with its answer in
// https://github.com/christophe-chazeau-sp/sailpoint-optimusprime/tree/ff2cf64/tenant-check
// (the recorded label in each row's first column). Observations outrank the platform's
// documentation and stock Java (docs/decisions.md): a row here that fails is a difference from
// the platform, not from a library. The transforms are written here from the recorded facts;
// a null comes, as in the recording, from an identity attribute the identity does not have.

import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { isTransformsError } from '../../src/errors/index.js';

const SOURCE = 'https://github.com/christophe-chazeau-sp/sailpoint-optimusprime/tree/ff2cf64/tenant-check';
const RECORDED_AT = new Date('2026-10-06T13:47:58.482Z');

const identity = { id: 'observed-1', name: 'observed.identity', attributes: { firstname: 'Ada' } };
const providers = createMemoryProviders({ sources: [], identities: [identity], accounts: [] });
/** Generated code (the default) and the closures (`codegen: false`) must both answer as the tenant. */
const engines = { generated: createEngine({ providers, clock: () => RECORDED_AT }), closures: createEngine({ providers, clock: () => RECORDED_AT, codegen: false }) };

/** A value the identity does not have: null, as the recording's empty middle name. */
const NULL = { type: 'identityAttribute', attributes: { name: 'middleName' } };
const t = (type: string, attributes: Record<string, unknown>) => ({ name: 'observed', type, attributes });
const velocity = (value: string, variables: Record<string, unknown> = {}) => t('static', { value, ...variables });
const dateFormat = (input: string, formats: { inputFormat?: string; outputFormat?: string }) => t('dateFormat', { input, ...formats });

/** The tenant's answer: a value, or an error (our code for it pinned). */
type Answer = { value: unknown } | { error: string };

/** [recorded label, transform, the tenant's answer] */
const OBSERVED: ReadonlyArray<readonly [string, Record<string, unknown>, Answer]> = [
  // 1. join prints a null element as `null`; concat leaves it out (decision O5).
  ['join with null', t('join', { values: ['a', NULL, 'b'], separator: '-' }), { value: 'a-null-b' }],
  ['concat with null', t('concat', { values: ['a', NULL, 'b'] }), { value: 'ab' }],
  // 2. #if tests only null and false: "" is true (decision V8, Velocity 1.7's rule).
  ['velocity empty string in #if', velocity('#set($e = "")#if($e)T#{else}F#end'), { value: 'T' }],
  // 3. A variable holding "" is defined; a null one is not; null is no literal (V4, E6, V5).
  ['velocity quiet empty string', velocity('a$!x b', { x: '' }), { value: 'a b' }],
  ['velocity quiet null', velocity('a$!x b', { x: NULL }), { error: 'TEMPLATE_RENDER' }],
  ['velocity null variable', velocity('a$x b', { x: NULL }), { error: 'TEMPLATE_RENDER' }],
  ['velocity quiet after set null', velocity('#set($x = null)a$!x b'), { error: 'TEMPLATE_SYNTAX' }],
  ['velocity null result', velocity('#set($x = null)$x'), { error: 'TEMPLATE_SYNTAX' }],
  ['velocity quiet undefined', velocity('a$!nope b'), { error: 'TEMPLATE_RENDER' }],
  ['velocity undefined ref', velocity('x$nope y'), { error: 'TEMPLATE_RENDER' }],
  // 4. dateMath prints java.time's form: the zone Z, seconds left out when zero ("dateMath").
  ['dateMath month end', t('dateMath', { input: '2026-01-31T00:00:00Z', expression: '+1M' }), { value: '2026-02-28T00:00Z' }],
  ['dateMath round down', t('dateMath', { input: '2026-01-31T15:20:00Z', expression: '/d' }), { value: '2026-01-31T00:00Z' }],
  ['dateMath round', t('dateMath', { input: '2026-01-31T15:20:00Z', expression: '+1d/d', roundUp: true }), { value: '2026-02-02T00:00Z' }],
  ['dateMath round up on boundary', t('dateMath', { input: '2026-01-31T00:00:00Z', expression: '/d', roundUp: true }), { value: '2026-02-01T00:00Z' }],
  // 5. dateFormat's ISO8601 input is the full form with milliseconds; others are null ("Dates").
  ['dateFormat ISO millis in', dateFormat('2026-03-29T01:30:00.000Z', { inputFormat: 'ISO8601', outputFormat: 'yyyy-MM-dd HH:mm' }), { value: '2026-03-29 01:30' }],
  ['dateFormat zone', dateFormat('2026-03-29T01:30:00Z', { inputFormat: 'ISO8601', outputFormat: 'yyyy-MM-dd HH:mm z' }), { value: null }],
  ['dateFormat zone letter X', dateFormat('2026-03-29T01:30:00Z', { inputFormat: 'ISO8601', outputFormat: 'yyyy-MM-dd HH:mm X' }), { value: null }],
  ['dateFormat plain pattern out', dateFormat('2026-03-29T01:30:00Z', { inputFormat: 'ISO8601', outputFormat: 'yyyy-MM-dd HH:mm' }), { value: null }],
  ['dateFormat ISO date only in', dateFormat('2026-03-29', { inputFormat: 'ISO8601', outputFormat: 'yyyy-MM-dd' }), { value: null }],
  ['dateFormat ISO offset in', dateFormat('2026-03-29T01:30:00+02:00', { inputFormat: 'ISO8601', outputFormat: 'yyyy-MM-dd HH:mm' }), { value: null }],
  ['dateFormat no formats', dateFormat('2026-03-29T01:30:00Z', {}), { value: null }],
  // 6. An input the pattern cannot read is null, not an error.
  ['dateFormat bad input', dateFormat('notadate', { inputFormat: 'MM/dd/yyyy', outputFormat: 'ISO8601' }), { value: null }],
  // 7. The zone is GMT.
  ['dateFormat pattern to zone z', dateFormat('03/29/2026', { inputFormat: 'MM/dd/yyyy', outputFormat: 'yyyy-MM-dd HH:mm z' }), { value: '2026-03-29 00:00 GMT' }],
  // 8. Answers that already agreed, kept pinned.
  ['dateFormat epoch', dateFormat('1700000000000', { inputFormat: 'EPOCH_TIME_JAVA', outputFormat: 'ISO8601' }), { value: '2023-11-14T22:13:20.000Z' }],
  ['dateFormat pattern in', dateFormat('03/29/2026', { inputFormat: 'MM/dd/yyyy', outputFormat: 'ISO8601' }), { value: '2026-03-29T00:00:00.000Z' }],
  ['dateFormat pattern to pattern', dateFormat('03/29/2026', { inputFormat: 'MM/dd/yyyy', outputFormat: 'dd.MM.yyyy' }), { value: '29.03.2026' }],
  ['substring out of range', t('substring', { input: 'abc', begin: 1, end: 10 }), { error: 'EVAL_INDEX_OUT_OF_BOUNDS' }],
  ['substring offsets', t('substring', { input: 'abcdef', begin: 1, beginOffset: 1, end: 4 }), { value: 'cd' }],
  ['split trailing empty', t('split', { input: 'a,b,,', delimiter: ',', index: 3 }), { error: 'EVAL_INDEX_OUT_OF_BOUNDS' }],
  ['split regex delimiter', t('split', { input: 'a1b22c', delimiter: '\\d+', index: 2 }), { value: 'c' }],
  ['lookup no match', t('lookup', { input: 'XX', table: { US: 'United States' } }), { error: 'EVAL_LOOKUP_NO_MATCH' }],
  ['replace forceNull, matching', t('replace', { input: 'NULL_VALUE', regex: 'NULL_VALUE', replacement: '#set($forceNull = null)$forceNull' }), { error: 'TEMPLATE_SYNTAX' }],
  ['replace forceNull, not matching', t('replace', { input: 'O365-S', regex: 'NULL_VALUE', replacement: '#set($forceNull = null)$forceNull' }), { error: 'TEMPLATE_SYNTAX' }],
  ['replace regex', t('replace', { input: 'a.b.c', regex: '\\.', replacement: '-' }), { value: 'a-b-c' }],
  ['replace groups', t('replace', { input: 'John Smith', regex: '(\\w+) (\\w+)', replacement: '$2 $1' }), { value: 'Smith John' }],
  ['replaceAll table', t('replaceAll', { input: 'a-b_c', table: { '-': ' ', _: '.' } }), { value: 'a b.c' }],
  ['velocity "1" == 1', velocity('#if("1" == 1)T#{else}F#end'), { value: 'T' }],
  ['velocity multi-line', velocity('#if(true)\nA\n#end\nB\n#set($x = 1)\nC'), { value: 'A\nB\nC' }],
  ['velocity arithmetic', velocity('#set($n = 2 + 3)$n'), { value: '5' }],
  ['velocity interpolation', velocity('#set($n = "Ada")#set($m = "Hi $n")$m'), { value: 'Hi Ada' }],
  ['velocity foreach', velocity('#foreach($i in [1..3])$i#end'), { value: '123' }],
  [
    'velocity string methods',
    velocity('$a.substring(0, 3).toUpperCase()|$a.replaceAll("[aeiou]", "_")|$a.split(",").size()', { a: 'banana,x' }),
    { value: 'BAN|b_n_n_,x|2' },
  ],
  ['firstValid all null', t('firstValid', { values: [NULL, NULL] }), { value: null }],
  ['lower of null', t('lower', { input: NULL }), { value: null }],
  ['dateCompare now', t('dateCompare', { firstDate: '2026-01-01T00:00:00Z', secondDate: 'now', operator: 'LT', positiveCondition: 'yes', negativeCondition: 'no' }), { value: 'yes' }],
  ['conditional', t('conditional', { expression: '$a eq ABC', a: 'ABC', positiveCondition: 'yes', negativeCondition: 'no' }), { value: 'yes' }],
  ['normalizeNames', t('normalizeNames', { input: "JEAN-PIERRE o'neil mcdonald III" }), { value: "Jean-Pierre O'Neil McDonald III" }],
  ['e164phone FR', t('e164phone', { input: '06 12 34 56 78', defaultRegion: 'FR' }), { value: '+33612345678' }],
  ['iso3166', t('iso3166', { input: 'France' }), { value: 'FR' }],
  ['base64Encode accent', t('base64Encode', { input: 'é' }), { value: 'w6k=' }],
  ['decomposeDiacriticalMarks', t('decomposeDiacriticalMarks', { input: 'Élodie Ñúñez' }), { value: 'Elodie Nunez' }],
  ['leftPad', t('leftPad', { input: '7', length: 3, padding: '0' }), { value: '007' }],
];

async function answer(engine: (typeof engines)['generated'], transform: Record<string, unknown>): Promise<Answer> {
  try {
    return { value: await engine.evaluate(transform, { identity }) };
  } catch (error) {
    if (isTransformsError(error)) return { error: error.code };
    throw error;
  }
}

describe(`what a tenant answered (${SOURCE}, recorded 2026-10-06)`, () => {
  it.each(OBSERVED.map(([label, transform, expected]) => [label, transform, expected] as const))('%s', async (_label, transform, expected) => {
    expect(await answer(engines.generated, transform)).toEqual(expected);
    expect(await answer(engines.closures, transform)).toEqual(expected);
  });

  it('holds every recorded case once', () => {
    const labels = OBSERVED.map(([label]) => label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toHaveLength(52);
  });
});
