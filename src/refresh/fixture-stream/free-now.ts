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
