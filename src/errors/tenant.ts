import type { ErrorDefinition } from './types.js';

// The tenant-backed providers (evaluation against a platform tenant over its API).
// Prefix TENANT_. The HTTP status is what the tenant answered when there is one.
export const tenantErrors = {
  TENANT_OPTIONS: { status: 400, description: 'An option of createTenantProviders() is unknown or invalid (base URL, credentials, concurrency, retries, page size).' },
  TENANT_AUTH: { status: 401, description: 'The token endpoint refused the client credentials (invalid_client, a legacy client id, a disabled client).' },
  TENANT_HTTP: { status: 502, description: 'The tenant answered a request with an error status: a 4xx other than 429, or a 429 or 5xx after every retry. The status, method, path and the platform error text are in the message and details.' },
  TENANT_NETWORK: { status: 502, description: 'The tenant could not be reached (connection refused or reset, DNS failure, timeout) after every retry.' },
  TENANT_RESPONSE: { status: 502, description: 'The tenant answered with a body of the wrong shape (not JSON, not an array where a collection was expected, a token response without access_token).' },
} as const satisfies Record<string, ErrorDefinition>;
