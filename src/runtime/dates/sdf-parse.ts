// Parsing half of java.text.SimpleDateFormat (reference §4 dateFormat, §11): field readers
// over a cursor, then GregorianCalendar-style resolution of the fields that were read (lenient,
// UTC). Decisions: docs/decisions.md.

import { MONTHS, WEEKDAYS, utcMillis, weekDate, MS_PER_MINUTE } from './calendar.js';

/** Fixed offsets (minutes) of the zone names 'z' accepts besides GMT±hh:mm and RFC 822 offsets. */
const ZONE_NAMES: Readonly<Record<string, number>> = {
  UTC: 0, GMT: 0, UT: 0,
  EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420,
  AKST: -540, AKDT: -480, HST: -600,
  WET: 0, WEST: 60, CET: 60, CEST: 120, EET: 120, EEST: 180,
};

export const ZONE_KEYS = Object.keys(ZONE_NAMES);
const ZONE_CHOICES = ZONE_KEYS.map((z) => z.toLowerCase());
/** No text field is longer than "September" / "Wednesday". */
const LONGEST_NAME = 9;

export interface Parsed {
  era?: number;
  year?: number;
  twoDigitYear?: boolean;
  weekYear?: number;
  month?: number;
  day?: number;
  dayOfYear?: number;
  week?: number;
  weekday?: number;
  pm?: boolean;
  hour24?: number;
  hour12?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
  offset?: number;
}

export class Cursor {
  index = 0;
  constructor(readonly text: string) {}

  skipBlanks(): void {
    while (this.text[this.index] === ' ' || this.text[this.index] === '\t') this.index++;
  }

  digits(exact: number | undefined): { value: number; length: number } | undefined {
    const start = this.index;
    let end = start;
    const limit = exact === undefined ? this.text.length : Math.min(this.text.length, start + exact);
    while (end < limit && this.text.charCodeAt(end) >= 48 && this.text.charCodeAt(end) <= 57) end++;
    if (end === start || (exact !== undefined && end - start !== exact)) return undefined;
    this.index = end;
    return { value: Number(this.text.slice(start, end)), length: end - start };
  }

