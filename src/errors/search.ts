import type { ErrorDefinition } from './types.js';

// The body and paging of POST /v3/search (https://developer.sailpoint.com/docs/api/v3/search-post).
// Prefix SEARCH_. The query string itself fails with FILTER_SYNTAX or FILTER_FIELD.
export const searchErrors = {
  SEARCH_BODY_INVALID: { status: 400, description: 'The search body is not an object, has a member this server does not know, or a member of the wrong type.' },
  SEARCH_INDEX: { status: 400, description: "'indices' is missing, empty, repeats an index or names one that is not searchable (identities, one per request)." },
  SEARCH_UNSUPPORTED: { status: 400, description: 'The body uses a search feature this server does not implement (queryDsl, textQuery, aggregations, a queryType other than SAILPOINT, includeNested false, …) rather than ignoring it.' },
  SEARCH_SORT_INVALID: { status: 400, description: "'sort' is not an array of field names, or sorts on a field twice." },
  SEARCH_SORT_FIELD: { status: 400, description: "'sort' names a field the index cannot be sorted on." },
  SEARCH_AFTER_WITHOUT_SORT: { status: 400, description: "'searchAfter' is given without 'sort'." },
  SEARCH_AFTER_INVALID: { status: 400, description: "'searchAfter' does not hold one scalar per sort field, or a value does not fit its sort field (an ISO 8601 date-time for created and modified)." },
  SEARCH_AFTER_WITH_OFFSET: { status: 400, description: "'offset' is combined with 'searchAfter'." },
  SEARCH_OFFSET_CAP: { status: 400, description: 'offset paging goes past the first 10,000 records; page further with sort and searchAfter.' },
  SEARCH_RESULT_FILTER: { status: 400, description: "'queryResultFilter' is not { includes?, excludes? } with lists of dotted field names." },
  SEARCH_TIME_BUDGET: { status: 400, description: 'The search ran longer than its time budget (requestLimits.searchTimeMs); narrow the query.' },
} as const satisfies Record<string, ErrorDefinition>;
