// The report of a verify run (docs/verify.md "The report"): what was compared, per attribute
// how many agree, differ or are not comparable and why, and the differences in groups.

import type { TraceNode } from '../engine/trace.js';
import type { AttributeReason, ComparedBatch, VerifyKind } from '../refresh/stored-comparison.js';
import type { DifferenceGroup } from './groups.js';
import type { PreviewReport } from './preview.js';

export interface AttributeReport {
  attribute: string;
  /** Why the attribute is never compared, when it is not (the profile reaches a rule, usernameGenerator, a random value or the clock). */
  reason?: AttributeReason;
  compared: number;
  agree: number;
  differ: number;
  notComparable: number;
  /** Not comparable (and differ), by kind. */
  byKind: Partial<Record<VerifyKind, number>>;
  /** The differences (kind `differ`), grouped, largest first. */
  groups: ExplainedGroup[];
}

export interface ExplainedGroup extends DifferenceGroup {
  /** With the explain option: how this engine computed the first example. */
  explained?: { identityId: string; value?: unknown; error?: { code: string; message: string }; trace: TraceNode };
  /** With --preview: what the platform's preview computes now for the first example, and ours (equal: the stored value was old). */
  previewed?: { identityId: string; platform: string | null; ours: string | null };
}

export interface VerifyReport {
  /** The profile verified (its name). */
  profile: string;
  /** The fixtures directory or the tenant's URL. */
  tenant: string;
  /** The evaluation time, when fixed (`now`); else the system clock was used. */
  now: string | null;
  identities: {
    /** Identities evaluated (of the shard). */
    evaluated: number;
    /** Compared: stored attributes, computed by this profile. */
    compared: number;
    missing: number;
    stale: number;
    otherProfile: number;
  };
  totals: { compared: number; agree: number; differ: number; notComparable: number };
  /** Our evaluation errors, by code (an error is compared as null). */
  errorsByCode: Record<string, number>;
  attributes: AttributeReport[];
  /** False when the run was stopped before its end. */
  complete: boolean;
  /** With --preview: the platform's fresh values for some identities against ours. */
  preview?: PreviewReport;
}

export interface ReportFacts {
  profile: string;
  tenant: string;
  now: string | null;
  evaluated: number;
  errorsByCode: Record<string, number>;
  complete: boolean;
}

/** The report of a run from its comparison and groups. */
export function buildReport(facts: ReportFacts, order: readonly string[], reasons: Record<string, AttributeReason>, total: ComparedBatch, groups: (attribute: string) => ExplainedGroup[]): VerifyReport {
  const totals = { compared: 0, agree: 0, differ: 0, notComparable: 0 };
  const attributes = order.map((attribute): AttributeReport => {
    const t = total.attributes[attribute] ?? { compared: 0, agree: 0, differ: 0, notComparable: 0, byKind: {} };
    totals.compared += t.compared;
    totals.agree += t.agree;
    totals.differ += t.differ;
    totals.notComparable += t.notComparable;
    const reason = reasons[attribute];
    return { attribute, ...(reason !== undefined ? { reason } : {}), compared: t.compared, agree: t.agree, differ: t.differ, notComparable: t.notComparable, byKind: { ...t.byKind }, groups: groups(attribute) };
  });
  return {
    profile: facts.profile,
    tenant: facts.tenant,
    now: facts.now,
    identities: { evaluated: facts.evaluated, compared: total.identities, missing: total.missing, stale: total.stale, otherProfile: total.otherProfile },
    totals,
    errorsByCode: facts.errorsByCode,
    attributes,
    complete: facts.complete,
  };
}

/** Whether the report passes `--fail-on`: `differences` fails when any attribute differs. */
export function verifyPasses(report: VerifyReport, failOn: 'differences' | 'none'): boolean {
  return failOn === 'none' || report.totals.differ === 0;
}
