// Runs one kind of differential case: fast-check draws cases, our runtime and the Java oracle
// answer each, and the answers are compared exactly. A case is identical, a coded rejection (a
// construct RE2 cannot run, refused when compiled — counted apart), a known platform difference
// (named by its decision id in docs/decisions.md), or a divergence. The first divergence fails
// the property, fast-check shrinks it, and the report gives the shrunk case ready to paste into
// a unit test. With `keepGoing` every case runs and divergences are only counted (long runs).

import fc from 'fast-check';
import { TransformsError } from '../../../src/errors/index.js';
import { JavaException } from '../../../src/runtime/velocity/methods.js';
import type { JavaOracle, JavaOutcome } from './oracle.js';

/** Our answer, in the oracle's shape; errors are our codes (and a Java exception class as cause). */
export type OurOutcome =
  | { readonly ok: string }
  | { readonly list: readonly string[] }
  | { readonly error: string; readonly cause?: string; readonly message?: string }
  | { readonly rejected: string };

export type Verdict =
  | { readonly status: 'identical' | 'rejected' | 'divergent' }
  | { readonly status: 'known'; readonly decision: string };

export interface Kind<C> {
  readonly name: string;
  readonly arbitrary: fc.Arbitrary<C>;
  java(oracle: JavaOracle, c: C): Promise<JavaOutcome>;
  ours(c: C): OurOutcome;
  /** Java exception classes and the codes our runtime raises for them. */
  sameError(javaClass: string, javaCause: string | undefined, ours: { error: string; cause?: string }): boolean;
  /** A known platform difference that explains this divergent case, by decision id. */
  known?(c: C, java: JavaOutcome, ours: OurOutcome): string | undefined;
  /** A unit test pinning Java's answer for this case. */
  unitTest(c: C, java: JavaOutcome): string;
}

export interface Summary {
  kind: string;
  runs: number;
  identical: number;
  rejected: number;
  known: Record<string, number>;
  divergent: number;
  seed: number;
  /** Shrunk first divergence (or the first few, unshrunk, with keepGoing). */
  reports: string[];
}

/** Run a thunk the way the engine would: a coded error is an outcome, anything else is a crash. */
export function capture(run: () => string | readonly string[], rejectCodes: readonly string[] = []): OurOutcome {
  try {
    const v = run();
    return typeof v === 'string' ? { ok: v } : { list: [...v] };
  } catch (e) {
    if (e instanceof TransformsError) {
      if (rejectCodes.includes(e.code)) return { rejected: e.code };
      let cause: unknown = e.cause;
      while (cause instanceof TransformsError) cause = cause.cause;
      return cause instanceof JavaException ? { error: e.code, cause: cause.javaClass, message: e.message } : { error: e.code, message: e.message };
    }
    return { error: `CRASH ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}` };
  }
}

export function judge<C>(kind: Kind<C>, c: C, java: JavaOutcome, ours: OurOutcome): Verdict {
  if ('rejected' in ours) return { status: 'rejected' };
  if ('ok' in java && 'ok' in ours && java.ok === ours.ok) return { status: 'identical' };
  if ('list' in java && 'list' in ours && JSON.stringify(java.list) === JSON.stringify(ours.list)) return { status: 'identical' };
  if ('error' in java && 'error' in ours && kind.sameError(java.error, java.cause, ours)) return { status: 'identical' };
  const decision = kind.known?.(c, java, ours);
  return decision ? { status: 'known', decision } : { status: 'divergent' };
}

export function describeOutcome(o: JavaOutcome | OurOutcome): string {
  if ('ok' in o) return JSON.stringify(o.ok);
  if ('list' in o) return JSON.stringify(o.list);
  if ('rejected' in o) return `rejected ${o.rejected}`;
  return `throws ${o.error}${o.cause ? ` (cause ${o.cause})` : ''}`;
}

function report<C>(kind: Kind<C>, c: C, java: JavaOutcome, ours: OurOutcome, shrunk: boolean): string {
  return [
    `${kind.name}: ${shrunk ? 'shrunk ' : ''}divergence`,
    `  case: ${JSON.stringify(c)}`,
    `  Java: ${describeOutcome(java)}`,
    `  ours: ${describeOutcome(ours)}`,
    '  unit test:',
    kind.unitTest(c, java).replace(/^/gm, '    '),
  ].join('\n');
}

export async function runKind<C>(kind: Kind<C>, oracle: JavaOracle, options: { runs: number; seed: number; keepGoing?: boolean }): Promise<Summary> {
  const summary: Summary = { kind: kind.name, runs: 0, identical: 0, rejected: 0, known: {}, divergent: 0, seed: options.seed, reports: [] };
  let counting = true;
  const property = fc.asyncProperty(kind.arbitrary, async (c) => {
    const ours = kind.ours(c);
    const java = await kind.java(oracle, c);
    const verdict = judge(kind, c, java, ours);
    if (counting) {
      summary.runs++;
      if (verdict.status === 'known') summary.known[verdict.decision] = (summary.known[verdict.decision] ?? 0) + 1;
      else if (verdict.status !== 'divergent') summary[verdict.status]++;
      else {
        summary.divergent++;
        if (options.keepGoing && summary.reports.length < 5) summary.reports.push(report(kind, c, java, ours, false));
      }
    }
    if (verdict.status !== 'divergent' || options.keepGoing) return true;
    counting = false;
    return false;
  });
  const result = await fc.check(property, { numRuns: options.runs, seed: options.seed });
  if (result.failed && result.counterexample) {
    const [c] = result.counterexample;
    if (result.errorInstance) summary.reports.push(`${kind.name}: ${String(result.errorInstance)}`);
    summary.reports.push(report(kind, c, await kind.java(oracle, c), kind.ours(c), true));
  }
  return summary;
}
