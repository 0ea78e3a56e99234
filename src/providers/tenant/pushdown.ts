// accountFilter push-down
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/account-attribute,
// https://developer.sailpoint.com/docs/api/standard-collection-parameters): the part of an
// accountFilter AST the accounts collection can filter on, as an AST of the collection `filters`
// language (the tenant client prints it with formatFilter(…, 'api')).
//
// The engine applies the whole accountFilter again in memory, so the pushed expression only has
// to select a superset of the matching accounts: conjuncts that cannot be expressed are dropped,
// a disjunction is kept only when every branch can be expressed, a negation never is (the
// collection compares strings without regard to case, and the negation of a case-insensitive
// match would select fewer accounts than a case-sensitive one). Case-insensitive leaves of the
// object language stay in memory for the same reason.

import type { FilterLiteral, FilterNode } from '../../filter/ast.js';

import { BUILT } from './queries.js';

/** accountFilter's three searchable properties and the collection fields they are. */
const FIELDS: Readonly<Record<string, { field: string; kind: 'string' | 'boolean' }>> = {
  nativeIdentity: { field: 'nativeIdentity', kind: 'string' },
  displayName: { field: 'name', kind: 'string' },
  entitlements: { field: 'hasEntitlements', kind: 'boolean' },
};

function literal(value: FilterLiteral, kind: 'string' | 'boolean'): FilterLiteral | null {
  if (kind === 'string') return value.type === 'string' ? value : null;
  return value.type === 'boolean' ? value : null;
}

/** The `filters` AST selecting a superset of the accounts `node` matches, or null for "no restriction". */
export function pushDownAccountFilter(node: FilterNode): FilterNode | null {
  switch (node.kind) {
    case 'and': {
      const parts = node.children.map(pushDownAccountFilter).filter((p): p is FilterNode => p !== null);
      if (parts.length === 0) return null;
      return parts.length === 1 ? parts[0]! : { kind: 'and', children: parts, range: BUILT };
    }
    case 'or': {
      const parts = node.children.map(pushDownAccountFilter);
      if (parts.some((p) => p === null)) return null;
      return { kind: 'or', children: parts as FilterNode[], range: BUILT };
    }
    case 'compare': {
      const spec = FIELDS[node.property];
      if (!spec || node.op !== 'eq' || node.ignoreCase) return null;
      const value = literal(node.value, spec.kind);
      return value === null ? null : { kind: 'compare', op: 'eq', property: spec.field, value, ignoreCase: true, range: BUILT };
    }
    case 'in': {
      const spec = FIELDS[node.property];
      if (!spec || spec.kind !== 'string' || node.ignoreCase || node.values.length === 0) return null;
      const values = node.values.map((v) => literal(v, spec.kind));
      if (values.some((v) => v === null)) return null;
      return { kind: 'in', property: spec.field, values: values as FilterLiteral[], ignoreCase: true, range: BUILT };
    }
    case 'like': {
      const spec = FIELDS[node.property];
      if (!spec || spec.kind !== 'string' || node.mode !== 'start' || node.ignoreCase) return null;
      const value = literal(node.value, spec.kind);
      return value === null ? null : { kind: 'like', mode: 'start', property: spec.field, value, ignoreCase: true, range: BUILT };
    }
    default:
      return null;
  }
}
