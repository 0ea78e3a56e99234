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
  if (ISO_DATE.test(s)) {
    const t = Date.parse(s.length === 10 ? s + 'T00:00:00Z' : s);
    if (!Number.isNaN(t)) return { kind: 'date', value: t };
  }
  if (NUMERIC.test(s.trim())) return { kind: 'number', value: Number(s) };
  return { kind: 'string', value: s };
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
