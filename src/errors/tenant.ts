import type { ErrorDefinition } from './types.js';

// The tenant-backed providers (evaluation against a platform tenant over its API).
// Prefix TENANT_. The HTTP status is what the tenant answered when there is one.
export const tenantErrors = {
  TENANT_OPTIONS: { status: 400, description: 'An option of createTenantProviders() is unknown or invalid (base URL, a URL holding user:password@, credentials, concurrency, retries, page size, limits).' },
  TENANT_AUTH: { status: 401, description: 'The token endpoint refused the client credentials (invalid_client, a legacy client id, a disabled client).' },
  TENANT_HTTP: { status: 502, description: 'The tenant answered a request with an error status: a 4xx other than 429, or a 429 or 5xx after every retry. The status, method, path and the platform error text are in the message and details.' },
  TENANT_NETWORK: { status: 502, description: 'The tenant could not be reached (connection refused or reset, DNS failure, no complete answer within timeoutMs) after every retry, or a request could not be built (not retried; the message quotes no header value).' },
  TENANT_RESPONSE: { status: 502, description: 'The tenant answered with a body of the wrong shape (not JSON, not an array where a collection was expected, an element of a listing that is not a JSON object (`details.pointer` says which), an identity without a string id and name, a token response without access_token or with one that is not a bearer token, a search cursor that is not a string or number or that comes round again, a search that hands out one hit twice in a row).' },
  TENANT_LIMIT: { status: 502, description: 'The tenant answered more than the client reads: a body over maxBodyBytes, a listing or search walk over maxRecords. details.limit names the limit, details.max its value.' },
  TENANT_REDIRECT: { status: 502, description: 'The tenant answered a request (the token request included) with a redirect. No redirect is followed, so that neither the client secret nor a token is sent to another URL; details.location is the origin it pointed to.' },
} as const satisfies Record<string, ErrorDefinition>;
