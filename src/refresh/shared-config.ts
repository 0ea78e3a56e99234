// A run's evaluator config as its worker tasks carry it. The config holds the whole identity
// profile (and, for impact analysis, the transforms that replace the tenant's): posted as an
// object with every batch, it would be structured-cloned on the main thread and rebuilt on the
// worker 391 times per 100,000 identities, though a thread needs it only once, to build the
// run's evaluator (docs/bench-refresh.md). Serialised once (v8.serialize, the structured clone's own format) into shared
// memory, it travels by reference, and a thread deserialises it only when it builds the run.

import { deserialize, serialize } from 'node:v8';
import type { EvaluatorConfig } from './evaluator.js';

/** A config serialised into a SharedArrayBuffer: posting it copies no bytes. */
export interface SharedConfig {
  readonly bytes: Uint8Array<SharedArrayBuffer>;
}

export function shareConfig(config: EvaluatorConfig): SharedConfig {
  const data = serialize(config);
  const bytes = new Uint8Array(new SharedArrayBuffer(data.byteLength));
  bytes.set(data);
  return { bytes };
}

/** The config, deserialised from a private copy of the shared bytes. */
export function readConfig(shared: SharedConfig): EvaluatorConfig {
  return deserialize(Buffer.from(shared.bytes)) as EvaluatorConfig;
}
