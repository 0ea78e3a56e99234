// The checks of a transform against a tenant's names: an accountAttribute whose source no source
// of the tenant is (an error: the platform fails the evaluation with "source not found"), and an
// attributeName that no account of that source carries (a warning: the source's schema may have
// it while no account has a value yet). Each says the closest known name. The names come from a
// tenant model (a fixture or snapshot directory); `validate --fixtures` and the language service
// ask the same questions of the same model.
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/account-attribute

import { pointerJoin } from '../errors/index.js';
import { closestName } from '../errors/suggest.js';
import { resolveSourceRef, type SourceIndex } from '../providers/sources.js';
import type { Source, SourceRef } from '../providers/types.js';
import type { ValidationIssue } from '../schema/issues.js';

/** What the checks need to know of a tenant. */
export interface TenantNames {
  /** Every source of the tenant. */
  readonly sources: readonly Source[];
  /** The sources indexed by each key an accountAttribute may give. */
  readonly sourceIndex: SourceIndex;
  /** The attribute names the accounts of a source carry (by source id); undefined when the source has no account. */
  accountAttributes(sourceId: string): ReadonlySet<string> | undefined;
}

/** A finding with its suggested replacement, for editors that offer it as a fix. */
export interface TenantIssue extends ValidationIssue {
  suggestion?: string;
}

const KEYS = ['sourceId', 'applicationId', 'applicationName', 'sourceName'] as const;

/** The names a source key is compared with. */
function namesOf(key: (typeof KEYS)[number], sources: readonly Source[]): string[] {
  switch (key) {
    case 'sourceId':
      return sources.map((s) => s.id);
    case 'applicationId':
      return sources.map((s) => s.externalId ?? s.id);
    case 'applicationName':
      return sources.map((s) => s.applicationName ?? `${s.name} [source]`);
    default:
      return sources.map((s) => s.name);
  }
}

/** A constant string (a template is only known when it is evaluated). */
const constant = (v: unknown): v is string => typeof v === 'string' && !v.includes('$') && !v.includes('#');

function suggest(message: string, found: string | undefined): { message: string; suggestion?: string } {
  return found === undefined ? { message } : { message: `${message}; did you mean "${found}"?`, suggestion: found };
}

/**
 * The tenant checks of every accountAttribute in a document (a transform or a profile: each
 * object whose "type" is accountAttribute, wherever it is nested), with JSON Pointers into it.
 */
export function checkTenantNames(json: unknown, tenant: TenantNames): TenantIssue[] {
  const issues: TenantIssue[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: json, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: `${path}/${i}` }));
      continue;
    }
    const obj = value as Record<string, unknown>;
    if (obj.type === 'accountAttribute' && obj.attributes !== null && typeof obj.attributes === 'object' && !Array.isArray(obj.attributes)) {
      checkNode(obj.attributes as Record<string, unknown>, pointerJoin(path, 'attributes'), tenant, issues);
    }
    for (const k of Object.keys(obj)) stack.push({ value: obj[k], path: pointerJoin(path, k) });
  }
  return issues;
}

function checkNode(attributes: Record<string, unknown>, at: string, tenant: TenantNames, issues: TenantIssue[]): void {
  const key = KEYS.find((k) => attributes[k] !== undefined);
  if (key === undefined || !constant(attributes[key])) return;
  const ref: SourceRef = { [key]: attributes[key] };
  const source = resolveSourceRef(ref, tenant.sourceIndex);
  const given = attributes[key] as string;
  if (!source) {
    const found = closestName(given, namesOf(key, tenant.sources));
    issues.push({ severity: 'error', code: 'VALIDATE_UNKNOWN_SOURCE', path: pointerJoin(at, key), ...suggest(`no source of the tenant has the ${key} "${given}"`, found) });
    return;
  }
  const name = attributes.attributeName;
  const carried = tenant.accountAttributes(source.id);
  if (!constant(name) || carried === undefined || carried.has(name)) return;
  const found = closestName(name, carried);
  issues.push({
    severity: 'warning',
    code: 'VALIDATE_UNKNOWN_ACCOUNT_ATTRIBUTE',
    path: pointerJoin(at, 'attributeName'),
    ...suggest(`no account of the source "${source.name}" carries the attribute "${name}"`, found),
  });
}
