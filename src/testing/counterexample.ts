// How a failed property is reported: the shrunk identity and its accounts as a
// document in the fixture format — the identity goes into identities.json, the accounts into
// accounts.json — printed last in the message so that it can be copied whole, with the seed and
// path that replay the run.

import type { Value } from '../engine/types.js';
import type { Account, Identity, TransformDocument } from '../providers/types.js';
import type { Outcome } from './sample-engine.js';

/** A counter-example as a fixture document. */
export interface FixtureDocument {
  identity: Identity;
  accounts: Account[];
}

/** Why one run failed. */
export type RunFailure =
  | { readonly kind: 'false'; readonly value: Value }
  | { readonly kind: 'property-threw'; readonly value: Value; readonly error: unknown }
  | { readonly kind: 'coded'; readonly outcome: Extract<Outcome, { kind: 'error' }> }
  | { readonly kind: 'exception'; readonly error: unknown };

/** The marker line after which the message holds the counter-example's JSON, and nothing else. */
export const COUNTEREXAMPLE_HEADING = 'Counter-example (paste "identity" into identities.json and "accounts" into accounts.json):';

/** A copy in the fixture format, keys in the order of the bundled fixtures. */
export function fixtureDocument(identity: Identity, accounts: readonly Account[]): FixtureDocument {
  return JSON.parse(JSON.stringify({ identity, accounts })) as FixtureDocument;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export function describeFailure(failure: RunFailure): string {
  switch (failure.kind) {
    case 'false': return `the property returned false for the value ${JSON.stringify(failure.value)}`;
    case 'property-threw': return `the property threw for the value ${JSON.stringify(failure.value)}: ${describeError(failure.error)}`;
    case 'coded': {
      const { phase, error } = failure.outcome;
      return `${phase === 'compile' ? 'compiling' : 'evaluation'} failed with ${error.code} at "${error.path ?? ''}": ${error.message}`;
    }
    case 'exception':
      // Evaluation must give a value or a TransformsError; anything else is an engine bug.
      return `evaluation threw an exception that is not a TransformsError (an engine bug): ${describeError(failure.error)}`;
  }
}

/** A failed checkTransform: the message is the report; the fields are the same, as data. */
export class TransformPropertyError extends Error {
  constructor(
    message: string,
    readonly counterexample: FixtureDocument,
    readonly transform: TransformDocument,
    readonly failure: RunFailure,
    readonly seed: number,
    readonly path: string,
  ) {
    const cause = 'error' in failure ? failure.error : failure.kind === 'coded' ? failure.outcome.error : undefined;
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'TransformPropertyError';
  }
}

export interface ReportParts {
  readonly transform: TransformDocument;
  /** Whether the transform was generated (then it is printed: it is part of the counter-example). */
  readonly generatedTransform: boolean;
  readonly document: FixtureDocument;
  readonly failure: RunFailure;
  readonly randomSeed: number;
  readonly seed: number;
  readonly path: string;
  readonly numRuns: number;
  readonly numShrinks: number;
}

export function formatReport(parts: ReportParts): string {
  const name = typeof parts.transform.name === 'string' ? `transform "${parts.transform.name}"` : `a ${parts.transform.type} transform`;
  const lines = [
    `checkTransform: the property failed for ${name} after ${parts.numRuns} run(s) and ${parts.numShrinks} shrink(s).`,
    `Failure: ${describeFailure(parts.failure)}`,
    `Replay: checkTransform(transform, { …, seed: ${parts.seed}, path: ${JSON.stringify(parts.path)} }) — the engine's random source had seed ${parts.randomSeed}.`,
  ];
  if (parts.generatedTransform) lines.push(`Transform: ${JSON.stringify(parts.transform)}`);
  lines.push(COUNTEREXAMPLE_HEADING, JSON.stringify(parts.document, null, 2));
  return lines.join('\n');
}
