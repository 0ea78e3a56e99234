// java.util.GregorianCalendar's field resolution (Calendar.selectFields, GregorianCalendar
// computeTime/getFixedDate) for what SimpleDateFormat parsed: the fields that were set, each with
// the order in which it was set (its "stamp"). The most recently set complete group decides the
// date — day of month, week of month + day of week, day-of-week-in-month + day of week, day of
// year, or week of year + day of week — and a day of week alone means its first occurrence in
// the month. Lenient: values out of range roll over. UTC, en_US weeks (Sunday, minimal days 1).

import { MS_PER_DAY, MS_PER_MINUTE, daysInMonth, utcMillis, weekDate } from './calendar.js';

export type Field =
  | 'era' | 'year' | 'weekYear' | 'month' | 'day' | 'dayOfYear' | 'week' | 'weekOfMonth' | 'dowInMonth'
  | 'weekday' | 'ampm' | 'hourOfDay' | 'hour' | 'minute' | 'second' | 'millisecond';

/** Parsed fields: values (weekday as Calendar.DAY_OF_WEEK, 1 = Sunday) and the order they were set in. */
export interface Parsed {
  values: Partial<Record<Field, number>>;
  stamps: Partial<Record<Field, number>>;
  clock: number;
  /** y or Y read exactly two digits: the year was put into the default century. */
  twoDigitYear?: boolean;
  /**
   * The zone as Calendar keeps it (z, Z, X), in minutes: ZONE_OFFSET and DST_OFFSET when set, and
   * the raw offset of the zone a name selected (UTC by default).
   */
  zoneOffset?: number;
  dstOffset?: number;
  rawOffset?: number;
}

export function newParsed(): Parsed {
  return { values: {}, stamps: {}, clock: 0 };
}

export function setField(p: Parsed, field: Field, value: number): void {
  p.values[field] = value;
  p.stamps[field] = ++p.clock;
}

const FIRST_DAY_OF_WEEK = 1; // Calendar.SUNDAY
const MINIMAL_DAYS = 1;
/** Rata Die (days since 0001-01-01, a Monday, as day 1) of 1970-01-01. */
const RD_EPOCH = 719163;

const mod = (a: number, b: number): number => ((a % b) + b) % b;

/** BaseCalendar.getDayOfWeekDateOnOrBefore, on epoch days; dayOfWeek may be out of 1–7 (lenient). */
function onOrBefore(epochDay: number, dayOfWeek: number): number {
  return epochDay - mod(epochDay + RD_EPOCH - (dayOfWeek - 1), 7);
}

const epochDay = (year: number, month0: number, day: number): number => Math.floor(utcMillis(year, month0, day) / MS_PER_DAY);

function stampOf(p: Parsed, f: Field): number {
  return p.stamps[f] ?? 0;
}

function aggregate(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : Math.max(a, b);
}

type DateRule = 'dayOfMonth' | 'weekOfMonth' | 'dowInMonth' | 'dayOfYear' | 'weekOfYear';

/** Calendar.selectFields, the date part: which group decides the date, and whether it uses the day of week. */
function selectDate(p: Parsed): { rule: DateRule; withWeekday: boolean } {
  const dow = stampOf(p, 'weekday');
  let dom = stampOf(p, 'day');
  let wom = aggregate(stampOf(p, 'weekOfMonth'), dow);
  let dowim = aggregate(stampOf(p, 'dowInMonth'), dow);
  const doy = stampOf(p, 'dayOfYear');
  let woy = aggregate(stampOf(p, 'week'), dow);
  let best = Math.max(dom, wom, dowim, doy, woy);
  if (best === 0) {
    wom = stampOf(p, 'weekOfMonth');
    dowim = Math.max(stampOf(p, 'dowInMonth'), dow);
    woy = stampOf(p, 'week');
    best = Math.max(wom, dowim, woy);
    if (best === 0) best = dom = stampOf(p, 'month');
  }
  const withWeekday = dow !== 0;
  if (
    best === dom ||
    (best === wom && stampOf(p, 'weekOfMonth') >= stampOf(p, 'week')) ||
    (best === dowim && stampOf(p, 'dowInMonth') >= stampOf(p, 'week'))
  ) {
    if (best === dom) return { rule: 'dayOfMonth', withWeekday: false };
    if (wom === dowim) return { rule: stampOf(p, 'weekOfMonth') >= stampOf(p, 'dowInMonth') ? 'weekOfMonth' : 'dowInMonth', withWeekday };
    return { rule: best === wom ? 'weekOfMonth' : 'dowInMonth', withWeekday };
  }
  if (best === doy) return { rule: 'dayOfYear', withWeekday: false };
  return { rule: 'weekOfYear', withWeekday };
}

