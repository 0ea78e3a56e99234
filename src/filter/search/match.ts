// How a search term matches a field value (https://developer.sailpoint.com/docs/api/v3/search-post;
// docs/decisions.md "Search matching"): the platform's search analyses text into words, so a term
// matches when its words appear consecutively, case-insensitively, among the value's words. The
// same functions run in SQLite (registered per connection) and in tests.

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

/** Lower-cased words of a text; separators (space, punctuation, `@`, `.`) are dropped. */
export function words(text: string): string[] {
  return text.toLowerCase().split(WORD_SPLIT).filter((w) => w !== '');
}

/**
 * Words of recently seen texts. SQLite compares one query term with every row, and every term of
 * a query with the same row's few values one after the other, so both sides repeat: splitting
 * each once made a 128-term query over 5,000 identities several times cheaper. A pure function's
 * memo, bounded (cleared when full), so it holds no state that could change a result.
 */
function memo(size: number): (text: string) => string[] {
  const seen = new Map<string, string[]>();
  return (text) => {
    let w = seen.get(text);
    if (w === undefined) {
      if (seen.size >= size) seen.clear();
      w = words(text);
      seen.set(text, w);
    }
    return w;
  };
}

const queryWords = memo(256);
const valueWords = memo(64);

function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return null;
}

/** Whether `query`'s words occur consecutively in `value`'s words (a query of no words matches equality only). */
export function matchesWords(value: unknown, query: string): boolean {
  const text = asText(value);
  if (text === null) return false;
  const q = queryWords(query);
  if (q.length === 0) return text.toLowerCase() === query.toLowerCase();
  const v = valueWords(text);
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
  return valueWords(text).some((w) => w.startsWith(p));
}

/** The functions compiled search SQL calls. */
export const SEARCH_SQL_FUNCTIONS = {
  search_match: (value: unknown, query: unknown): number => (typeof query === 'string' && matchesWords(value, query) ? 1 : 0),
  search_prefix: (value: unknown, prefix: unknown): number => (typeof prefix === 'string' && matchesPrefix(value, prefix) ? 1 : 0),
} as const;

export interface SearchFunctionHost {
  function(name: string, options: { deterministic: boolean }, fn: (a: unknown, b: unknown) => unknown): unknown;
}

/** Thrown from inside a search SQL function when the search's time budget is spent. */
export class SearchBudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`the search ran longer than its budget of ${budgetMs} ms`);
  }
}

interface Budget {
  deadline: number;
  budgetMs: number;
  calls: number;
}

/** The running search's budget per connection (set by withSearchBudget, read by the SQL functions). */
const budgets = new WeakMap<object, Budget>();

/**
 * Register search_match and search_prefix on a better-sqlite3 connection. Every 256th call checks
 * the clock against the budget of the search running on that connection (withSearchBudget), so
 * a costly query stops with SearchBudgetExceeded instead of holding the event loop.
 */
export function registerSearchFunctions(db: SearchFunctionHost): void {
  const budget: Budget = { deadline: Infinity, budgetMs: 0, calls: 0 };
  budgets.set(db, budget);
  const check = () => {
    if ((++budget.calls & 255) === 0 && performance.now() > budget.deadline) throw new SearchBudgetExceeded(budget.budgetMs);
  };
  db.function('search_match', { deterministic: true }, (value, query) => {
    check();
    return SEARCH_SQL_FUNCTIONS.search_match(value, query);
  });
  db.function('search_prefix', { deterministic: true }, (value, prefix) => {
    check();
    return SEARCH_SQL_FUNCTIONS.search_prefix(value, prefix);
  });
}

/**
 * Run `fn` (synchronous SQL on `db`) with a time budget for the search functions. Throws
 * SearchBudgetExceeded when the budget is spent; connections without the functions run as is.
 */
export function withSearchBudget<T>(db: object, budgetMs: number, fn: () => T): T {
  const budget = budgets.get(db);
  if (budget === undefined) return fn();
  budget.deadline = performance.now() + budgetMs;
  budget.budgetMs = budgetMs;
  budget.calls = 0;
  try {
    return fn();
  } finally {
    budget.deadline = Infinity;
  }
}
