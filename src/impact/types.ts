// The options and the report of impact analysis (run.ts runs it; report.ts formats it).

import type { Value } from '../engine/types.js';
import type { Limits } from '../engine/types.js';
import type { TraceNode } from '../engine/trace.js';
import { type TenantProviderOptions, type TenantProviders } from '../providers/tenant/index.js';
import type { Progress } from '../refresh/progress.js';
import type { Shard } from '../refresh/shard.js';
import { type AttributeReason, type TransformChange } from './plan.js';
import { type TransformVersion } from './version.js';

export interface ImpactOptions {
  /** The version before the change: a directory or `git:<ref>[:<path>]`, or a version already read. */
  base: string | TransformVersion;
  /** The version after the change. Default: the working directory (`.`). */
  head?: string | TransformVersion;
  /** The tenant's records: a fixtures directory … */
  fixtures?: string;
  /** … or a platform tenant (credentials or tenant providers). */
  tenant?: TenantProviderOptions | TenantProviders;
  /** Only this identity profile (name, id or file name); default: every profile a change reaches. */
  profile?: string;
  /** Example identities kept per attribute and kind of difference. Default 5. */
  examples?: number;
  /** As refresh(): worker threads and their heap limit, batch size, shard, clock, limits. */
  workers?: number | 'auto';
  workerHeapMb?: number;
  batchSize?: number;
  shard?: Shard | string | null;
  now?: Date | string;
  limits?: Partial<Limits>;
  /**
   * Attach to every example the explanation of both evaluations (engine.explain). Fixtures
   * only: the tenant is loaded in memory once the pass is over, to explain the examples.
   */
  explain?: boolean;
  /** Where relative directories and git are resolved. Default: process.cwd(). */
  cwd?: string;
  onProgress?: (progress: Progress & { profile: string }) => void;
}

/** What an evaluation gave: a value, or a coded error. */
export type Outcome = { value: Value } | { error: { code: string; message: string; path: string } };

export type DifferenceKind = 'changed' | 'becameNull' | 'stoppedBeingNull' | 'newError' | 'errorFixed' | 'errorChanged';

/** One identity whose attribute would compute differently. `before` is null for an attribute the change adds, `after` for one it removes. */
export interface IdentityDifference {
  profile: string;
  attribute: string;
  identityId: string;
  kind: DifferenceKind;
  before: Outcome | null;
  after: Outcome | null;
}

export interface Example {
  identityId: string;
  /** The identity's name, when the tenant has it. */
  identityName?: string;
  before: Outcome | null;
  after: Outcome | null;
  /** With the explain option: how each version computed its outcome. */
  explained?: { before?: TraceNode; after?: TraceNode };
}

export interface AttributeImpact {
  attribute: string;
  /** Why it was evaluated: its mapping changed, or it reaches a changed transform. */
  reasons: AttributeReason[];
  /** Reaches a usernameGenerator: each version's values were generated in that version's own run. */
  dependsOnIssuedValues: boolean;
  identities: number;
  unchanged: number;
  /** Values that differ (including those that became or stopped being null). */
  changed: number;
  becameNull: number;
  stoppedBeingNull: number;
  newErrors: number;
  errorsFixed: number;
  /** Failing in both versions, with another code or message. */
  errorsChanged: number;
  examples: Partial<Record<DifferenceKind, Example[]>>;
}

export interface ProfileImpact {
  profile: string;
  /** The profile file of head (or base, for a profile the change removes); absent when the tenant's profile was used. */
  file?: string;
  attributes: AttributeImpact[];
}

export interface ImpactReport {
  /** The report's format version (docs/impact.md describes it). */
  version: 1;
  base: string;
  head: string;
  /** fixtures directory or tenant URL. */
  tenant: string;
  transforms: TransformChange[];
  profiles: ProfileImpact[];
  totals: { identities: number; attributes: number; changed: number; newErrors: number; errorsFixed: number };
  elapsedMs: number;
}
