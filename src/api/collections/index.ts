// The collection conventions every list endpoint shares
// (https://developer.sailpoint.com/docs/api/standard-collection-parameters).

export {
  badQuery,
  booleanParam,
  checkRawEscapes,
  collectionSql,
  integerParam,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  orderBy,
  parseCollectionQuery,
  parseFilters,
  parseSorters,
  type CollectionQuery,
  type CollectionSpec,
  type SortKey,
  timeSorter,
  type SortSpec,
  type SqlStatement,
} from './query.js';
export { runCollection, runCollectionColumn, runColumn, runCount, runStatement, sendPage, type CollectionPage } from './run.js';
export { prepared, type SqlDatabase } from '../../providers/sql-statements.js';
export { COLLECTION_PARAMETER_TYPES, collectionQuerySchema, docs, jsonListHandler, listHandler } from './route.js';
