// Canonical JSON (keys sorted at every level): the compile cache key, so that two transforms
// that differ only in key order share one compiled closure.

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  const keys = Object.keys(value).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (out.length > 1) out += ',';
    out += JSON.stringify(k) + ':' + canonicalJson(v);
  }
  return out + '}';
}
