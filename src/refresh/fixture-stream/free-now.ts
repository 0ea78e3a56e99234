// Freeing buffers now. An ArrayBuffer's memory is off the V8 heap; once its wrapper has been
// promoted to the old generation, dropping it frees the memory only at the thread's next full
// collection, which a thread that allocates little on its heap (the main thread during a
// refresh, a worker after the pre-pass) reaches late: tens of MB wait meanwhile
// (docs/bench-refresh.md). Moved by transfer to a clone dropped at once, the memory goes with
// the clone's young wrappers at the next scavenge.

/**
 * Free the memory of views that nothing will read again. Only a view that spans its whole
 * buffer is freed: a smaller one may share it (Node's pool of small Buffers) and is left to the
 * garbage collector. Each freed view is left empty.
 */
export function freeNow(views: readonly ArrayBufferView[]): void {
  const buffers = new Set<ArrayBuffer>();
  for (const view of views) {
    const { buffer } = view;
    if (buffer instanceof ArrayBuffer && buffer.byteLength > 0 && view.byteOffset === 0 && view.byteLength === buffer.byteLength) buffers.add(buffer);
  }
  if (buffers.size > 0) structuredClone([...buffers], { transfer: [...buffers] });
}

let detachingExpected = false;

/**
 * Have this thread's V8 expect detached buffers from now on, before its hot code is optimised.
 * Until a buffer of an isolate is first detached, V8 compiles typed-array reads without a check
 * for it; the first detach (a transfer: a batch plan posted to a worker, NDJSON posted back, a
 * scanned range's runs, freeNow) throws all that optimised code away, and it is compiled again.
 * Every thread of a refresh with workers transfers buffers, so each did so once per hot function
 * of the pre-pass (the JSON reader's scan, the walk, the runs' decoding): in 2-worker refreshes of
 * 100,000 identities 21–24 deoptimisations for "code dependencies" and as many compilations on
 * V8's helper threads, against 2 with one buffer detached as each thread starts
 * (docs/bench-refresh.md).
 */
export function expectDetachedBuffers(): void {
  if (detachingExpected) return;
  detachingExpected = true;
  const buffer = new ArrayBuffer(8);
  structuredClone(buffer, { transfer: [buffer] });
}
