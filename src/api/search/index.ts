// The search endpoint's request handling (https://developer.sailpoint.com/docs/api/v3/search-post):
// the body and paging planned into SQL, the identities index and its documents, and
// queryResultFilter. The query language itself is src/filter/search/.

export { keysetAfter, planSearch, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, SEARCH_OFFSET_CAP, type SearchPlan } from './request.js';
export { IDENTITIES_INDEX, identitySearchDocument, type SearchAccount, type StoredIdentity } from './identities.js';
export { parseProjection, project, projectionNeeds, type Projection } from './projection.js';
