// A validation finding: data with a stable code and a JSON Pointer (zod-style issues).

import type { ErrorCode } from '../errors/index.js';

export type Severity = 'error' | 'warning';

export interface ValidationIssue {
  severity: Severity;
  code: ErrorCode;
  message: string;
  /** JSON Pointer into the transform ('' is the root). */
  path: string;
  /** The known name closest to an unknown one (a transform type, a key), for a quick fix. */
  suggestion?: string;
}

export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}
