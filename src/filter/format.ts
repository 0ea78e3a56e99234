// Print an AST in either filter language (sailpoint.object.Filter — Filter.toExpression() output
// compiles back — and the collection `filters` of
// https://developer.sailpoint.com/docs/api/standard-collection-parameters). Composite operands are
// always parenthesised, so the parser rebuilds exactly the same n-ary tree.

import type { CompareOp, FilterLiteral, FilterNode, LeafNode } from './ast.js';
import { FilterUnsupportedError } from './errors.js';
import { API_ATTRIBUTE } from './parse-api-filter.js';

export type FilterLanguage = 'object' | 'api';

const OBJECT_OPS: Readonly<Record<CompareOp, string>> = { eq: '==', ne: '!=', lt: '<', gt: '>', le: '<=', ge: '>=' };
const OBJECT_LIKE = { start: 'startsWith', end: 'endsWith', anywhere: 'contains' } as const;

/**
 * Print `ast` in `language`. Nodes the language cannot express throw FILTER_UNSUPPORTED:
 * in the API language `isEmpty`, `endsWith`, join/collectionCondition/subquery and property
 * names that are not dotted identifiers. Lossy by design: the API language has no
 * case-sensitive form (case is the field's), and `present` prints as `notNull()` and back.
 */
export function formatFilter(ast: FilterNode, language: FilterLanguage): string {
  if (language !== 'object' && language !== 'api') {
    throw new FilterUnsupportedError('FILTER_UNSUPPORTED', `unknown filter language '${String(language)}'`, { start: 0, end: 0 });
  }
  return language === 'object' ? formatObject(ast) : formatApi(ast);
}

// Words separated by single spaces, dotted segments: what the object parser reads back as one name.
const OBJECT_WORD = String.raw`[^\s.(){},"'!&|=<>]+`;
const OBJECT_PROPERTY = new RegExp(`^${OBJECT_WORD}(?: ${OBJECT_WORD})*(?:\\.${OBJECT_WORD}(?: ${OBJECT_WORD})*)*$`);

function formatObject(node: FilterNode): string {
  if ('property' in node && !OBJECT_PROPERTY.test(node.property)) {
    throw new FilterUnsupportedError('FILTER_UNSUPPORTED', `the object filter language cannot name the property '${node.property}'`, {
      property: node.property,
      start: node.range.start,
      end: node.range.end,
    });
  }
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.map((c) => (c.kind === 'and' || c.kind === 'or' ? `(${formatObject(c)})` : formatObject(c))).join(node.kind === 'and' ? ' && ' : ' || ');
    case 'not':
      return `!(${formatObject(node.operand)})`;
    case 'compare':
      return `${node.property} ${node.ignoreCase ? 'i' : ''}${OBJECT_OPS[node.op]} ${objectLiteral(node.value)}`;
    case 'in':
    case 'containsAll':
      return `${node.property}.${node.kind}${node.ignoreCase ? 'IgnoreCase' : ''}({${node.values.map(objectLiteral).join(', ')}})`;
    case 'like':
      return `${node.property}.${OBJECT_LIKE[node.mode]}${node.ignoreCase ? 'IgnoreCase' : ''}(${objectLiteral(node.value)})`;
    case 'isNull':
    case 'notNull':
    case 'isEmpty':
      return `${node.property}.${node.kind}()`;
    case 'present':
      return `${node.property}.notNull()`;
    case 'join':
      return `${node.property}.join(${node.target})`;
    case 'collectionCondition':
      return `${node.property}.collectionCondition(${quote(node.condition)})`;
    case 'subquery':
      return `${node.property}.subquery(${node.args.map(objectLiteral).join(', ')})`;
  }
}

function formatApi(node: FilterNode): string {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.map((c) => (c.kind === 'and' || c.kind === 'or' ? `(${formatApi(c)})` : formatApi(c))).join(` ${node.kind} `);
    case 'not':
      return `not (${formatApi(node.operand)})`;
    case 'compare':
      return `${apiProperty(node)} ${node.op} ${apiLiteral(node.value)}`;
    case 'in':
    case 'containsAll':
      if (node.values.length === 0) throw cannot(node, 'an empty list');
      return `${apiProperty(node)} ${node.kind === 'in' ? 'in' : 'ca'} (${node.values.map(apiLiteral).join(',')})`;
    case 'like':
      if (node.mode === 'end') throw cannot(node, 'endsWith');
      return `${apiProperty(node)} ${node.mode === 'start' ? 'sw' : 'co'} ${apiLiteral(node.value)}`;
    case 'isNull':
      return `${apiProperty(node)} isnull`;
    case 'notNull':
    case 'present':
      return `pr ${apiProperty(node)}`;
    default:
      throw cannot(node, node.kind);
  }
}

function cannot(node: LeafNode, what: string): FilterUnsupportedError {
  return new FilterUnsupportedError('FILTER_UNSUPPORTED', `the API filter language has no form for ${what}`, {
    property: node.property,
    start: node.range.start,
    end: node.range.end,
  });
}

function apiProperty(node: LeafNode): string {
  if (!API_ATTRIBUTE.test(node.property)) throw cannot(node, `the property name '${node.property}'`);
  return node.property;
}

function objectLiteral(literal: FilterLiteral): string {
  switch (literal.type) {
    case 'string':
    case 'datetime':
      return quote(literal.value);
    case 'identifier':
      return literal.value;
    default:
      return scalar(literal);
  }
}

function apiLiteral(literal: FilterLiteral): string {
  switch (literal.type) {
    case 'string':
      return quote(literal.value);
    case 'datetime':
    case 'identifier':
      return literal.value;
    default:
      return scalar(literal);
  }
}

function scalar(literal: Extract<FilterLiteral, { type: 'number' | 'boolean' | 'null' }>): string {
  if (literal.type === 'null') return 'null';
  if (literal.type === 'boolean') return String(literal.value);
  return Object.is(literal.value, -0) ? '-0' : String(literal.value);
}

/** Double-quote a string, escaping `\` and `"` (the only escapes either language defines). */
function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
