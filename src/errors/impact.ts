import type { ErrorDefinition } from './types.js';

// Impact analysis (`impact`, impact()). Prefix IMPACT_. The CLI reports an option or a version it
// cannot read as a usage error (exit 2).
export const impactErrors = {
  IMPACT_OPTION_INVALID: { status: 400, description: 'An option of impact() is unknown or invalid (base, head, profile, fail-on, examples, format).' },
  IMPACT_VERSION: { status: 400, description: 'A version of the transforms (a directory or git:<ref>) cannot be read: missing, not laid out as a fixture tenant, a document that is not JSON, or a git error.' },
  IMPACT_TENANT_CHANGED: { status: 409, description: 'The tenant\'s identities changed while an impact run read them: its passes (one per group of attributes, each reading the tenant on its own) read different identities or in another order — an identity created, deleted or renamed meanwhile, identities.json rewritten. The message names the identities where they parted; run it again.' },
} as const satisfies Record<string, ErrorDefinition>;
