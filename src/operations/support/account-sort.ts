// Typed comparison for accountAttribute's accountSortAttribute (undocumented: docs/decisions.md).
// ISO 8601 date-times compare by instant, numbers (and numeric strings) numerically, everything
// else as Java String.compareTo (UTF-16 code units). Null and missing values sort last in both
// directions, so that they are only reached when no account has a value. Ties keep the
// provider's order (a stable sort).

import type { Account } from '../../providers/types.js';

export type SortKey =
  | { kind: 'null' }
  | { kind: 'date'; value: number }
  | { kind: 'number'; value: number }
  | { kind: 'string'; value: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The account's own properties that a sort attribute may name when the attributes lack it. */
const ACCOUNT_PROPERTIES: Record<string, (a: Account) => unknown> = {
  created: (a) => a.created,
  nativeIdentity: (a) => a.nativeIdentity,
  displayName: (a) => a.name,
  name: (a) => a.name,
  id: (a) => a.id,
};

export function sortKey(account: Account, attribute: string): SortKey {
  let raw: unknown;
  // `created` is the account's creation date (the documented default), not a schema attribute.
  if (attribute === 'created' && account.created !== undefined) raw = account.created;
  else if (account.attributes && Object.prototype.hasOwnProperty.call(account.attributes, attribute)) raw = account.attributes[attribute];
  else raw = ACCOUNT_PROPERTIES[attribute]?.(account);
  return keyOf(raw);
}

export function keyOf(raw: unknown): SortKey {
  if (raw === null || raw === undefined) return { kind: 'null' };
  if (Array.isArray(raw)) return raw.length === 0 ? { kind: 'null' } : keyOf(raw[0]);
  if (typeof raw === 'number') return Number.isFinite(raw) ? { kind: 'number', value: raw } : { kind: 'null' };
  if (typeof raw === 'boolean') return { kind: 'string', value: String(raw) };
  const s = String(raw);
  const instant = canonicalInstant(s);
  if (instant === instant) return { kind: 'date', value: instant };
  if (ISO_DATE.test(s)) {
    const t = Date.parse(s.length === 10 ? s + 'T00:00:00Z' : s);
    if (!Number.isNaN(t)) return { kind: 'date', value: t };
  }
  if (NUMERIC.test(s.trim())) return { kind: 'number', value: Number(s) };
  return { kind: 'string', value: s };
}

/**
 * Date.parse of an instant written the canonical way, `YYYY-MM-DDTHH:MM:SS.sssZ` or
 * `YYYY-MM-DDTHH:MM:SSZ` (Date.prototype.toISOString's form, the platform's `created`), read
 * field by field; NaN for any other text, which then takes the general path (the pattern and
 * Date.parse). Sorting accounts reads every candidate's key, and Date.parse with the pattern cost
 * more than the rest of the sort. Only fields where this and Date.parse agree are taken: years
 * from 100, months 1–12, days 1–31 (both carry a day past the
 * month's end into the next), hours 0–23, minutes and seconds 0–59.
 */
export function canonicalInstant(s: string): number {
  const n = s.length;
  if (n !== 24 && n !== 20) return NaN;
  if (s.charCodeAt(n - 1) !== 0x5a || s.charCodeAt(4) !== 0x2d || s.charCodeAt(7) !== 0x2d || s.charCodeAt(10) !== 0x54 || s.charCodeAt(13) !== 0x3a || s.charCodeAt(16) !== 0x3a) return NaN;
  if (n === 24 && s.charCodeAt(19) !== 0x2e) return NaN;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  const millis = n === 24 ? digits(s, 20, 3) : 0;
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || millis < 0) return NaN;
  return daysFromCivil(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + millis;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil,
 * https://howardhinnant.github.io/date_algorithms.html#days_from_civil): arithmetic only, where
 * Date.UTC is a call into the runtime. Linear in the day, so a day past the month's end carries
 * over as Date.UTC carries it.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The decimal number of `count` ASCII digits at `at`; -1 when one is not a digit. */
function digits(s: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = s.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (a.kind === 'string' || b.kind === 'string' || a.kind !== b.kind) {
    const x = a.kind === 'null' ? '' : String(a.value);
    const y = b.kind === 'null' ? '' : String(b.value);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = (a as { value: number }).value;
  const y = (b as { value: number }).value;
  return x - y;
}

export function compareAccounts(
  a: { key: SortKey; index: number },
  b: { key: SortKey; index: number },
  descending: boolean,
): number {
  const an = a.key.kind === 'null';
  const bn = b.key.kind === 'null';
  if (an || bn) return an && bn ? a.index - b.index : an ? 1 : -1;
  const c = compareKeys(a.key, b.key);
  if (c !== 0) return descending ? -c : c;
  return a.index - b.index;
}
