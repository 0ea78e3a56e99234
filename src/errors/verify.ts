import type { ErrorDefinition } from './types.js';

// Verifying a tenant's stored attributes (`verify`, verify()). Prefix VERIFY_. The CLI reports
// VERIFY_OPTION_INVALID and VERIFY_ATTRIBUTE_UNKNOWN as usage errors (exit 2).
export const verifyErrors = {
  VERIFY_OPTION_INVALID: { status: 400, description: 'An option of verify() is unknown or invalid (identity, attributes, fail-on, examples, format, explain).' },
  VERIFY_ATTRIBUTE_UNKNOWN: { status: 400, description: 'An attribute to verify is not one the identity profile computes; details.suggestion names the closest one.' },
  VERIFY_NOTHING_STORED: {
    status: 422,
    description: 'No identity of the tenant (or of the selection) has stored attributes: there is nothing to compare with. A snapshot taken with a version before stored attributes were copied, or fixtures written by hand, have none; gen-tenant --stored writes them.',
  },
} as const satisfies Record<string, ErrorDefinition>;
