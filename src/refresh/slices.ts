// A batch evaluated a few records at a time, each slice's NDJSON lines encoded before the next
// is evaluated: the batch's results are never all alive at once, so that a young-generation
// collection finds little to copy and less of a batch is promoted to the old generation
// (docs/bench-refresh.md, "Worker batches in slices"). Worker threads and the calling thread
// (`--workers 0`) encode their batches so.

import { addCounts, emptyCounts, type BatchEvaluator, type RefreshCounts } from './evaluator.js';
import type { NdjsonEncoder } from './ndjson-writer.js';
import { resultLine } from './ndjson-writer.js';
import type { TenantRecord } from './fixture-stream/record-reader.js';

/** Records evaluated at once within a batch. */
export const SLICE = 16;

/** `records` in arrays of up to `size`, each made as the previous one has been used. */
export function* slices<T>(records: Iterable<T>, size = SLICE): Generator<T[], void, undefined> {
  let slice: T[] = [];
  for (const record of records) {
    slice.push(record);
    if (slice.length === size) {
      yield slice;
      slice = [];
    }
  }
  if (slice.length > 0) yield slice;
}

/** Evaluate `records` in slices into `encoder`; the batch's NDJSON as UTF-8 bytes of their own, and its counts. */
export function evaluateToNdjson(evaluator: BatchEvaluator, encoder: NdjsonEncoder, records: Iterable<TenantRecord>): { bytes: Uint8Array; counts: RefreshCounts } {
  const counts = emptyCounts();
  try {
    for (const slice of slices(records)) {
      const output = evaluator.run(slice);
      for (const result of output.results) encoder.add(resultLine(result));
      addCounts(counts, output.counts);
    }
  } catch (error) {
    // The lines of the slices before the failure are not the next batch's.
    encoder.take();
    throw error;
  }
  return { bytes: encoder.take(), counts };
}
