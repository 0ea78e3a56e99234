// What a change can affect, found without evaluating anything: which transforms differ between
// two versions (canonical JSON, so key order and whitespace are not changes), which names each
// profile attribute reaches through `reference` (transitively), and so which attributes of a
// profile can compute another value. Only those are evaluated.

import { canonicalJson } from '../engine/canonical.js';
import { reachableFrom } from '../engine/references.js';
import type { IdentityProfile } from '../providers/types.js';
import type { TransformDocument } from '../providers/types.js';
import type { NamedTransform, TransformVersion, VersionFile } from './version.js';

export type TransformChangeKind = 'added' | 'removed' | 'changed' | 'renamed';

export interface TransformChange {
  kind: TransformChangeKind;
  /** The transform's name in head (in base for a removed one). */
  name: string;
  /** A renamed transform's name in base. */
  previousName?: string;
  /** Where it is: head's file, or base's for a removed transform. */
  file: string;
}

/** Same content under another name: canonical JSON without name and id. */
function contentKey(doc: TransformDocument): string {
  const { name: _name, id: _id, ...content } = doc as TransformDocument & { id?: unknown };
  return canonicalJson(content);
}

export function diffTransforms(base: TransformVersion, head: TransformVersion): TransformChange[] {
  const changes: TransformChange[] = [];
  const removed: VersionFile<NamedTransform>[] = [];
  const added: VersionFile<NamedTransform>[] = [];
  for (const [name, before] of base.transforms) {
    const after = head.transforms.get(name);
    if (!after) removed.push(before);
    else if (canonicalJson(before.doc) !== canonicalJson(after.doc)) changes.push({ kind: 'changed', name, file: after.file });
  }
  for (const [name, after] of head.transforms) if (!base.transforms.has(name)) added.push(after);
  // A removed and an added transform with the same content is one renamed transform.
  const removedByContent = new Map<string, VersionFile<NamedTransform>[]>();
  for (const r of removed) {
    const key = contentKey(r.doc);
    removedByContent.set(key, [...(removedByContent.get(key) ?? []), r]);
  }
  for (const a of added) {
    const twins = removedByContent.get(contentKey(a.doc));
    const twin = twins?.shift();
    if (twin) changes.push({ kind: 'renamed', name: a.doc.name, previousName: twin.doc.name, file: a.file });
    else changes.push({ kind: 'added', name: a.doc.name, file: a.file });
  }
  for (const rest of removedByContent.values()) for (const r of rest) changes.push({ kind: 'removed', name: r.doc.name, file: r.file });
  return changes.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

/** The names a definition references, and whether some reference's name is computed (a template). */
export interface References {
  names: Set<string>;
  dynamic: boolean;
  /** A usernameGenerator is reached: the value depends on what was issued before. */
  issued: boolean;
}

/**
 * Every `reference` reached from a definition, following the references through `transforms`;
 * a reference whose name is a template is dynamic (it can reach any transform).
 */
export function referencesOf(definition: unknown, transforms: ReadonlyMap<string, VersionFile<NamedTransform>>): References {
  const reached = reachableFrom(definition, (name) => transforms.get(name)?.doc, { templatesAreDynamic: true });
  return { names: reached.names, dynamic: reached.dynamic, issued: reached.types.has('usernameGenerator') };
}

export type AttributeReason =
  | { kind: 'mapping-added' }
  | { kind: 'mapping-removed' }
  | { kind: 'mapping-changed' }
  | { kind: 'transform'; name: string; change: TransformChangeKind }
  | { kind: 'dynamic-reference' };

export interface Mapping {
  identityAttributeName: string;
  transformDefinition: unknown;
  /** Its index in its profile's attributeTransforms. */
  index: number;
}

export interface AttributePlan {
  attribute: string;
  reasons: AttributeReason[];
  base: Mapping | null;
  head: Mapping | null;
  /** Reaches a usernameGenerator in either version: its values depend on issued values. */
  dependsOnIssuedValues: boolean;
}

function mappingsOf(profile: IdentityProfile | null): Map<string, Mapping> {
  const out = new Map<string, Mapping>();
  (profile?.identityAttributeConfig.attributeTransforms ?? []).forEach((m, index) => {
    // The platform keeps one mapping per attribute; a second one is evaluated as the refresh does (last wins).
    out.set(m.identityAttributeName, { identityAttributeName: m.identityAttributeName, transformDefinition: m.transformDefinition, index });
  });
  return out;
}

/** The attributes of one profile (in base and head) that a change can affect, in head's order then base's. */
export function planProfile(
  baseProfile: IdentityProfile | null,
  headProfile: IdentityProfile | null,
  base: TransformVersion,
  head: TransformVersion,
  changes: readonly TransformChange[],
): AttributePlan[] {
  const changed = new Map<string, TransformChangeKind>();
  for (const c of changes) {
    changed.set(c.name, c.kind);
    if (c.previousName !== undefined) changed.set(c.previousName, c.kind);
  }
  const before = mappingsOf(baseProfile);
  const after = mappingsOf(headProfile);
  const names = [...after.keys(), ...[...before.keys()].filter((n) => !after.has(n))];
  const plans: AttributePlan[] = [];
  for (const attribute of names) {
    const b = before.get(attribute) ?? null;
    const h = after.get(attribute) ?? null;
    const reasons: AttributeReason[] = [];
    if (!b) reasons.push({ kind: 'mapping-added' });
    else if (!h) reasons.push({ kind: 'mapping-removed' });
    else if (canonicalJson(b.transformDefinition) !== canonicalJson(h.transformDefinition)) reasons.push({ kind: 'mapping-changed' });
    const refsBefore = b ? referencesOf(b.transformDefinition, base.transforms) : null;
    const refsAfter = h ? referencesOf(h.transformDefinition, head.transforms) : null;
    const reached = new Set([...(refsBefore?.names ?? []), ...(refsAfter?.names ?? [])]);
    for (const name of [...reached].sort()) {
      const change = changed.get(name);
      if (change !== undefined) reasons.push({ kind: 'transform', name, change });
    }
    // A reference whose name is a template can reach any transform: it is affected by any change.
    if ((refsBefore?.dynamic || refsAfter?.dynamic) && changes.length > 0) reasons.push({ kind: 'dynamic-reference' });
    if (reasons.length === 0) continue;
    plans.push({ attribute, reasons, base: b, head: h, dependsOnIssuedValues: Boolean(refsBefore?.issued || refsAfter?.issued) });
  }
  return plans;
}
