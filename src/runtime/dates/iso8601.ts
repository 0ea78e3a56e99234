// ISO 8601 date-times as dateCompare and dateMath read them
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-compare): the
// extended calendar form with optional time, seconds, fraction and zone; "now" for dateCompare.
// dateFormat's ISO8601 construct reads only its documented pattern (ISO8601_FORMAT).
// Decisions: docs/decisions.md.

import { TransformsError } from '../../errors/index.js';
import { daysInMonth, utcMillis, MS_PER_MINUTE } from './calendar.js';
import { compileSimpleDateFormat } from './simple-date-format.js';

const ISO = /^([+-]?\d{4,9})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

function parseError(text: string, reason: string): TransformsError {
  return new TransformsError('EVAL_DATE_PARSE', `"${text}" is not an ISO 8601 date-time: ${reason}`, {
    details: { input: text, format: 'ISO8601' },
  });
}

/**
 * Parse `yyyy-MM-dd[THH:mm[:ss[.fraction]]][Z|±hh[[:]mm]]` into epoch milliseconds. A missing
 * zone means UTC (the platform's zone); fractions beyond milliseconds are truncated, as a
 * java.util.Date cannot hold them. Fields out of range are errors (not rolled over).
 */
export function parseIso8601(text: string): number {
  const m = ISO.exec(text);
  if (!m) throw parseError(text, 'expected yyyy-MM-dd\'T\'HH:mm:ss.SSSZ or a shorter form');
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12) throw parseError(text, `month ${month}`);
  if (day < 1 || day > daysInMonth(year, month - 1)) throw parseError(text, `day ${day}`);
  if (hour > 23 || minute > 59 || second > 59) throw parseError(text, 'time of day out of range');
  let offset = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = m[11] === undefined ? 0 : Number(m[11]);
    if (oh > 23 || om > 59) throw parseError(text, 'zone offset out of range');
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return utcMillis(year, month - 1, day, hour, minute, second, ms) - offset * MS_PER_MINUTE;
}

/** dateCompare operands: an ISO 8601 date-time, or the keyword `now` (the evaluation instant). */
export function parseDateCompareOperand(text: string, now: number): number {
  return text === 'now' ? now : parseIso8601(text);
}

/** The pattern of the ISO8601 named construct (the OpenAPI's; the docs say …SSSZ). */
export const ISO8601_PATTERN = "yyyy-MM-dd'T'HH:mm:ss.SSSX";
/** dateFormat's ISO8601 construct, both ways (./date-format.ts); the reader above is dateMath's and dateCompare's. */
export const ISO8601_FORMAT = compileSimpleDateFormat(ISO8601_PATTERN);

/** The ISO8601 named output format in GMT: "1974-08-02T02:30:32.190Z". */
export function formatIso8601(epochMs: number): string {
  return ISO8601_FORMAT.format(epochMs);
}

export type DateCompareOperator = 'LT' | 'LTE' | 'GT' | 'GTE';

/** The dateCompare operator, case-insensitively (the OpenAPI enum is upper case, every doc example lower case). */
export function parseDateCompareOperator(text: string): DateCompareOperator | undefined {
  const upper = text.toUpperCase();
  return upper === 'LT' || upper === 'LTE' || upper === 'GT' || upper === 'GTE' ? upper : undefined;
}

/** Whether `first <operator> second` holds. */
export function compareDates(first: number, operator: DateCompareOperator, second: number): boolean {
  switch (operator) {
    case 'LT': return first < second;
    case 'LTE': return first <= second;
    case 'GT': return first > second;
    case 'GTE': return first >= second;
  }
}
