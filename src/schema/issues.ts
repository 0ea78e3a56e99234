// A validation finding: data with a stable code and a JSON Pointer (zod-style issues).

export type Severity = 'error' | 'warning';

export interface ValidationIssue {
  severity: Severity;
  code: string;
  message: string;
  /** JSON Pointer into the transform ('' is the root). */
  path: string;
}

export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}
