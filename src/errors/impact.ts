import type { ErrorDefinition } from './types.js';

// Impact analysis (`impact`, impact()). Prefix IMPACT_. The CLI reports them as usage errors (exit 2).
export const impactErrors = {
  IMPACT_OPTION_INVALID: { status: 400, description: 'An option of impact() is unknown or invalid (base, head, profile, fail-on, examples, format).' },
  IMPACT_VERSION: { status: 400, description: 'A version of the transforms (a directory or git:<ref>) cannot be read: missing, not laid out as a fixture tenant, a document that is not JSON, or a git error.' },
} as const satisfies Record<string, ErrorDefinition>;
