// Attributes that compile to an object (a regex, a replacement, a date format): built once when
// the attribute is a constant, per evaluation (through the engine caches) when it is a template
// or a nested transform.

import { andThen, type MaybePromise } from '../../providers/maybe.js';
import type { Evaluation, StringAttribute, Value } from '../../engine/types.js';

export type Resolved<T> =
  | { readonly kind: 'constant'; readonly value: T; get(input: Value, ev: Evaluation): T }
  | { readonly kind: 'dynamic'; get(input: Value, ev: Evaluation): MaybePromise<T> };

export function resolver<T>(attribute: StringAttribute, build: (source: string) => T): Resolved<T> {
  if (attribute.kind === 'constant') {
    const value = build(attribute.value);
    return { kind: 'constant', value, get: () => value };
  }
  return {
    kind: 'dynamic',
    get: (input, ev) => andThen(attribute.evaluate(input, ev), (s) => build(s === null ? 'null' : String(s))),
  };
}
