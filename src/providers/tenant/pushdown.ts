// accountFilter push-down
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/account-attribute,
// https://developer.sailpoint.com/docs/api/standard-collection-parameters): the part of an
// accountFilter AST the accounts collection can filter on, as a `filters` expression.
//
// The engine applies the whole accountFilter again in memory, so the pushed expression only has
// to select a superset of the matching accounts: conjuncts that cannot be expressed are dropped,
// a disjunction is kept only when every branch can be expressed, a negation never is (the
// collection compares strings without regard to case, and the negation of a case-insensitive
// match would select fewer accounts than a case-sensitive one). Case-insensitive leaves of the
// object language stay in memory for the same reason.

import type { FilterLiteral, FilterNode } from '../../filter/ast.js';

/** accountFilter's three searchable properties and the collection fields they are. */
const FIELDS: Readonly<Record<string, { field: string; kind: 'string' | 'boolean' }>> = {
  nativeIdentity: { field: 'nativeIdentity', kind: 'string' },
  displayName: { field: 'name', kind: 'string' },
  entitlements: { field: 'hasEntitlements', kind: 'boolean' },
};

/** A value of a `filters` string literal, escaped (`\` and `"`; the URL encoding does the rest). */
export function filterString(value: string): string {
  return '"' + value.replace(/[\\"]/g, (c) => '\\' + c) + '"';
}

function literal(value: FilterLiteral, kind: 'string' | 'boolean'): string | null {
  if (kind === 'string') return value.type === 'string' ? filterString(value.value) : null;
  return value.type === 'boolean' ? String(value.value) : null;
}

/** The `filters` expression selecting a superset of the accounts `node` matches, or null for "no restriction". */
export function pushDownAccountFilter(node: FilterNode): string | null {
  switch (node.kind) {
    case 'and': {
      const parts = node.children.map(pushDownAccountFilter).filter((p): p is string => p !== null);
      if (parts.length === 0) return null;
      return parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' and ');
    }
    case 'or': {
      const parts = node.children.map(pushDownAccountFilter);
      if (parts.some((p) => p === null)) return null;
      return parts.map((p) => `(${p})`).join(' or ');
    }
    case 'compare': {
      const spec = FIELDS[node.property];
      if (!spec || node.op !== 'eq' || node.ignoreCase) return null;
      const value = literal(node.value, spec.kind);
      return value === null ? null : `${spec.field} eq ${value}`;
    }
    case 'in': {
      const spec = FIELDS[node.property];
      if (!spec || spec.kind !== 'string' || node.ignoreCase || node.values.length === 0) return null;
      const values = node.values.map((v) => literal(v, spec.kind));
      if (values.some((v) => v === null)) return null;
      return `${spec.field} in (${values.join(', ')})`;
    }
    case 'like': {
      const spec = FIELDS[node.property];
      if (!spec || spec.kind !== 'string' || node.mode !== 'start' || node.ignoreCase) return null;
      const value = literal(node.value, spec.kind);
      return value === null ? null : `${spec.field} sw ${value}`;
    }
    default:
      return null;
  }
}
