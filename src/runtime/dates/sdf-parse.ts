// Parsing half of java.text.SimpleDateFormat (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-format): field readers
// over a cursor, then GregorianCalendar-style resolution of the fields that were read (lenient,
// GMT). Decisions: docs/decisions.md.

import { MONTHS, WEEKDAYS } from './calendar.js';
import { computeTime, setField, type Field, type Parsed } from './calendar-fields.js';

export { newParsed, type Parsed } from './calendar-fields.js';

/**
 * Zone names 'z' and 'Z' read (both letters parse alike in SimpleDateFormat), short and long
 * (en_US), as fixed offsets in minutes: a name says which half of the year it means. Java matches
 * the names of every time zone; these are the ones identity data carries.
 */
const ZONE_NAMES: Readonly<Record<string, number>> = {
  UTC: 0, 'Coordinated Universal Time': 0, GMT: 0, 'Greenwich Mean Time': 0,
  EST: -300, 'Eastern Standard Time': -300, EDT: -240, 'Eastern Daylight Time': -240,
  CST: -360, 'Central Standard Time': -360, CDT: -300, 'Central Daylight Time': -300,
  MST: -420, 'Mountain Standard Time': -420, MDT: -360, 'Mountain Daylight Time': -360,
  PST: -480, 'Pacific Standard Time': -480, PDT: -420, 'Pacific Daylight Time': -420,
  AKST: -540, 'Alaska Standard Time': -540, AKDT: -480, 'Alaska Daylight Time': -480,
  HST: -600, 'Hawaii-Aleutian Standard Time': -600,
  WET: 0, 'Western European Standard Time': 0, WEST: 60, 'Western European Summer Time': 60,
  CET: 60, 'Central European Standard Time': 60, CEST: 120, 'Central European Summer Time': 120,
  EET: 120, 'Eastern European Standard Time': 120, EEST: 180, 'Eastern European Summer Time': 180,
};

/**
 * Names whose zone uses the same name for standard and daylight time (UTC's, GMT's): Java's
 * subParseZoneString then sets only the calendar's zone and leaves a ZONE_OFFSET read before in
 * force. Every other name clears ZONE_OFFSET and sets DST_OFFSET (the saving for a daylight name).
 */
const SAME_NAME = new Set(['utc', 'coordinated universal time', 'greenwich mean time']);
const DAYLIGHT_NAME = new Set(['edt', 'cdt', 'mdt', 'pdt', 'akdt', 'west', 'cest', 'eest']);

const ZONE_KEYS = Object.keys(ZONE_NAMES);
const ZONE_CHOICES = ZONE_KEYS.map((z) => z.toLowerCase());
/** No month or weekday name is longer than "September" / "Wednesday". */
const LONGEST_NAME = 9;
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

export class Cursor {
  index = 0;
  constructor(readonly text: string) {}

  skipBlanks(): void {
    while (this.text[this.index] === ' ' || this.text[this.index] === '\t') this.index++;
  }

  /**
   * DecimalFormat's integer parse as SimpleDateFormat uses it: an optional minus sign and digits;
   * with `end` (abutting numeric fields) nothing at or after index `end` is read.
   */
  number(end: number | undefined): number | undefined {
    const limit = end === undefined ? this.text.length : Math.min(this.text.length, end);
    let at = this.index;
    const negative = this.text[at] === '-';
    if (negative) at++;
    const digitsStart = at;
    while (at < limit && isDigit(this.text[at])) at++;
    if (at === digitsStart) return undefined;
    const value = Number(this.text.slice(digitsStart, at));
    this.index = at;
    return negative ? -value : value;
  }

  /** Case-insensitive longest match among `choices` (given lower-cased); returns the choice index. */
  oneOf(choices: readonly string[], longest = LONGEST_NAME): number | undefined {
    let best: number | undefined;
    let bestLength = 0;
    const rest = this.text.slice(this.index, this.index + longest).toLowerCase();
    for (let i = 0; i < choices.length; i++) {
      const choice = choices[i]!;
      if (choice.length > bestLength && rest.startsWith(choice)) {
        best = i;
        bestLength = choice.length;
      }
    }
    if (best !== undefined) this.index += bestLength;
    return best;
  }

