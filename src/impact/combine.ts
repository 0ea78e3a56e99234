// Both versions of the affected attributes in one profile, so that one refresh pass over the
// tenant (with its workers and shards) evaluates them side by side: the head version's
// transforms keep their names; the base version's are saved under a prefix no head transform
// has, and the base mappings' references (and those inside base transforms) are renamed to
// match. Each mapping keeps its identity attribute (evaluatedAs) for $oldValue.

import { renameReferences } from '../engine/references.js';
import type { IdentityProfile } from '../providers/types.js';
import type { TransformDocument } from '../providers/types.js';
import type { AttributePlan } from './plan.js';
import type { TransformVersion } from './version.js';

export interface Combined {
  profile: IdentityProfile;
  transforms: TransformDocument[];
  /** The prefix of base transforms' names, to strip from error messages. */
  basePrefix: string;
  /** For each mapping of the combined profile, the pointer of the mapping it came from in its own profile. */
  origins: string[];
}

/** The result keys of plan i's two versions. */
export const baseKey = (i: number) => `base:${i}`;
export const headKey = (i: number) => `head:${i}`;

/**
 * The profile of one pass: for each plan `include` keeps, its base mapping, its head mapping or
 * both (`sides`).
 */
export function combine(
  plans: readonly AttributePlan[],
  base: TransformVersion,
  head: TransformVersion,
  profileName: string,
  include: (plan: AttributePlan) => boolean = () => true,
  sides: 'both' | 'base' | 'head' = 'both',
): Combined {
  let basePrefix = '[base] ';
  const taken = (prefix: string) => [...head.transforms.keys()].some((n) => n.startsWith(prefix));
  while (taken(basePrefix)) basePrefix = `[${basePrefix}] `;
  const rename = (name: string) => (base.transforms.has(name) ? basePrefix + name : null);
  const transforms: TransformDocument[] = [...head.transforms.values()].map((t) => t.doc);
  for (const t of base.transforms.values()) {
    transforms.push({ ...(renameReferences(t.doc, rename) as TransformDocument), name: basePrefix + t.doc.name });
  }
  const attributeTransforms: { identityAttributeName: string; transformDefinition: { type: string }; evaluatedAs: string }[] = [];
  const origins: string[] = [];
  plans.forEach((plan, i) => {
    if (!include(plan)) return;
    const withBase = plan.base !== null && sides !== 'head';
    const withHead = plan.head !== null && sides !== 'base';
    if (withBase) origins.push(`/identityAttributeConfig/attributeTransforms/${plan.base!.index}`);
    if (withHead) origins.push(`/identityAttributeConfig/attributeTransforms/${plan.head!.index}`);
    if (withBase && plan.base) {
      attributeTransforms.push({
        identityAttributeName: baseKey(i),
        transformDefinition: renameReferences(plan.base.transformDefinition, rename) as { type: string },
        evaluatedAs: plan.attribute,
      });
    }
    if (withHead && plan.head) {
      attributeTransforms.push({ identityAttributeName: headKey(i), transformDefinition: plan.head.transformDefinition as { type: string }, evaluatedAs: plan.attribute });
    }
  });
  return { profile: { name: profileName, identityAttributeConfig: { enabled: true, attributeTransforms } }, transforms, basePrefix, origins };
}
