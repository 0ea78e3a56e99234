// How this engine computed the first example of each difference group (engine.explain, the
// tree `evaluate --explain` prints): the example identities are read again from the fixtures,
// one pass that keeps only them, and explained with the run's profile and clock.

import type { RuleFunction } from '../engine/types.js';
import { isTransformsError } from '../errors/index.js';
import type { IdentityProfile } from '../providers/types.js';
import { createBatchEvaluator } from '../refresh/evaluator.js';
import type { ExampleRecord } from './cases.js';
import type { ExplainedGroup } from './report.js';

export function explainGroups(fixtures: string, profile: IdentityProfile, groups: ReadonlyMap<string, ExplainedGroup[]>, examples: ReadonlyMap<string, ExampleRecord>, options: { now?: Date | string; rules?: Record<string, RuleFunction> }): void {
  const now = options.now === undefined ? undefined : new Date(options.now).toISOString();
  const evaluator = createBatchEvaluator({ fixtures, profile, ...(now !== undefined ? { now } : {}) }, options.rules);
  const mappings = new Map(profile.identityAttributeConfig.attributeTransforms.map((m) => [m.identityAttributeName, m]));
  for (const [attribute, list] of groups) {
    for (const group of list) {
      const first = group.examples[0];
      const record = first === undefined ? undefined : examples.get(first.identityId);
      if (record === undefined) continue;
      const { identity, accounts, manager } = record;
      const mapping = mappings.get(attribute)!;
      const previous = identity.attributes[attribute];
      const variables = { attributeDefinition: { name: attribute }, ...(previous !== undefined && previous !== null ? { oldValue: previous } : {}) };
      try {
        // A mapping's definition has no name of its own: the attribute's stands in for it.
        const explanation = evaluator.explain({ name: attribute, ...mapping.transformDefinition }, identity, accounts, manager, variables);
        group.explained = { identityId: identity.id, ...('error' in explanation && explanation.error ? { error: { code: explanation.error.code, message: explanation.error.message } } : { value: explanation.value }), trace: explanation.trace };
      } catch (error) {
        if (!isTransformsError(error)) throw error;
      }
    }
  }
}
