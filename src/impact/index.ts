// Impact analysis: what a change to transforms or identity profiles would do to a tenant's
// identities, before it is saved. The two versions are compared without evaluation first
// (plan.ts), then only the attributes a change can reach are evaluated, both versions side by
// side in one refresh pass over the tenant (combine.ts), and every identity's two outcomes are
// compared.

export { readVersion, type TransformVersion } from './version.js';
export { diffTransforms, planProfile, referencesOf, type AttributePlan, type AttributeReason, type TransformChange } from './plan.js';
export { formatImpact, type ImpactFormat } from './report.js';
export { compareOutcomes, impact, impactDifferences, impactPasses } from './run.js';
export type { AttributeImpact, DifferenceKind, Example, IdentityDifference, ImpactOptions, ImpactReport, Outcome, ProfileImpact } from './types.js';
