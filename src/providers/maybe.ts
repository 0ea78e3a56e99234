// Values that may be a promise. Providers may be asynchronous, but refresh jobs need the
// synchronous path to stay synchronous: these helpers chain without allocating a promise
// when the value is already there.

export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T = unknown>(value: unknown): value is Promise<T> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/** Apply `fn` to `value`, synchronously when `value` is not a promise. */
export function andThen<T, R>(value: MaybePromise<T>, fn: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isPromise<T>(value) ? value.then(fn) : fn(value);
}

/** Run `fn`; route a synchronous throw or a rejection to `onError`. */
export function attempt<R>(fn: () => MaybePromise<R>, onError: (error: unknown) => MaybePromise<R>): MaybePromise<R> {
  let result: MaybePromise<R>;
  try {
    result = fn();
  } catch (error) {
    return onError(error);
  }
  return isPromise<R>(result) ? result.then(undefined, onError) : result;
}

/** Resolve every element; stays synchronous when every element is. */
export function all<T>(values: readonly MaybePromise<T>[]): MaybePromise<T[]> {
  for (const v of values) if (isPromise(v)) return Promise.all(values);
  return values as T[];
}

/**
 * Evaluate `count` steps in order (each may be asynchronous), stopping early when `step`
 * returns `{ done: true }`. Used by lazy operations such as firstValid.
 */
export function sequence<R>(
  count: number,
  step: (index: number) => MaybePromise<{ done: true; value: R } | { done: false }>,
  fallback: () => R,
): MaybePromise<R> {
  const run = (start: number): MaybePromise<R> => {
    for (let i = start; i < count; i++) {
      const r = step(i);
      if (isPromise<{ done: true; value: R } | { done: false }>(r)) {
        return r.then((res) => (res.done ? res.value : run(i + 1)));
      }
      if (r.done) return r.value;
    }
    return fallback();
  };
  return run(0);
}