  /**
   * SimpleDateFormat.subParseNumericZone after the sign: hh (count 1), hhmm, or hh:mm (`colon`,
   * where one hour digit is enough); hours up to 23, minutes up to 59. Minutes east of UTC.
   */
  private numericZone(sign: number, count: number, colon: boolean): number | undefined {
    const t = this.text;
    let i = this.index;
    if (!isDigit(t[i])) return undefined;
    let hours = Number(t[i++]);
    if (isDigit(t[i])) hours = hours * 10 + Number(t[i++]);
    else if (count > 0 || !colon) return undefined;
    if (hours > 23) return undefined;
    let minutes = 0;
    if (count !== 1) {
      if (colon && t[i++] !== ':') return undefined;
      if (!isDigit(t[i]) || !isDigit(t[i + 1])) return undefined;
      minutes = Number(t[i]) * 10 + Number(t[i + 1]);
      i += 2;
      if (minutes > 59) return undefined;
    }
    this.index = i;
    return sign * (hours * 60 + minutes);
  }

  /** 'X' with `count` letters: Z, or ±hh (1), ±hhmm (2), ±hh:mm (3). */
  isoZone(count: number): number | undefined {
    const c = this.text[this.index];
    if (c === 'Z') {
      this.index++;
      return 0;
    }
    if (c !== '+' && c !== '-') return undefined;
    const start = this.index++;
    const offset = this.numericZone(c === '-' ? -1 : 1, count, count === 3);
    if (offset === undefined) this.index = start;
    return offset;
  }

  /** 'z' and 'Z': an RFC 822 offset (±hhmm), GMT with an optional ±h[h]:mm, or a zone name. */
  zone(): number | undefined {
    const start = this.index;
    const c = this.text[start];
    if (c === '+' || c === '-') {
      this.index++;
      const offset = this.numericZone(c === '-' ? -1 : 1, 0, false);
      if (offset === undefined) this.index = start;
      return offset;
    }
    if (this.text.slice(start, start + 3).toUpperCase() === 'GMT') {
      this.index += 3;
      const sign = this.text[this.index];
      if (sign !== '+' && sign !== '-') return 0;
      this.index++;
      const offset = this.numericZone(sign === '-' ? -1 : 1, 0, true);
      if (offset === undefined) this.index = start;
      return offset;
    }
    const at = this.oneOf(ZONE_CHOICES, 40);
    return at === undefined ? undefined : ZONE_NAMES[ZONE_KEYS[at]!];
  }
}

// Text fields, lower-cased once: long names first, so index % 12 (or % 7) is the value.
const MONTH_CHOICES = [...MONTHS, ...MONTHS.map((m) => m.slice(0, 3))].map((m) => m.toLowerCase());
const WEEKDAY_CHOICES = [...WEEKDAYS, ...WEEKDAYS.map((d) => d.slice(0, 3))].map((d) => d.toLowerCase());
const ERAS = ['bc', 'ad'];
const AM_PM = ['am', 'pm'];

/** SimpleDateFormat's default century: the 100 years starting 80 years before `now`. */
function centuryStartYear(now: number): number {
  return new Date(now).getUTCFullYear() - 80;
}

