// Which attributes of a profile can be compared with what the platform stored, decided from
// the transforms before the run (docs/verify.md "Kinds"): an attribute that reaches a rule not
// registered here, usernameGenerator, a random value or the clock gives another value than
// the platform's for reasons that are not ours to fix.

import { CLOUD_SERVICES_DEPLOYMENT_UTILITY } from '../operations/rule.js';
import type { IdentityProfile, TransformDocument } from '../providers/types.js';
import { reachableFrom } from '../engine/references.js';
import type { AttributeReason } from '../refresh/stored-comparison.js';

/** Most telling first: a rule we cannot run explains a difference before anything else does. */
const ORDER: readonly AttributeReason[] = ['rule', 'unique', 'random', 'time'];

/** The operations whose value is random (https://developer.sailpoint.com/docs/extensibility/transforms/operations/uuid and …/random-alphanumeric, …/random-numeric). */
const RANDOM = new Set(['uuid', 'randomAlphaNumeric', 'randomNumeric']);

/** dateMath and dateCompare read the clock where their text says "now". */
function readsClock(node: Record<string, unknown>): boolean {
  const attributes = node.attributes as Record<string, unknown> | null | undefined;
  if (attributes === null || typeof attributes !== 'object') return false;
  if (node.type === 'dateMath') return typeof attributes.expression === 'string' && attributes.expression.trimStart().startsWith('now');
  if (node.type === 'dateCompare') return attributes.firstDate === 'now' || attributes.secondDate === 'now';
  return false;
}

/** The reasons one transform node gives. */
function reasonsOf(node: Record<string, unknown>, registeredRules: ReadonlySet<string>): AttributeReason[] {
  const out: AttributeReason[] = [];
  if (RANDOM.has(String(node.type))) out.push('random');
  if (node.type === 'usernameGenerator') out.push('unique');
  if (readsClock(node)) out.push('time');
  if (node.type === 'rule') {
    const attributes = (node.attributes ?? {}) as Record<string, unknown>;
    if (attributes.name === CLOUD_SERVICES_DEPLOYMENT_UTILITY) {
      if (attributes.operation === 'generateRandomString') out.push('random');
    } else if (typeof attributes.name !== 'string' || !registeredRules.has(attributes.name)) {
      out.push('rule');
    }
  }
  return out;
}

/**
 * The reason a definition cannot be compared (through its references, transitively), or null.
 * `transform` finds a saved transform by name.
 */
export function reasonOf(definition: unknown, transform: (name: string) => TransformDocument | undefined, registeredRules: ReadonlySet<string>): AttributeReason | null {
  const found = new Set<AttributeReason>();
  reachableFrom(definition, transform, {
    visit: (node) => {
      if (typeof node.type === 'string') for (const reason of reasonsOf(node, registeredRules)) found.add(reason);
    },
  });
  return ORDER.find((r) => found.has(r)) ?? null;
}

/** The profile's attributes that are not comparable, and why. */
export function attributeReasons(profile: IdentityProfile, transforms: readonly TransformDocument[], registeredRules: ReadonlySet<string>): Record<string, AttributeReason> {
  const byName = new Map(transforms.map((t) => [t.name, t]));
  const out: Record<string, AttributeReason> = {};
  for (const mapping of profile.identityAttributeConfig.attributeTransforms) {
    const reason = reasonOf(mapping.transformDefinition, (name) => byName.get(name), registeredRules);
    if (reason !== null) out[mapping.identityAttributeName] = reason;
  }
  return out;
}
