import type { Kind } from '../harness.js';
export const velocityKind = undefined as unknown as Kind<unknown>;
