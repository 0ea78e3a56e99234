import type { Kind } from '../harness.js';
export const stringKind = undefined as unknown as Kind<unknown>;
