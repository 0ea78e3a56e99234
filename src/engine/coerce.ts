// The loose typing the platform accepts, as its documented examples write values (https://developer.sailpoint.com/docs/extensibility/transforms/): "8", 8, 8.0, -1.0 for integers;
// true and "true" (any case, as Java's Boolean.parseBoolean) for booleans.

/** An integer from a number or numeric string ("8", "8.0", -1.0); undefined when not one. */
export function coerceInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string') {
    const t = value.trim();
    if (!/^[+-]?\d+(\.0*)?$/.test(t)) return undefined;
    const n = Number(t);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** A boolean from true/false or "true"/"false" (case-insensitive); undefined otherwise. */
export function coerceBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const t = value.toLowerCase();
    if (t === 'true') return true;
    if (t === 'false') return false;
  }
  return undefined;
}
