// The value semantics both back ends share (docs/decisions.md): property lookup, case
// folding, numeric strings, ISO 8601 instants and string order. The SQL back end registers
// these same functions in SQLite so that a predicate and its WHERE clause cannot disagree.

import type { FilterLiteral } from './ast.js';

/**
 * Read a property: the literal key `a.b` when the record has it, else the dotted path. A path
 * step through an array maps over its elements (`emails.value` of a list of objects), so a
 * multi-valued result comes back as a flat array. Missing anywhere → undefined.
 */
export function compileGetter(property: string): (record: unknown) => unknown {
  const steps = property.split('.');
  const hasOwn = Object.prototype.hasOwnProperty;
  if (steps.length === 1) {
    // Only names that Object.prototype also has (toString, constructor, …) need the own-key
    // check; every other name is read directly, which keeps the hot path one property load.
    if (!(property in Object.prototype)) {
      return (record) => (record !== null && typeof record === 'object' ? (record as Record<string, unknown>)[property] : undefined);
    }
    return (record) =>
      record !== null && typeof record === 'object' && hasOwn.call(record, property)
        ? (record as Record<string, unknown>)[property]
        : undefined;
  }
  return (record) => {
    if (record === null || typeof record !== 'object') return undefined;
    if (hasOwn.call(record, property)) return (record as Record<string, unknown>)[property];
    let current: unknown = record;
    for (const step of steps) current = stepInto(current, step);
    return current;
  };
}

function stepInto(value: unknown, step: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const element of value) {
      const v = stepInto(element, step);
      if (Array.isArray(v)) out.push(...v);
      else if (v !== undefined) out.push(v);
    }
    return out;
  }
  if (typeof value !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(value, step) ? (value as Record<string, unknown>)[step] : undefined;
}

/** Case folding for the IgnoreCase operators: full Unicode lower-casing, like Java's. */
export function fold(text: string): string {
  return text.toLowerCase();
}

const NUMERIC = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A number (not NaN), or a string that is exactly a finite decimal number; otherwise undefined. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value;
  if (typeof value === 'string' && NUMERIC.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

// RFC 3339 date-time with a zone, or a bare date (midnight UTC). A date-time without a zone
// is refused: JavaScript would read it as local time and SQLite as UTC.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:\d{2}))?$/;

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Milliseconds since the epoch of an ISO 8601 string, or undefined when it is not one. */
export function isoInstant(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.length < 10 || value.length > 40) return undefined;
  const m = ISO.exec(value);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const year = Number(y);
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]!) return undefined;
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return undefined;
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = frac === undefined ? 0 : Math.floor(Number(frac.padEnd(3, '0').slice(0, 3)));
  let offset = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offset = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime() - offset;
}

/**
 * Order strings by Unicode code point (UTF-16 code-unit order differs above U+FFFF). This is
 * SQLite's BINARY collation over UTF-8, so `<` agrees between the back ends.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800–DFFF) encode code points above U+FFFF: move them above U+E000–FFFF.
    if (x >= 0xd800) x += x <= 0xdfff ? 0x2000 : -0x800;
    if (y >= 0xd800) y += y <= 0xdfff ? 0x2000 : -0x800;
    return x - y;
  }
  return a.length - b.length;
}

/** The text a literal stands for when it is compared as a string. */
export function literalText(literal: FilterLiteral): string | null {
  switch (literal.type) {
    case 'null':
      return null;
    case 'number':
      return String(literal.value);
    case 'boolean':
      return literal.value ? 'true' : 'false';
    default:
      return literal.value;
  }
}

/** True for the values `isEmpty` accepts: missing, null, "" and []. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}
