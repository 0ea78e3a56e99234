// A validation finding: data with a stable code and a JSON Pointer (zod-style issues).

import type { ErrorCode } from '../errors/index.js';

export type Severity = 'error' | 'warning';

export interface ValidationIssue {
  severity: Severity;
  code: ErrorCode;
  message: string;
  /** JSON Pointer into the transform ('' is the root). */
  path: string;
}

export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}
