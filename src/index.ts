// The public API of identity-transforms. Every export is named here; the optional parts live
// under sub-paths: identity-transforms/filter, identity-transforms/api, identity-transforms/testing.

export { createEngine } from './engine/engine.js';
export type { CompileOptions, Engine, EvaluationContext } from './engine/engine.js';
export type { EngineOptions } from './engine/options.js';
export { DEFAULT_LIMITS } from './engine/options.js';
export type {
  CompileContext,
  CompiledTransform,
  Evaluation,
  Evaluator,
  Limits,
  OperationSpec,
  RuleFunction,
  StringAttribute,
  Value,
} from './engine/types.js';
export type { MaybePromise } from './providers/maybe.js';
export type { CacheStats } from './engine/caches.js';

export { builtinOperations, PLATFORM_TYPES } from './operations/index.js';
export { attributesSchema, defineOperation, ref as schemaRef } from './operations/spec.js';

export { validateTransform, validateTransformSet, validateDocument, validateProfile, MAX_TRANSFORM_BYTES } from './engine/validate.js';
export type { ValidateOptions, SetEntry, SetResult, DocumentResult, DocumentKind } from './engine/validate.js';
export { documentKind } from './schema/documents.js';
export type { ValidationIssue, ValidationResult, Severity } from './schema/issues.js';
export { buildTransformSchema, SCHEMA_ID } from './schema/build.js';

export { loadFixtures } from './providers/fixtures.js';
export { createMemoryProviders } from './providers/memory.js';
export { TenantNames, type NameProvider, type AttributeKnown } from './providers/names.js';
export { resolveSourceRef } from './providers/sources.js';
export type { SourceLookup } from './providers/sources.js';
export { createFixtureUniqueness, FixtureUniquenessBuilder } from './providers/uniqueness.js';
export type { FixtureUniqueness, FixtureUniquenessOptions } from './providers/uniqueness.js';
export { loadRulesModule } from './engine/rules-module.js';
export { createTenantProviders, TenantProviders, TenantClient, pushDownAccountFilter } from './providers/tenant/index.js';
export type { TenantProviderOptions, TenantStats, TenantClientOptions, TenantClientStats } from './providers/tenant/index.js';
export type { Fixtures } from './providers/fixtures.js';
export type {
  Account,
  AccountProvider,
  AccountQuery,
  Identity,
  IdentityGraph,
  IdentityProfile,
  IdentityProvider,
  ProfileMapping,
  TransformDefinition,
  Providers,
  Source,
  SourceProvider,
  SourceRef,
  TransformDocument,
  TransformProvider,
  UniquenessProvider,
} from './providers/types.js';

export { snapshotTenant, SNAPSHOT_PARTS, createPseudonymizer, ATTRIBUTE_KINDS as PSEUDONYMIZED_ATTRIBUTES, snapshotFileNames } from './snapshot/index.js';
export type { SnapshotOptions, SnapshotProgress, SnapshotSummary, SnapshotPart, SnapshotManifest, Pseudonymizer } from './snapshot/index.js';

export { TransformsError, Failure, ERROR_CATALOGUE, isCodedFailure, isErrorCode, isTransformsError, reported } from './errors/index.js';
export type { ErrorCode, ErrorDefinition } from './errors/index.js';

export { refresh, refreshToStream, createRefreshRunner, RefreshRunner, TenantRefreshRunner, DEFAULT_BATCH_SIZE, formatSummary, parseShard, shardOf } from './refresh/index.js';
export type { RefreshOptions, RefreshSummary, CacheSummary, RefreshJob, RefreshRun, BatchOutput, IdentityRefreshResult, Shard } from './refresh/index.js';
export type { ProfileResult, ProfileError, ProfileOptions, ProfileLike } from './engine/profile.js';

export { impact, impactDifferences, impactPasses, compareOutcomes, formatImpact, readVersion, diffTransforms, planProfile, referencesOf } from './impact/index.js';

export { verify, verifyReport, verifyPasses, formatVerify, verifyLineJson, previewLineJson, runCase, editSignature, comparableAttributes, VERIFY_KINDS } from './verify/index.js';
export type { VerifyOptions, VerifyJob, VerifyReport, VerifyFormat, VerifyLine, VerifyKind, AttributeReport, ExplainedGroup, DifferenceGroup, VerifyExample, AttributeReason as VerifyReason, PreviewReport, PreviewLine, CaseFile, VerifyCase, CaseInputs } from './verify/index.js';
export type {
  ImpactOptions,
  ImpactReport,
  ImpactFormat,
  ProfileImpact,
  AttributeImpact,
  IdentityDifference,
  DifferenceKind,
  Outcome,
  Example,
  TransformVersion,
  TransformChange,
  AttributePlan,
  AttributeReason,
} from './impact/index.js';
