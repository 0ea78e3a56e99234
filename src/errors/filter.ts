import type { ErrorDefinition } from './types.js';

// The filter languages (object filters and collection filters). Prefix FILTER_.
export const filterErrors = {
  FILTER_SYNTAX: { status: 400, description: 'The filter string does not parse; details give the character position and a caret excerpt.' },
  FILTER_UNSUPPORTED: { status: 400, description: 'The filter uses a construct that parses but is not supported here (join, collectionCondition, subquery), or that the target language cannot express.' },
  FILTER_FIELD: { status: 400, description: 'The filter names a field outside the allowed field map.' },
  FILTER_OPERATOR: { status: 400, description: 'The filter applies an operator the field does not allow.' },
  FILTER_VALUE: { status: 400, description: 'The filter compares a field with a value of a type the field cannot hold (a word on a number field, a string on a boolean field, …).' },
  FILTER_LIMIT: { status: 400, description: 'The filter exceeds a configured limit (input length, AST nodes, nesting depth).' },
  FILTER_OPTION_INVALID: { status: 500, description: 'A filter option object has an unknown key or an invalid value (a limit that is not a positive integer, a field map entry without a column, …).' },
} as const satisfies Record<string, ErrorDefinition>;
