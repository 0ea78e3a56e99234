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
  VERIFY_PREVIEW_REFUSED: {
    status: 502,
    description: "The tenant refused an identity preview (verify --preview) with a 4xx: a mapping the preview does not accept (it takes accountAttribute, reference and rule, referencing saved transforms), a token without the right to read identity profiles, an identity gone. details.status and details.identityId say which; the previews stop, the report keeps what was previewed (report.preview.error) and the CLI exits 2.",
  },
  VERIFY_PREVIEW_RESPONSE: {
    status: 502,
    description: "The tenant answered an identity preview in a shape not the platform's IdentityPreviewResponse (no previewAttributes list, an attribute without a name). details.identityId names the identity; the previews stop as for VERIFY_PREVIEW_REFUSED.",
  },
  VERIFY_CASES_WRITE: {
    status: 500,
    description: 'verify --cases could not write its case file (a directory that does not exist, no permission, a full disk); details.file names it. The file is written whole or not at all; the report has been written before.',
  },
} as const satisfies Record<string, ErrorDefinition>;
