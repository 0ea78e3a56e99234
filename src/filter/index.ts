// The public sub-path `identity-transforms/filter` (sailpoint.object.Filter,
// https://developer.sailpoint.com/docs/extensibility/rules/java-docs; collection `filters`,
// https://developer.sailpoint.com/docs/api/standard-collection-parameters; the search query
// language, https://developer.sailpoint.com/docs/api/v3/search-post): the three query languages,
// their ASTs, formatters and back ends. Every export is named.

export type {
  AndNode,
  CollectionConditionNode,
  CompareNode,
  CompareOp,
  ContainsAllNode,
  FilterKind,
  FilterLiteral,
  FilterNode,
  InNode,
  JoinNode,
  LeafNode,
  LikeMode,
  LikeNode,
  Located,
  NotNode,
  OrNode,
  QueryNode,
  SourceRange,
  SubqueryNode,
  UnaryTestNode,
} from './ast.js';
export { childrenOf, collect, countNodes, filterProperties, isLeaf, stripRanges, UNSUPPORTED_KINDS, walk } from './ast.js';
export { caretExcerpt, DEFAULT_FILTER_LIMITS, FilterSyntaxError, FilterUnsupportedError, type FilterLimits } from './errors.js';
export { parseObjectFilter } from './parse-object-filter.js';
export { compilePredicate, type Predicate, type PredicateOptions } from './to-predicate.js';
export { OPERATOR_NAMES, type FieldMap, type FieldSpec, type FieldType, type OperatorName } from './fields.js';
export { parseApiFilter } from './parse-api-filter.js';
export { formatFilter, type FilterLanguage } from './format.js';
export { compileSql, registerSqlFunctions, SQL_FUNCTIONS, type SqlFunctionHost, type SqlParam, type SqlWhere } from './to-sql.js';
export {
  compileSearch,
  DEFAULT_SEARCH_LIMITS,
  formatSearchQuery,
  parseSearchQuery,
  type AllNode,
  type ExistsNode,
  type SearchAndNode,
  type SearchField,
  type SearchIndex,
  type SearchLeaf,
  type SearchLimits,
  type SearchNode,
  type SearchNotNode,
  type SearchOrNode,
  type TermNode,
} from './search/index.js';
