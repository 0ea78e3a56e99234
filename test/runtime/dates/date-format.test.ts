// SimpleDateFormat and the named constructs of dateFormat
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-format).
import { describe, expect, it } from 'vitest';
import { compileDateFormat, compileSimpleDateFormat, formatIso8601 } from '../../../src/runtime/dates/index.js';
import { TransformsError } from '../../../src/errors/index.js';

const now = Date.parse('2026-11-22T06:00:00.000Z');
const convert = (input: string, from: string, to: string): string =>
  compileDateFormat(to).format(compileDateFormat(from).parse(input, { now }));

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof TransformsError ? e.code : 'not coded';
  }
  return undefined;
}

describe('documented dateFormat examples', () => {
  it.each([
    // date-format#3
    ['4/1/1975', 'M/d/yyyy', 'yyyy-MM-dd', '1975-04-01'],
    // date-compare#3's nested dateFormat
    ['12/31/1995', 'M/d/yyyy', 'ISO8601', '1995-12-31T00:00:00.000Z'],
    // date-format#2: the doc prints "…190-00"; decision "ISO8601 Z vs X" gives "…190Z"
    ['144642632190', 'EPOCH_TIME_JAVA', 'ISO8601', '1974-08-02T02:30:32.190Z'],
    // date-math#3's candidate input
    ['Oct 28 2020, 12:00:00.500', 'MMM dd yyyy, HH:mm:ss.SSS', 'ISO8601', '2020-10-28T12:00:00.500Z'],
    // the dateMath → dateFormat chain of the lifecycle guide
    ['2023-11-07T00:00', "yyyy-MM-dd'T'HH:mm", 'ISO8601', '2023-11-07T00:00:00.000Z'],
    ['06/15/2020', 'PEOPLE_SOFT', 'ISO8601', '2020-06-15T00:00:00.000Z'],
  ])('%s %s → %s = %s', (input, from, to, expected) => {
    expect(convert(input, from, to)).toBe(expected);
  });
});

