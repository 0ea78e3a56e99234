// The search query language (https://developer.sailpoint.com/docs/api/v3/search-post): its AST,
// parser, formatter, SQLite back end and the word matching the back end runs.

export type { AllNode, ExistsNode, SearchAndNode, SearchLeaf, SearchNode, SearchNotNode, SearchOrNode, TermNode } from './ast.js';
export { DEFAULT_SEARCH_LIMITS, parseSearchQuery, SEARCH_FIELD, SEARCH_KEYWORDS, UNSUPPORTED_CHARACTERS, type SearchLimits } from './parse.js';
export { formatSearchQuery } from './format.js';
export { compileSearch, fieldExpr, type SearchField, type SearchIndex } from './to-sql.js';
export { matchesPrefix, matchesWords, registerSearchFunctions, SearchBudgetExceeded, SEARCH_SQL_FUNCTIONS, withSearchBudget, words, type SearchFunctionHost } from './match.js';