  /** Case-insensitive longest match among `choices` (given lower-cased); returns the choice index. */
  oneOf(choices: readonly string[]): number | undefined {
    let best: number | undefined;
    let bestLength = 0;
    const rest = this.text.slice(this.index, this.index + LONGEST_NAME).toLowerCase();
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

  /** ±hh, ±hhmm, ±hh:mm, ±h (after GMT); the offset in minutes. */
  numericOffset(): number | undefined {
    const sign = this.text[this.index];
    if (sign !== '+' && sign !== '-') return undefined;
    const start = this.index;
    this.index++;
    const hours = this.digits(undefined);
    if (!hours || hours.length > 4) {
      this.index = start;
      return undefined;
    }
    let h = hours.value;
    let m = 0;
    if (hours.length > 2) {
      h = Math.floor(hours.value / 100);
      m = hours.value % 100;
    } else if (this.text[this.index] === ':') {
      this.index++;
      const minutes = this.digits(2);
      if (!minutes) {
        this.index = start;
        return undefined;
      }
      m = minutes.value;
    }
    if (h > 23 || m > 59) {
      this.index = start;
      return undefined;
    }
    return (sign === '-' ? -1 : 1) * (h * 60 + m);
  }

  zone(iso: boolean): number | undefined {
    if (iso && this.text[this.index] === 'Z') {
      this.index++;
      return 0;
    }
    const numeric = this.numericOffset();
    if (numeric !== undefined || iso) return numeric;
    const at = this.oneOf(ZONE_CHOICES);
    if (at === undefined) return undefined;
    const name = ZONE_KEYS[at]!;
    if (name === 'GMT' || name === 'UTC' || name === 'UT') return this.numericOffset() ?? 0;
    return ZONE_NAMES[name];
  }
}

// Text fields, lower-cased once: long names first, so index % 12 (or % 7) is the value.
const MONTH_CHOICES = [...MONTHS, ...MONTHS.map((m) => m.slice(0, 3))].map((m) => m.toLowerCase());
const WEEKDAY_CHOICES = [...WEEKDAYS, ...WEEKDAYS.map((d) => d.slice(0, 3))].map((d) => d.toLowerCase());
const ERAS = ['bc', 'ad'];
const AM_PM = ['am', 'pm'];

export function parseField(t: { letter: string; count: number }, cur: Cursor, p: Parsed, obeyCount: boolean): boolean {
  cur.skipBlanks();
  const numeric = (): number | undefined => cur.digits(obeyCount ? t.count : undefined)?.value;
  switch (t.letter) {
    case 'G': {
      const era = cur.oneOf(ERAS);
      if (era === undefined) return false;
      p.era = era;
      return true;
    }
    case 'y':
    case 'Y': {
      const start = cur.index;
      const n = numeric();
      if (n === undefined) return false;
      const twoDigit = t.count <= 2 && cur.index - start === 2;
      if (t.letter === 'y') {
        p.year = n;
        p.twoDigitYear = twoDigit;
      } else {
        p.weekYear = n;
        if (twoDigit) p.twoDigitYear = true;
      }
      return true;
    }
    case 'M':
    case 'L': {
      if (t.count >= 3) {
        const m = cur.oneOf(MONTH_CHOICES);
        if (m === undefined) return false;
        p.month = m % 12;
        return true;
      }
      const n = numeric();
      if (n === undefined) return false;
      p.month = n - 1;
      return true;
    }
    case 'E': {
      const d = cur.oneOf(WEEKDAY_CHOICES);
      if (d === undefined) return false;
      p.weekday = d % 7;
      return true;
    }
    case 'a': {
      const a = cur.oneOf(AM_PM);
      if (a === undefined) return false;
      p.pm = a === 1;
      return true;
    }
    case 'z':
    case 'Z':
    case 'X': {
      const offset = cur.zone(t.letter === 'X');
      if (offset === undefined) return false;
      p.offset = offset;
      return true;
    }
    default: {
      const n = numeric();
      if (n === undefined) return false;
      switch (t.letter) {
        case 'd': p.day = n; break;
        case 'D': p.dayOfYear = n; break;
        case 'w': p.week = n; break;
        case 'u': p.weekday = n % 7; break;
        case 'H': p.hour24 = n; break;
        case 'k': p.hour24 = n === 24 ? 0 : n; break;
        case 'h': p.hour12 = n === 12 ? 0 : n; break;
        case 'K': p.hour12 = n; break;
        case 'm': p.minute = n; break;
        case 's': p.second = n; break;
        case 'S': p.millisecond = n; break;
        // 'W' (week of month) and 'F' (weekday-in-month) are parsed and, as in a lenient
        // GregorianCalendar given a day of month, do not change the result.
        default: break;
      }
      return true;
    }
  }
}

/** SimpleDateFormat's two-digit year window: the 100 years starting 80 years before now. */
function resolveTwoDigitYear(twoDigits: number, now: number): number {
  const startYear = new Date(now).getUTCFullYear() - 80;
  let year = Math.floor(startYear / 100) * 100 + twoDigits;
  if (year < startYear) year += 100;
  return year;
}

export function resolve(p: Parsed, weekBased: boolean, now: number): number {
  const ms = resolveFields(p, weekBased, now);
  // In the window's first year, a date before the window start belongs to the next century.
  const windowStart = new Date(now);
  windowStart.setUTCFullYear(windowStart.getUTCFullYear() - 80);
  if (p.twoDigitYear && ms < windowStart.getTime()) {
    const d = new Date(ms);
    d.setUTCFullYear(d.getUTCFullYear() + 100);
    return d.getTime();
  }
  return ms;
}

function resolveFields(p: Parsed, weekBased: boolean, now: number): number {
  const century = (y: number | undefined): number | undefined =>
    y !== undefined && p.twoDigitYear ? resolveTwoDigitYear(y, now) : y;
  // Y without w: calendar year (decision "YYYY" in docs/decisions.md).
  let year = century(p.year) ?? (weekBased ? undefined : century(p.weekYear)) ?? 1970;
  if (p.era === 0) year = 1 - year;
  const hour = p.hour24 ?? (p.hour12 !== undefined ? p.hour12 + (p.pm ? 12 : 0) : p.pm ? 12 : 0);
  const minute = p.minute ?? 0;
  const second = p.second ?? 0;
  const millisecond = p.millisecond ?? 0;
  let local: number;
  if (p.month !== undefined || p.day !== undefined) {
    local = utcMillis(year, p.month ?? 0, p.day ?? 1, hour, minute, second, millisecond);
  } else if (p.dayOfYear !== undefined) {
    local = utcMillis(year, 0, p.dayOfYear, hour, minute, second, millisecond);
  } else if (p.week !== undefined || (weekBased && p.weekYear !== undefined)) {
    const wy = century(p.weekYear) ?? year;
    local = weekDate(wy, p.week ?? 1, p.weekday ?? 0) + utcMillis(1970, 0, 1, hour, minute, second, millisecond);
  } else {
    local = utcMillis(year, 0, 1, hour, minute, second, millisecond);
  }
  return local - (p.offset ?? 0) * MS_PER_MINUTE;
}

