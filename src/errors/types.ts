/** One row of the error catalogue. */
export interface ErrorDefinition {
  /** What the error means, for docs/errors.md. */
  description: string;
  /** HTTP status when the error crosses the API (defaults to 500 for internal failures). */
  status: number;
}
