// The search endpoint's query language and paging (platform-api.md §4.7, §8).

export { parseSearchQuery, DEFAULT_SEARCH_LIMITS, type SearchNode, type SearchRange, type SearchLimits } from '../../filter/search/parse.js';
export { compileSearch, fieldExpr, type SearchField, type SearchIndex } from '../../filter/search/to-sql.js';
export { matchesPrefix, matchesWords, registerSearchFunctions, SearchBudgetExceeded, SEARCH_SQL_FUNCTIONS, withSearchBudget, words, type SearchFunctionHost } from '../../filter/search/match.js';
export { keysetAfter, planSearch, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_OFFSET_CAP, type SearchPlan } from './request.js';
export { IDENTITIES_INDEX, identitySearchDocument, type SearchAccount, type StoredIdentity } from './identities.js';
export { parseProjection, project, projectionNeeds, type Projection } from './projection.js';
