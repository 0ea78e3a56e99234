import type { ErrorDefinition } from './types.js';

// The HTTP adapter. Prefix API_. Statuses follow the platform specification.
export const apiErrors: Record<string, ErrorDefinition> = {
  API_BAD_REQUEST: { status: 400, description: 'The request is malformed or violates the route schema.' },
  API_UNAUTHORIZED: { status: 401, description: 'No, malformed, expired or tampered bearer token.' },
  API_FORBIDDEN: { status: 403, description: 'The token is valid but lacks the right for this call.' },
  API_NOT_FOUND: { status: 404, description: 'The resource or route does not exist.' },
  API_CONFLICT: { status: 400, description: 'The change conflicts with the state of the store (a transform still used by a profile, a duplicate name).' },
  API_UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The Content-Type is not the one the endpoint requires.' },
  API_TOO_MANY_REQUESTS: { status: 429, description: 'Rate limit exceeded.' },
  API_INTERNAL: { status: 500, description: 'An unexpected server error; the trackingId identifies the log line.' },
};