describe('named constructs', () => {
  it('EPOCH_TIME_WIN32 counts 100-ns ticks from 1601-01-01, both ways', () => {
    expect(convert('2020-10-28T12:00:00.000Z', 'ISO8601', 'EPOCH_TIME_WIN32')).toBe('132483600000000000');
    expect(convert('132483600000000000', 'EPOCH_TIME_WIN32', 'ISO8601')).toBe('2020-10-28T12:00:00.000Z');
    expect(convert('116444736000000000', 'EPOCH_TIME_WIN32', 'EPOCH_TIME_JAVA')).toBe('0');
    expect(convert('116444736000009999', 'EPOCH_TIME_WIN32', 'EPOCH_TIME_JAVA')).toBe('0');
  });

  it('EPOCH_TIME_JAVA accepts negative milliseconds and formats them back', () => {
    expect(convert('-86400000', 'EPOCH_TIME_JAVA', 'ISO8601')).toBe('1969-12-31T00:00:00.000Z');
    expect(convert('1969-12-31T00:00:00.000Z', 'ISO8601', 'EPOCH_TIME_JAVA')).toBe('-86400000');
  });

  it.each(['1.5', ' 12', 'abc', '', '99999999999999999999'])('epoch text %j is a coded parse error', (text) => {
    expect(codeOf(() => compileDateFormat('EPOCH_TIME_JAVA').parse(text, { now }))).toBe('EVAL_DATE_PARSE');
    expect(codeOf(() => compileDateFormat('EPOCH_TIME_WIN32').parse(text, { now }))).toBe('EVAL_DATE_PARSE');
  });

  it('LDAP formats with the documented pattern yyyyMMddHHmmss.Z and reads real GeneralizedTime', () => {
    expect(convert('2020-10-28T12:00:00.000Z', 'ISO8601', 'LDAP')).toBe('20201028120000.+0000');
    expect(convert('20201028120000.0Z', 'LDAP', 'ISO8601')).toBe('2020-10-28T12:00:00.000Z');
    expect(convert('20201028120000Z', 'LDAP', 'ISO8601')).toBe('2020-10-28T12:00:00.000Z');
    expect(convert('20201028120000.+0100', 'LDAP', 'ISO8601')).toBe('2020-10-28T11:00:00.000Z');
    expect(convert('20201028140000+0200', 'LDAP', 'ISO8601')).toBe('2020-10-28T12:00:00.000Z');
  });

  // ISO8601 reads with its documented pattern, yyyy-MM-dd'T'HH:mm:ss.SSSX, as SimpleDateFormat does
  // (lenient; text after the pattern ignored): each row checked against JDK 17. A tenant read the
  // full form and refused the shorter ones (docs/decisions.md, "Dates").
  it.each([
    ['2020-10-28T12:00:00.000Z', '2020-10-28T12:00:00.000Z'],
    ['2020-10-28T14:00:00.000+02:00', '2020-10-28T12:00:00.000Z'],
    ['2020-10-28T14:00:00.000+0200', '2020-10-28T12:00:00.000Z'],
    ['2020-10-28T12:00:00.190-00', '2020-10-28T12:00:00.190Z'],
    ['2020-10-28T12:00:00.123456789Z', '2020-10-29T22:17:36.789Z'],
    ['2020-13-01T00:00:00.000Z', '2021-01-01T00:00:00.000Z'],
  ])('ISO8601 input %s reads as %s', (input, expected) => {
    expect(convert(input, 'ISO8601', 'ISO8601')).toBe(expected);
  });

  it.each(['now', '2020-10-28T12:00:00Z', '2020-10-28T12:00', '2020-10-28', '2020-10-28T12:00:00.000', '10/28/2020', ''])(
    'ISO8601 cannot read %j: EVAL_DATE_PARSE from parse, null from read',
    (input) => {
      expect(codeOf(() => compileDateFormat('ISO8601').parse(input, { now }))).toBe('EVAL_DATE_PARSE');
      expect(compileDateFormat('ISO8601').read(input, { now })).toBeNull();
    },
  );

  it('read throws for a date beyond what a JavaScript date holds (D3)', () => {
    expect(codeOf(() => compileDateFormat('EPOCH_TIME_JAVA').read('9000000000000000000', { now }))).toBe('EVAL_DATE_PARSE');
  });

  it('formatIso8601 is yyyy-MM-dd\'T\'HH:mm:ss.SSSX in GMT', () => {
    expect(formatIso8601(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('SimpleDateFormat formatting (GMT, en_US)', () => {
  const sunday = Date.parse('2023-12-31T00:05:09.007Z');
  const afternoon = Date.parse('2024-03-05T15:04:05.250Z');
  it.each([
    ['yyyy-MM-dd HH:mm:ss.SSS', afternoon, '2024-03-05 15:04:05.250'],
    ['yy/M/d', afternoon, '24/3/5'],
    ['y', afternoon, '2024'],
    ['MMM MMMM', afternoon, 'Mar March'],
    ['E EEEE', afternoon, 'Tue Tuesday'],
    ['h:mm a', afternoon, '3:04 PM'],
    ['K k H', sunday, '0 24 0'],
    ['hh a', sunday, '12 AM'],
    ['S SS SSSS', sunday, '7 07 0007'],
    ['D w W F u', sunday, '365 1 6 5 7'],
    ['YYYY yyyy', sunday, '2024 2023'],
    ['G', afternoon, 'AD'],
    ['z zzzz Z X XX XXX', afternoon, 'GMT Greenwich Mean Time +0000 Z Z Z'], // the platform's zone: a tenant printed GMT
    ["'T'''HH''mm", afternoon, "T'15'04"],
  ])('%s', (pattern, ms, expected) => {
    expect(compileSimpleDateFormat(pattern).format(ms)).toBe(expected);
  });
});

describe('SimpleDateFormat parsing (lenient, GMT)', () => {
  it.each([
    ['yyyyMMdd', '20240305', '2024-03-05T00:00:00.000Z'],
    ['yyyyMMddHHmmss', '20240305150405', '2024-03-05T15:04:05.000Z'],
    ['dd MMMM yyyy', '5 march 2024', '2024-03-05T00:00:00.000Z'],
    ['EEE, d MMM yyyy HH:mm:ss Z', 'Tue, 5 Mar 2024 15:04:05 -0500', '2024-03-05T20:04:05.000Z'],
    ['yyyy-MM-dd HH:mm z', '2024-03-05 15:04 PST', '2024-03-05T23:04:00.000Z'],
    ['yyyy-MM-dd HH:mm z', '2024-03-05 15:04 GMT+01:00', '2024-03-05T14:04:00.000Z'],
    ["yyyy-MM-dd'T'HH:mm:ssXXX", '2024-03-05T15:04:05Z', '2024-03-05T15:04:05.000Z'],
    ["yyyy-MM-dd'T'HH:mm:ssX", '2024-03-05T15:04:05+05', '2024-03-05T10:04:05.000Z'],
    ['h:mm a', '12:30 AM', '1970-01-01T00:30:00.000Z'],
    ['h:mm a', '12:30 pm', '1970-01-01T12:30:00.000Z'],
    ['M/d/yyyy', '13/32/2023', '2024-02-01T00:00:00.000Z'],
    ['M/d/yyyy', '2/29/2023', '2023-03-01T00:00:00.000Z'],
    ['yyyy-MM-dd', '2024-03-05 and then some', '2024-03-05T00:00:00.000Z'],
    ['yyyy-MM-dd', '2024-03-  5', '2024-03-05T00:00:00.000Z'],
    ['yyyy D', '2024 60', '2024-02-29T00:00:00.000Z'],
    ['yyyy G', '44 BC', '-000043-01-01T00:00:00.000Z'],
    ['yy-MM-dd', '99-01-01', '1999-01-01T00:00:00.000Z'],
    ['yy-MM-dd', '46-12-01', '1946-12-01T00:00:00.000Z'],
    ['yy-MM-dd', '46-11-01', '2046-11-01T00:00:00.000Z'],
    ['yy-MM-dd', '2024-01-01', '2024-01-01T00:00:00.000Z'],
    ['yyyy-MM-dd', '75-01-01', '0075-01-01T00:00:00.000Z'],
    ['SSS', '5', '1970-01-01T00:00:00.005Z'],
  ])('%s reads %j as %s', (pattern, text, expected) => {
    expect(new Date(compileSimpleDateFormat(pattern).parse(text, { now })).toISOString()).toBe(expected);
  });

  it('decision YYYY: without w, Y is the calendar year (lifecycle guide "YYYY-MM-dd")', () => {
    expect(convert('2023-11-01', 'YYYY-MM-dd', 'ISO8601')).toBe('2023-11-01T00:00:00.000Z');
    expect(convert('2023-11-09', 'YYYY-MM-dd', 'ISO8601')).toBe('2023-11-09T00:00:00.000Z');
  });

  it('decision YYYY: with w, Y is the week-based year (Calendar.setWeekDate)', () => {
    expect(convert('2024-01', 'YYYY-ww', 'ISO8601')).toBe('2023-12-31T00:00:00.000Z');
    expect(convert('2023-10 Wed', 'YYYY-ww EEE', 'ISO8601')).toBe('2023-03-08T00:00:00.000Z');
  });

  it.each([
    ['yyyy-MM-dd', '2024/03/05', 4],
    ['yyyyMMdd', '202403', 6],
    ['MMM d', 'Foo 5', 0],
    ['HH:mm', '', 0],
  ])('%s rejects %j at position %i', (pattern, text, position) => {
    try {
      compileSimpleDateFormat(pattern).parse(text, { now });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TransformsError);
      expect((e as TransformsError).code).toBe('EVAL_DATE_PARSE');
      expect((e as TransformsError).details).toMatchObject({ position, pattern });
    }
  });

  it.each([
    ['yyyy-MM-dd Tq', 11],
    ["yyyy 'open", 5],
    ['XXXX', 0],
  ])('pattern %j is an illegal argument at %i', (pattern, position) => {
    try {
      compileSimpleDateFormat(pattern);
      expect.unreachable();
    } catch (e) {
      expect((e as TransformsError).code).toBe('EVAL_ILLEGAL_ARGUMENT');
      expect((e as TransformsError).details).toMatchObject({ position });
    }
  });
});

describe('GregorianCalendar field resolution and SimpleDateFormat field readers (pinned against JDK 17)', () => {
  it.each([
    // A day of week alone is its first occurrence in the month (DAY_OF_WEEK_IN_MONTH 1).
    ['38,49Sun:', 'yy,mEEE:', '2038-01-03'],
    // Week of month, day of week in month (negative: from the end), week of year.
    ['2023-03 2 Tue', 'yyyy-MM W EEE', '2023-03-07'],
    ['2023-03 2 Tue', 'yyyy-MM F EEE', '2023-03-14'],
    ['2023-03 -1 Tue', 'yyyy-MM F EEE', '2023-03-28'],
    ['2023 10', 'yyyy w', '2023-03-05'],
    // Numbers may be negative (DecimalFormat), and roll over leniently.
    ['May -1, 1930', 'MMM d, yyyy', '1930-04-29'],
    // An abutting field's width counts from where the field began, the blank included.
    [' 2023-01-05', 'yyyyMMdd', '0202-02-27'],
  ])('%j as %s → %s', (input, pattern, expected) => {
    expect(convert(input, pattern, 'yyyy-MM-dd')).toBe(expected);
  });

  it.each([
    // HOUR_OF_DAY set after AM_PM wins; AM_PM alone is noon.
    ['2023-01-05 13 pm', 'yyyy-MM-dd H a', '2023-01-05 13:00'],
    ['2023-01-05 pm', 'yyyy-MM-dd a', '2023-01-05 12:00'],
    // Zone names long and short; GMT needs h[h]:mm; X reads as many digits as it has letters.
    ['2023-01-05 Coordinated Universal Time', 'yyyy-MM-dd zzzz', '2023-01-05 00:00'],
    ['2023-01-05 Eastern Daylight Time', 'yyyy-MM-dd z', '2023-01-05 04:00'],
    ['2023-01-05 GMT+5:30', 'yyyy-MM-dd z', '2023-01-04 18:30'],
    ['2023-01-05 UTC+01:00', 'yyyy-MM-dd z', '2023-01-05 00:00'],
    ['2023-01-05T10:00+0530', "yyyy-MM-dd'T'HH:mmX", '2023-01-05 05:00'],
  ])('%j as %s → %s', (input, pattern, expected) => {
    expect(convert(input, pattern, 'yyyy-MM-dd HH:mm')).toBe(expected);
  });

  it.each([
    ['2023-01-05 +000', 'yyyy-MM-dd Z'],
    ['2023-01-05 GMT+05', 'yyyy-MM-dd z'],
  ])('%j as %s is a ParseException (RFC 822 needs hhmm, GMT needs :mm)', (input, pattern) => {
    expect(codeOf(() => convert(input, pattern, 'yyyy'))).toBe('EVAL_DATE_PARSE');
  });
});

describe('zones and week dates as GregorianCalendar resolves them (pinned against JDK 17 by the differential suite)', () => {
  const at = (input: string, from: string, to: string, nowMs: number): string =>
    compileDateFormat(to).format(compileDateFormat(from).parse(input, { now: nowMs }));

  it.each([
    // UTC's standard and daylight names are the same: the name leaves an offset read before it in force.
    ['+1300, 982,69T5atCoordinated Universal TimeDecember,', "Z, SSS,yy'T'W'at'zzzzLLLL,", 'yyyyMMddHHmmss', '19691227110000'],
    ['+1300TThu-Coordinated Universal Time, ', "Z'T'EEE-zzzz, ", "M'T'a/F/m.", '12TAM/5/0.'],
    ['2023-01-05 10:00 +1300 UTC', 'yyyy-MM-dd HH:mm Z z', 'yyyy-MM-dd HH:mm', '2023-01-04 21:00'],
    ['2023-01-05 10:00 +1300 Greenwich Mean Time', 'yyyy-MM-dd HH:mm Z z', 'yyyy-MM-dd HH:mm', '2023-01-04 21:00'],
    // …and so does a daylight saving read before it (DST_OFFSET).
    ['2023-01-05 10:00 EDT UTC', 'yyyy-MM-dd HH:mm z z', 'yyyy-MM-dd HH:mm', '2023-01-05 09:00'],
    // Any other name replaces it.
    ['2023-01-05 10:00 +1300 EST', 'yyyy-MM-dd HH:mm Z z', 'yyyy-MM-dd HH:mm', '2023-01-05 15:00'],
  ])('%j as %s → %s', (input, from, to, expected) => {
    expect(at(input, from, to, Date.parse('2026-01-15T12:00:00Z'))).toBe(expected);
  });

  it('a lenient ISO day of week in a week date is moved into range, then read as an ISO day number', () => {
    expect(at("-1'0.16 1957:+0000:", "u''H.ww YYYY:Z:", 'yyyy.DDD', 993859200000)).toBe('1957.103');
  });
});
