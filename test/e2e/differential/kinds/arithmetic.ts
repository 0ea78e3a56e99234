import type { Kind } from '../harness.js';
export const arithmeticKind = undefined as unknown as Kind<unknown>; export const doubleKind = arithmeticKind;
