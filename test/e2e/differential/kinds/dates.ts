// java.text.SimpleDateFormat: parse `input` with `inputFormat`, format the date with
// `outputFormat` (GMT, the platform's zone, Locale.US, lenient as Java's default; two-digit years resolve into the
// century starting 80 years before `now`), against src/runtime/dates. Patterns are drawn from
// SimpleDateFormat's letters and quoted literals; inputs are a random instant formatted with the
// input pattern (valid), then sometimes altered: a field out of range (day 32, month 13, hour 25 —
// lenient rollover), a name in another case, a character dropped or added, trailing text.

import fc from 'fast-check';
import { compileSimpleDateFormat } from '../../../../src/runtime/dates/index.js';
import { capture, type Kind } from '../harness.js';

const FIELDS = [
  'y', 'yy', 'yyyy', 'M', 'MM', 'MMM', 'MMMM', 'd', 'dd', 'H', 'HH', 'h', 'hh', 'a', 'm', 'mm', 's', 'ss',
  'S', 'SSS', 'E', 'EEE', 'EEEE', 'D', 'DDD', 'w', 'ww', 'u', 'z', 'zzzz', 'Z', 'X', 'XX', 'XXX', 'k', 'K', 'F', 'W', 'G', 'L', 'LLLL', 'YYYY',
];
const SEPARATORS = ['-', '/', ' ', ':', '.', ',', ', ', "'T'", "'at'", "''", ''];

export const datePattern: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.map(([f, s]) => f + s).join(''));

/** Common real-world shapes, so that parse and format agree often enough to test the output side. */
const commonPattern = fc.constantFrom(
  'yyyy-MM-dd', 'MM/dd/yyyy', 'dd/MM/yy', 'yyyyMMdd', 'yyyyMMddHHmmss', "yyyy-MM-dd'T'HH:mm:ss.SSSX", 'MMM d, yyyy',
  'EEEE, MMMM d, yyyy h:mm a', 'dd-MMM-yy', 'M/d/yy H:mm', "yyyy-MM-dd'T'HH:mm:ssZ", 'yyyy.DDD', 'yy', "yyyy-'W'ww-u",
);

const pattern = fc.oneof({ weight: 2, arbitrary: commonPattern }, { weight: 3, arbitrary: datePattern });
/** 1900–2100, to the millisecond (Java's Julian calendar before 1582 is outside every identity's data). */
const instant = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 11, 31) });

const mutation = fc.oneof(
  { weight: 6, arbitrary: fc.constant((s: string) => s) },
  { weight: 1, arbitrary: fc.constantFrom('32', '13', '00', '25', '60', '99', '0', '-1', '366').map((n) => (s: string) => s.replace(/\d{1,2}/, n)) },
  { weight: 1, arbitrary: fc.nat(30).map((i) => (s: string) => s.slice(0, i % (s.length + 1)) + s.slice((i % (s.length + 1)) + 1)) },
  { weight: 1, arbitrary: fc.constantFrom('x', ' ', '0', 'Z', '+0100', 'am', 'PM', ' GMT', '.5').map((t) => (s: string) => s + t) },
  { weight: 1, arbitrary: fc.constant((s: string) => s.toUpperCase()) },
  { weight: 1, arbitrary: fc.constant((s: string) => s.toLowerCase()) },
  { weight: 1, arbitrary: fc.constant((s: string) => s.replace(/(\d{4})/, (y) => y.slice(2))) },
  { weight: 1, arbitrary: fc.constantFrom('', '12/31/1999', '2023-02-29', 'Feb 30, 2021', 'Tuesday', '1e3', ' 2023-01-05').map((t) => () => t) },
);

/**
 * Known differences (docs/decisions.md, Dates, D1–D3): D1 — without a week of year in the
 * pattern, Y is read as the calendar year (the lifecycle guide's week-year); D2 — dates before
 * the Gregorian cutover; D3 — instants beyond ±275,760 years, which a JavaScript date cannot hold.
 */
export interface DateCase {
  input: string;
  inputFormat: string;
  outputFormat: string;
  now: number;
}

/** The input: an instant written with the input pattern (by our formatter; Java then reads it), maybe altered. */
function inputFor(inputFormat: string, at: number, alter: (s: string) => string): string {
  let text: string;
  try {
    text = compileSimpleDateFormat(inputFormat).format(at);
  } catch {
    text = '2023-06-15';
  }
  return alter(text);
}

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
/** Java's GregorianCalendar is Julian before 1582-10-15; ours is proleptic Gregorian (docs/decisions.md, "SimpleDateFormat details"). */
const JULIAN_END = Date.UTC(1582, 9, 15);

export const dateKind: Kind<DateCase> = {
  name: 'dateFormat',
  arbitrary: fc
    .record({ inputFormat: pattern, outputFormat: pattern, at: instant, alter: mutation, now: fc.constantFrom(NOW, Date.UTC(2001, 5, 30)) })
    .map(({ inputFormat, outputFormat, at, alter, now }) => ({ input: inputFor(inputFormat, at, alter), inputFormat, outputFormat, now })),
  java: (oracle, c) => oracle.ask('date', { ...c }),
  ours: (c) =>
    capture(() => {
      const parser = compileSimpleDateFormat(c.inputFormat);
      const formatter = compileSimpleDateFormat(c.outputFormat);
      return formatter.format(parser.parse(c.input, { now: c.now }));
    }),
  sameError: (javaClass, _cause, ours) =>
    (javaClass === 'java.text.ParseException' && ours.error === 'EVAL_DATE_PARSE') ||
    (javaClass === 'java.lang.IllegalArgumentException' && ours.error === 'EVAL_ILLEGAL_ARGUMENT'),
  known: (c, _java, ours) => {
    if ('error' in ours && ours.error === 'EVAL_DATE_PARSE' && /out of range/.test(ours.message ?? '')) return 'D3';
    if (/Y/.test(c.inputFormat.replace(/'[^']*'/g, '')) && !/w/.test(c.inputFormat.replace(/'[^']*'/g, ''))) return 'D1';
    try {
      const fields: Record<string, number> = {};
      const ms = compileSimpleDateFormat(c.inputFormat).parse(c.input, { now: c.now, fields });
      // Java counts from a Julian date when the result, or the year it starts from, is before the cutover.
      if (ms < JULIAN_END || (fields.year ?? 1970) < 1583 || (fields.weekYear ?? 1970) < 1583) return 'D2';
    } catch {
      // no instant: not a calendar question
    }
    return undefined;
  },
  unitTest: (c, java) =>
    [
      `const parsed = compileSimpleDateFormat(${JSON.stringify(c.inputFormat)}).parse(${JSON.stringify(c.input)}, { now: ${c.now} });`,
      'ok' in java
        ? `expect(compileSimpleDateFormat(${JSON.stringify(c.outputFormat)}).format(parsed)).toBe(${JSON.stringify(java.ok)});`
        : `// Java: ${JSON.stringify(java)}`,
    ].join('\n'),
};
