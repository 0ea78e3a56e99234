// Checks of a transform against the names of a tenant's model: an accountAttribute that reads an
// attribute no account of its source carries evaluates to null without an error (the platform
// reads a missing attribute as null), which is almost always a misspelt name. The same finding is
// recorded in an explained evaluation's trace (operations/accountAttribute.ts); this walk finds
// it in every node of a document, evaluated or not, for `evaluate` and an editor.

import { pointerJoin } from '../errors/index.js';
import { didYouMean } from '../errors/suggest.js';
import type { Providers, Source, SourceRef } from '../providers/types.js';
import type { ValidationIssue } from '../schema/issues.js';
import { isPromise } from '../providers/maybe.js';

const SOURCE_KEYS = ['sourceId', 'applicationId', 'applicationName', 'sourceName'] as const;

/** The message of an attribute no account of the source carries (the explain text words the trace's finding alike). */
export function unknownAccountAttributeMessage(sourceName: string, attributeName: string, suggestion: string | undefined): string {
  return `no account of source ${JSON.stringify(sourceName)} carries ${JSON.stringify(attributeName)}: it reads as null${didYouMean(suggestion)}`;
}

interface Frame {
  value: unknown;
  parent: Frame | undefined;
  key: string;
}

function pointerOf(frame: Frame): string {
  const tokens: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent !== undefined; f = f.parent) tokens.push(f.key);
  return pointerJoin('', ...tokens.reverse());
}

/**
 * Warnings (EVAL_UNKNOWN_ACCOUNT_ATTRIBUTE) for every accountAttribute node of a transform whose
 * source the providers resolve synchronously and whose attribute none of that source's accounts
 * carries. Without `names` or `sources` among the providers there is nothing to check against.
 */
export function checkAccountAttributeNames(transform: unknown, providers: Providers): ValidationIssue[] {
  const { names, sources } = providers;
  if (!names || !sources) return [];
  const issues: ValidationIssue[] = [];
  // Each value knows its parent: a pointer is built only for a finding (a document nested
  // thousands deep would otherwise build a pointer that long for every node).
  const stack: Frame[] = [{ value: transform, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value } = frame;
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) stack.push({ value: child, parent: frame, key });
    const node = value as { type?: unknown; attributes?: Record<string, unknown> };
    if (node.type !== 'accountAttribute' || node.attributes === null || typeof node.attributes !== 'object') continue;
    const attributeName = node.attributes.attributeName;
    if (typeof attributeName !== 'string') continue;
    const ref: SourceRef = {};
    for (const key of SOURCE_KEYS) if (typeof node.attributes[key] === 'string') ref[key] = node.attributes[key] as string;
    let source: ReturnType<typeof sources.resolveSource>;
    try {
      source = sources.resolveSource(ref);
    } catch {
      continue; // the evaluation reports a provider's failure
    }
    if (source === null || isPromise<Source | null>(source)) continue;
    const carried = names.accountAttributeKnown(source.id, attributeName);
    if (carried.known) continue;
    issues.push({
      severity: 'warning',
      code: 'EVAL_UNKNOWN_ACCOUNT_ATTRIBUTE',
      path: pointerJoin(pointerOf(frame), 'attributes', 'attributeName'),
      message: unknownAccountAttributeMessage(source.name, attributeName, carried.suggestion),
      ...(carried.suggestion !== undefined ? { suggestion: carried.suggestion } : {}),
    });
  }
  return issues.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
