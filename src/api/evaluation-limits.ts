// The evaluation limits of the server's transform endpoints (identity preview, transform
// validation): stricter than the library's defaults, so that one request spends at most about
// 100 ms of the event loop and a few megabytes of memory on an evaluation, whatever its
// transforms do. docs/limits.md lists them; docs/decisions.md says why budgets rather than a
// worker thread.

import type { Limits } from '../engine/types.js';

export const SERVER_EVALUATION_LIMITS: Readonly<Partial<Limits>> = Object.freeze({
  maxTime: 100,
  maxIterations: 100_000,
  maxStringLength: 100_000,
  maxCollectionSize: 10_000,
  maxAllocation: 5_000_000,
  maxOutputLength: 100_000,
  maxUsernameCandidates: 200,
  maxTemplateTokens: 20_000,
});
