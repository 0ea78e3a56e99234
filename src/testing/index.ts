// The public sub-path `identity-transforms/testing`: deterministic synthetic tenants in the fixture
// format, and a property-testing kit — fast-check arbitraries shaped like a fixture tenant,
// arbitrary valid transforms, and helpers for vitest (or any runner).

export {
  generateIdentities,
  generateSources,
  writeTenant,
  specialCases,
  SOURCE_IDS,
  asciiFold,
  MAX_IDENTITIES,
} from './generator/index.js';
export type { TenantOptions, WriteTenantOptions, TenantSummary, GeneratedIdentity } from './generator/index.js';

export { fixtureShape, defaultShape } from './shape.js';
export type { AttributeShape, ShapeInput, SourceShape, StringFormat, TenantRecords, TenantShape, ValueKind } from './shape.js';
export { arbitraryAccount, arbitraryIdentity, arbitrarySample, arbitrarySource, arbitraryTenant, fixtureSamples } from './arbitraries.js';
export type { AccountArbitraryOptions, GeneratedTenant, IdentitySample, SampleArbitraryOptions, TenantArbitraryOptions } from './arbitraries.js';
export { arbitraryAwkwardText, arbitraryFirstName, arbitraryLastName, arbitraryPersonName } from './values.js';
export type { PersonName } from './values.js';
export { arbitraryTransform } from './transforms.js';
export type { TransformArbitraryOptions } from './transforms.js';
export { createIssuedNames } from './issued-names.js';
export type { IssuedNames } from './issued-names.js';
export { createSampleEngine, SAMPLE_NOW } from './sample-engine.js';
export type { Outcome, SampleEngine, SampleEngineOptions, SampleEvaluateOptions } from './sample-engine.js';
export { checkTransform } from './check.js';
export type { CheckSample, CheckTransformOptions, TransformProperty } from './check.js';
export { COUNTEREXAMPLE_HEADING, TransformPropertyError } from './counterexample.js';
export type { FixtureDocument, RunFailure } from './counterexample.js';
export { FixtureIdentitiesError, forEachFixtureIdentity } from './for-each.js';
export type { FixtureIdentityContext, ForEachFixtureIdentityOptions, IdentityFailure } from './for-each.js';