/** GregorianCalendar.getFixedDate for the selected fields, as an epoch day. */
function fixedDate(p: Parsed, year: number, rule: DateRule, withWeekday: boolean): number {
  const v = p.values;
  const monthBased = rule === 'dayOfMonth' || rule === 'weekOfMonth' || rule === 'dowInMonth';
  let month = 0;
  if (monthBased) {
    month = v.month ?? 0;
    year += Math.floor(month / 12);
    month = mod(month, 12);
  }
  const first = epochDay(year, month, 1);
  const weekday = withWeekday ? v.weekday! : FIRST_DAY_OF_WEEK;
  switch (rule) {
    case 'dayOfMonth':
      return v.day === undefined ? first : first + v.day - 1;
    case 'weekOfMonth':
    case 'weekOfYear': {
      let start = onOrBefore(first + 6, FIRST_DAY_OF_WEEK);
      if (start - first >= MINIMAL_DAYS) start -= 7;
      if (withWeekday && (rule === 'weekOfMonth' || weekday !== FIRST_DAY_OF_WEEK)) start = onOrBefore(start + 6, weekday);
      return start + 7 * ((rule === 'weekOfMonth' ? v.weekOfMonth : v.week) ?? 0) - 7;
    }
    case 'dowInMonth': {
      const n = v.dowInMonth ?? 1;
      if (n >= 0) return onOrBefore(first + 7 * n - 1, weekday);
      const last = daysInMonth(year, month) + 7 * (n + 1);
      return onOrBefore(first + last - 1, weekday);
    }
    case 'dayOfYear':
      return first + (v.dayOfYear ?? 1) - 1;
  }
}

/** Milliseconds of the time-of-day fields (HOUR_OF_DAY, or HOUR with AM_PM, whichever was set last). */
function timeOfDay(p: Parsed): number {
  const v = p.values;
  const hourOfDay = stampOf(p, 'hourOfDay');
  let best = Math.max(aggregate(stampOf(p, 'hour'), stampOf(p, 'ampm')), hourOfDay);
  if (best === 0) best = Math.max(stampOf(p, 'hour'), stampOf(p, 'ampm'));
  let hours: number;
  if (best !== 0 && best === hourOfDay) hours = v.hourOfDay!;
  else hours = (v.hour ?? 0) + (best !== 0 && v.ampm !== undefined ? 12 * v.ampm : 0);
  return ((hours * 60 + (v.minute ?? 0)) * 60 + (v.second ?? 0)) * 1000 + (v.millisecond ?? 0);
}

/**
 * Epoch milliseconds of the parsed fields. `weekDates`: a week year set after the year is a
 * week date (Calendar.setWeekDate with the week of year and day of week) — our runtime does so
 * only when the pattern has a week of year (docs/decisions.md, "YYYY").
 */
export function computeTime(p: Parsed, weekDates: boolean): number {
  const v = p.values;
  let year: number;
  let days: number;
  const tod = timeOfDay(p);
  if (weekDates && v.weekYear !== undefined && stampOf(p, 'weekYear') > stampOf(p, 'year')) {
    let week = v.week ?? 1;
    let dow = v.weekday ?? FIRST_DAY_OF_WEEK;
    if (dow < 1 || dow > 7) {
      // CalendarBuilder.establish: a lenient day of week outside 1–7 moves the week.
      if (dow >= 8) {
        dow--;
        week += Math.floor(dow / 7);
        dow = (dow % 7) + 1;
      } else {
        while (dow <= 0) {
          dow += 7;
          week--;
        }
      }
      // …and then reads the result as an ISO day number (toCalendarDayOfWeek), as JDK 17 does.
      dow = dow === 7 ? 1 : dow + 1;
    }
    days = Math.floor(weekDate(v.weekYear, week, dow - 1) / MS_PER_DAY);
  } else {
    year = v.year ?? (weekDates || v.weekYear === undefined ? 1970 : v.weekYear);
    if (v.era === 0) year = 1 - year;
    const { rule, withWeekday } = selectDate(p);
    days = fixedDate(p, year, rule, withWeekday);
  }
  const offset = (p.zoneOffset ?? p.rawOffset ?? 0) + (p.dstOffset ?? 0);
  return days * MS_PER_DAY + tod - offset * MS_PER_MINUTE;
}
