// dateMath expressions (https://developer.sailpoint.com/docs/extensibility/transforms/operations/date-math): an optional `now` anchor, then any sequence
// of `+N<unit>`, `-N<unit>` and `/<unit>` (round) with units y M w d h m s. Rounding truncates,
// and roundUp adds one unit after truncating ("truncate and add the next unit", the DateMath
// schema's words). Rounding by week is an error. Output: java.time's printing at offset Z
// (`2026-02-28T00:00Z`), as a tenant prints it.

import { TransformsError } from '../../errors/index.js';
import { addMonths, fieldsOf, pad, utcMillis, MS_PER_DAY, MS_PER_HOUR, MS_PER_MINUTE, MS_PER_SECOND } from './calendar.js';

export type DateMathUnit = 'y' | 'M' | 'w' | 'd' | 'h' | 'm' | 's';

export type DateMathStep =
  | { readonly op: 'add'; readonly amount: number; readonly unit: DateMathUnit }
  | { readonly op: 'round'; readonly unit: Exclude<DateMathUnit, 'w'> };

export interface DateMathExpression {
  readonly source: string;
  /** The expression starts with `now`: the input is ignored (the docs: "now" wins). */
  readonly anchoredToNow: boolean;
  readonly steps: readonly DateMathStep[];
  /** Apply the steps to `base` (epoch ms); `roundUp` selects the rounding direction. */
  apply(base: number, roundUp: boolean): number;
}

const UNITS = 'yMwdhms';

function mathError(source: string, position: number, message: string): TransformsError {
  return new TransformsError('EVAL_DATE_MATH', `Invalid dateMath expression "${source}": ${message} at position ${position}`, {
    details: { expression: source, position },
  });
}

function add(ms: number, amount: number, unit: DateMathUnit): number {
  switch (unit) {
    case 'y': return addMonths(ms, amount * 12);
    case 'M': return addMonths(ms, amount);
    case 'w': return ms + amount * 7 * MS_PER_DAY;
    case 'd': return ms + amount * MS_PER_DAY;
    case 'h': return ms + amount * MS_PER_HOUR;
    case 'm': return ms + amount * MS_PER_MINUTE;
    case 's': return ms + amount * MS_PER_SECOND;
  }
}

function truncate(ms: number, unit: Exclude<DateMathUnit, 'w'>): number {
  const f = fieldsOf(ms);
  switch (unit) {
    case 'y': return utcMillis(f.year, 0, 1);
    case 'M': return utcMillis(f.year, f.month, 1);
    case 'd': return utcMillis(f.year, f.month, f.day);
    case 'h': return utcMillis(f.year, f.month, f.day, f.hour);
    case 'm': return utcMillis(f.year, f.month, f.day, f.hour, f.minute);
    case 's': return utcMillis(f.year, f.month, f.day, f.hour, f.minute, f.second);
  }
}

/** Parse an expression once (at compile time); errors are EVAL_DATE_MATH with the position. */
export function parseDateMath(source: string): DateMathExpression {
  let i = 0;
  const anchoredToNow = source.startsWith('now');
  if (anchoredToNow) i = 3;
  const steps: DateMathStep[] = [];
  while (i < source.length) {
    const c = source[i]!;
    if (c === '+' || c === '-') {
      const start = i;
      i++;
      let digits = '';
      while (i < source.length && /[0-9]/.test(source[i]!)) digits += source[i++];
      if (digits === '') throw mathError(source, i, `expected a number after '${c}'`);
      const unit = source[i];
      if (unit === undefined || !UNITS.includes(unit)) throw mathError(source, i, 'expected a unit y, M, w, d, h, m or s');
      const amount = Number(digits);
      if (!Number.isSafeInteger(amount)) throw mathError(source, start, 'amount too large');
      steps.push({ op: 'add', amount: c === '-' ? -amount : amount, unit: unit as DateMathUnit });
      i++;
    } else if (c === '/') {
      i++;
      const unit = source[i];
      if (unit === 'w') throw mathError(source, i, 'rounding by week is not supported');
      if (unit === undefined || !UNITS.includes(unit)) throw mathError(source, i, 'expected a unit y, M, d, h, m or s');
      steps.push({ op: 'round', unit: unit as Exclude<DateMathUnit, 'w'> });
      i++;
    } else {
      throw mathError(source, i, `unexpected '${c}'`);
    }
  }
  if (!anchoredToNow && steps.length === 0) throw mathError(source, 0, 'empty expression');
  return Object.freeze({
    source,
    anchoredToNow,
    steps: Object.freeze(steps),
    apply(base: number, roundUp: boolean): number {
      let ms = base;
      for (const step of steps) {
        if (step.op === 'add') ms = add(ms, step.amount, step.unit);
        else ms = roundUp ? add(truncate(ms, step.unit), 1, step.unit) : truncate(ms, step.unit);
      }
      if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
        throw new TransformsError('EVAL_DATE_MATH', `dateMath "${source}" leaves the representable date range`, {
          details: { expression: source },
        });
      }
      return ms;
    },
  });
}

/**
 * dateMath's output as java.time prints a date-time at offset Z (`OffsetDateTime.toString`, and
 * `ZonedDateTime.toString` at `ZoneOffset.UTC`; checked against JDK 17): `yyyy-MM-dd'T'HH:mm`,
 * then `:ss` only when the seconds or the fraction are not zero, then `.SSS` only when the
 * milliseconds are not (LocalTime.toString), then `Z`. Years as LocalDate.toString prints them:
 * four digits at least, a sign before a negative year (ISO year 0 is 1 BC) and before one above
 * 9999. A tenant printed `2026-02-28T00:00Z` (docs/decisions.md, "dateMath").
 */
export function formatDateMathOutput(epochMs: number): string {
  const f = fieldsOf(epochMs);
  const sign = f.year < 0 ? '-' : f.year > 9999 ? '+' : '';
  let out = `${sign}${pad(Math.abs(f.year), 4)}-${pad(f.month + 1, 2)}-${pad(f.day, 2)}T${pad(f.hour, 2)}:${pad(f.minute, 2)}`;
  if (f.second !== 0 || f.millisecond !== 0) out += `:${pad(f.second, 2)}`;
  if (f.millisecond !== 0) out += `.${pad(f.millisecond, 3)}`;
  return `${out}Z`;
}
