import type { Kind } from '../harness.js';
export const dateKind = undefined as unknown as Kind<unknown>;
