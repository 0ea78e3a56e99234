// The public sub-path `identity-transforms/testing`: deterministic synthetic tenants in the
// fixture format, for users' own tests and benchmarks.

export {
  generateIdentities,
  generateSources,
  writeTenant,
  specialCases,
  SOURCE_IDS,
  asciiFold,
  MAX_IDENTITIES,
} from './tenant-generator.js';
export type { TenantOptions, WriteTenantOptions, TenantSummary, GeneratedIdentity } from './tenant-generator.js';
