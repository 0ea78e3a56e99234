// Calendar arithmetic at offset zero shared by dateFormat and dateMath, computed as the platform's
// Java does: a java.util.GregorianCalendar in the GMT zone with the en_US week rules
// (first day of week Sunday, minimal days in first week 1).

export const MS_PER_SECOND = 1000;
export const MS_PER_MINUTE = 60 * MS_PER_SECOND;
export const MS_PER_HOUR = 60 * MS_PER_MINUTE;
export const MS_PER_DAY = 24 * MS_PER_HOUR;

export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;
/** Java DAY_OF_WEEK order: index 0 = Sunday (Java value 1). */
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The en_US week definition java.util.Calendar uses when the platform's default locale is en_US. */
export const FIRST_DAY_OF_WEEK = 0; // Sunday
export const MINIMAL_DAYS_IN_FIRST_WEEK = 1;

/**
 * Epoch milliseconds of a UTC date-time. Out-of-range fields roll over (month 13 → January of
 * the next year, day 0 → last day of the previous month), like a lenient GregorianCalendar.
 * Unlike Date.UTC, years 0–99 are taken literally.
 */
export function utcMillis(year: number, month0: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month0, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

export interface CalendarFields {
  /** Proleptic astronomical year (1 BC = 0). */
  year: number;
  /** 0-based month. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** 1-based day of the year. */
  dayOfYear: number;
}

export function fieldsOf(ms: number): CalendarFields {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  // Date.UTC maps years 0–99 to 1900–1999; only those need the slower utcMillis.
  const startOfYear = year >= 100 ? Date.UTC(year, 0, 1) : utcMillis(year, 0, 1);
  return {
    year,
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    weekday: d.getUTCDay(),
    dayOfYear: Math.floor((startOfDay(ms) - startOfYear) / MS_PER_DAY) + 1,
  };
}

export function startOfDay(ms: number): number {
  return Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
}

function weekdayOf(ms: number): number {
  return new Date(ms).getUTCDay();
}

/** Days between the first day of the week and `weekday` (0–6). */
function weekOffset(weekday: number): number {
  return (weekday - FIRST_DAY_OF_WEEK + 7) % 7;
}

/** Start (midnight) of week 1 of `weekYear`: with minimal days 1, the week containing January 1st. */
export function startOfWeekYear(weekYear: number): number {
  const jan1 = utcMillis(weekYear, 0, 1);
  return jan1 - weekOffset(weekdayOf(jan1)) * MS_PER_DAY;
}

/** Java WEEK_OF_YEAR and the week-based year ('w' and 'Y'). */
export function weekOfYear(ms: number): { weekYear: number; week: number } {
  const { year } = fieldsOf(ms);
  const day = startOfDay(ms);
  const next = startOfWeekYear(year + 1);
  if (day >= next) return { weekYear: year + 1, week: 1 };
  return { weekYear: year, week: Math.floor((day - startOfWeekYear(year)) / (7 * MS_PER_DAY)) + 1 };
}

/** Java WEEK_OF_MONTH ('W'): week 1 contains the first day of the month. */
export function weekOfMonth(ms: number): number {
  const f = fieldsOf(ms);
  const first = utcMillis(f.year, f.month, 1);
  return Math.floor((f.day - 1 + weekOffset(weekdayOf(first))) / 7) + 1;
}

/** Midnight of `weekday` (0 = Sunday) in week `week` of `weekYear` (Calendar.setWeekDate). */
export function weekDate(weekYear: number, week: number, weekday: number): number {
  return startOfWeekYear(weekYear) + ((week - 1) * 7 + weekOffset(weekday)) * MS_PER_DAY;
}

export function daysInMonth(year: number, month0: number): number {
  return new Date(utcMillis(year, month0 + 1, 0)).getUTCDate();
}

/**
 * Calendar.add(MONTH, n): the day of month is clamped to the target month's length
 * (January 31 + 1 month = February 28/29); the time of day is kept.
 */
export function addMonths(ms: number, months: number): number {
  const f = fieldsOf(ms);
  const total = f.year * 12 + f.month + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(f.day, daysInMonth(year, month));
  return utcMillis(year, month, day, f.hour, f.minute, f.second, f.millisecond);
}

export function pad(value: number, width: number): string {
  const s = String(Math.abs(value));
  const padded = s.length >= width ? s : '0'.repeat(width - s.length) + s;
  return value < 0 ? '-' + padded : padded;
}
