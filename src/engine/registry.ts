// The engine-owned operation registry: built once from the specs it is given (the built-ins
// plus the user's), then frozen. There is no module-level mutable registry.

import { codedError } from '../errors/index.js';
import type { OperationSpec } from './types.js';

export type Registry = ReadonlyMap<string, OperationSpec>;

export function createRegistry(specs: readonly OperationSpec[]): Registry {
  const map = new Map<string, OperationSpec>();
  for (const spec of specs) {
    if (map.has(spec.type)) {
      throw codedError('ENGINE_DUPLICATE_OPERATION', `operation type "${spec.type}" is registered twice`);
    }
    map.set(spec.type, Object.freeze(spec));
  }
  return map;
}
