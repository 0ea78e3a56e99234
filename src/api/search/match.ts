// How a search term matches a field value (platform-api.md §4.7; docs/decisions.md "Search
// matching"): the platform's search analyses text into words, so a term matches when its words
// appear consecutively, case-insensitively, among the value's words. The same functions run in
// SQLite (registered per connection) and in tests.

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

/** Lower-cased words of a text; separators (space, punctuation, `@`, `.`) are dropped. */
export function words(text: string): string[] {
  return text.toLowerCase().split(WORD_SPLIT).filter((w) => w !== '');
}

function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return null;
}

/** Whether `query`'s words occur consecutively in `value`'s words (a query of no words matches equality only). */
export function matchesWords(value: unknown, query: string): boolean {
  const text = asText(value);
  if (text === null) return false;
  const q = words(query);
  if (q.length === 0) return text.toLowerCase() === query.toLowerCase();
  const v = words(text);
  outer: for (let i = 0; i + q.length <= v.length; i++) {
    for (let k = 0; k < q.length; k++) if (v[i + k] !== q[k]) continue outer;
    return true;
  }
  return false;
}

/** `field:pre*`: the whole value or one of its words starts with the prefix, case-insensitively. */
export function matchesPrefix(value: unknown, prefix: string): boolean {
  const text = asText(value);
  if (text === null) return false;
  const p = prefix.toLowerCase();
  if (text.toLowerCase().startsWith(p)) return true;
  return words(text).some((w) => w.startsWith(p));
}

/** The functions compiled search SQL calls. */
export const SEARCH_SQL_FUNCTIONS = {
  search_match: (value: unknown, query: unknown): number => (typeof query === 'string' && matchesWords(value, query) ? 1 : 0),
  search_prefix: (value: unknown, prefix: unknown): number => (typeof prefix === 'string' && matchesPrefix(value, prefix) ? 1 : 0),
} as const;

export interface SearchFunctionHost {
  function(name: string, options: { deterministic: boolean }, fn: (a: unknown, b: unknown) => unknown): unknown;
}

/** Register search_match and search_prefix on a better-sqlite3 connection. */
export function registerSearchFunctions(db: SearchFunctionHost): void {
  for (const [name, fn] of Object.entries(SEARCH_SQL_FUNCTIONS)) db.function(name, { deterministic: true }, fn);
}
