import type { ErrorDefinition } from './types.js';

// The filter languages (object filters and collection filters). Prefix FILTER_.
export const filterErrors: Record<string, ErrorDefinition> = {
  FILTER_SYNTAX: { status: 400, description: 'The filter string does not parse; details give the character position and a caret excerpt.' },
  FILTER_UNSUPPORTED: { status: 400, description: 'The filter uses a construct that parses but is not supported here (join, collectionCondition, subquery).' },
  FILTER_FIELD: { status: 400, description: 'The filter names a field outside the allowed field map.' },
  FILTER_OPERATOR: { status: 400, description: 'The filter applies an operator the field does not allow.' },
  FILTER_LIMIT: { status: 400, description: 'The filter exceeds a configured limit (input length, AST nodes, nesting depth).' },
};