export function parseField(t: { letter: string; count: number }, cur: Cursor, p: Parsed, obeyCount: boolean, now: number): boolean {
  // An abutting field's width counts from where the field began, blanks included (as Java does).
  const fieldStart = cur.index;
  cur.skipBlanks();
  const numeric = (): number | undefined => cur.number(obeyCount ? fieldStart + t.count : undefined);
  switch (t.letter) {
    case 'G': {
      const era = cur.oneOf(ERAS);
      if (era === undefined) return false;
      setField(p, 'era', era);
      return true;
    }
    case 'y':
    case 'Y': {
      const start = cur.index;
      let n = numeric();
      if (n === undefined) return false;
      if (t.count <= 2 && cur.index - start === 2 && isDigit(cur.text[start]) && isDigit(cur.text[start + 1])) {
        // Two digits: into the default century; the year equal to the century start's is
        // ambiguous until the whole date is known (resolve).
        const startYear = centuryStartYear(now);
        const ambiguous = startYear % 100;
        p.twoDigitYear = n === ambiguous;
        n += Math.floor(startYear / 100) * 100 + (n < ambiguous ? 100 : 0);
      }
      setField(p, t.letter === 'y' ? 'year' : 'weekYear', n);
      return true;
    }
    case 'M':
    case 'L': {
      if (t.count >= 3) {
        const m = cur.oneOf(MONTH_CHOICES);
        if (m === undefined) return false;
        setField(p, 'month', m % 12);
        return true;
      }
      const n = numeric();
      if (n === undefined) return false;
      setField(p, 'month', n - 1);
      return true;
    }
    case 'E': {
      const d = cur.oneOf(WEEKDAY_CHOICES);
      if (d === undefined) return false;
      setField(p, 'weekday', (d % 7) + 1);
      return true;
    }
    case 'a': {
      const a = cur.oneOf(AM_PM);
      if (a === undefined) return false;
      setField(p, 'ampm', a);
      return true;
    }
    case 'z':
    case 'Z':
    case 'X': {
      const start = cur.index;
      const offset = t.letter === 'X' ? cur.isoZone(t.count) : cur.zone();
      if (offset === undefined) return false;
      const name = cur.text.slice(start, cur.index).toLowerCase();
      if (t.letter === 'X' || name.startsWith('gmt') || ZONE_NAMES[ZONE_KEYS[ZONE_CHOICES.indexOf(name)] ?? ''] === undefined) {
        // An offset (or GMT): ZONE_OFFSET and DST_OFFSET.
        p.zoneOffset = offset;
        p.dstOffset = 0;
      } else if (SAME_NAME.has(name)) {
        p.rawOffset = offset;
      } else {
        const saving = DAYLIGHT_NAME.has(name) || /daylight|summer/.test(name) ? 60 : 0;
        p.rawOffset = offset - saving;
        p.zoneOffset = undefined;
        p.dstOffset = saving;
      }
      return true;
    }
    default: {
      const n = numeric();
      if (n === undefined) return false;
      const field = NUMERIC_FIELDS[t.letter];
      if (field === undefined) return true;
      let value = n;
      if (t.letter === 'k' && n === 24) value = 0;
      else if (t.letter === 'h' && n === 12) value = 0;
      // ISO day of week (1 = Monday) as Calendar.DAY_OF_WEEK; out of range it stays as read (lenient).
      else if (t.letter === 'u' && n >= 1 && n <= 7) value = n === 7 ? 1 : n + 1;
      setField(p, field, value);
      return true;
    }
  }
}

const NUMERIC_FIELDS: Readonly<Record<string, Field>> = {
  d: 'day', D: 'dayOfYear', w: 'week', W: 'weekOfMonth', F: 'dowInMonth', u: 'weekday',
  H: 'hourOfDay', k: 'hourOfDay', h: 'hour', K: 'hour', m: 'minute', s: 'second', S: 'millisecond',
};

/**
 * The parsed instant. An ambiguous two-digit year that lands before the default century's start
 * moves 100 years on (SimpleDateFormat.parse), year and week year alike.
 */
export function resolve(p: Parsed, weekBased: boolean, now: number): number {
  const ms = computeTime(p, weekBased);
  if (!p.twoDigitYear) return ms;
  const windowStart = new Date(now);
  windowStart.setUTCFullYear(windowStart.getUTCFullYear() - 80);
  if (ms >= windowStart.getTime()) return ms;
  if (p.values.year !== undefined) p.values.year += 100;
  if (p.values.weekYear !== undefined) p.values.weekYear += 100;
  return computeTime(p, weekBased);
}
