import type { ErrorDefinition } from './types.js';

// The HTTP adapter. Prefix API_. Statuses follow the platform's error responses
// (https://developer.sailpoint.com/docs/api/v3/) and, for the token endpoint, RFC 6749 §5.2.
export const apiErrors = {
  API_BAD_REQUEST: { status: 400, description: 'The request is malformed or violates the route schema.' },
  API_UNAUTHORIZED: { status: 401, description: 'No, malformed, expired or tampered bearer token.' },
  API_FORBIDDEN: { status: 403, description: 'The token is valid but lacks the right for this call.' },
  API_USER_CONTEXT_REQUIRED: { status: 403, description: 'The endpoint needs a user and the token has none (a client-credentials token that is not PAT-derived).' },
  API_NOT_FOUND: { status: 404, description: 'The resource or route does not exist.' },
  API_CONFLICT: { status: 400, description: 'The change conflicts with the state of the store (a transform still used by a profile, a duplicate name).' },
  API_METHOD_NOT_ALLOWED: { status: 405, description: 'The route exists but not with this method.' },
  API_REQUEST_TIMEOUT: { status: 408, description: 'The request took too long to arrive (answered by the HTTP parser before any route runs).' },
  API_PAYLOAD_TOO_LARGE: { status: 413, description: 'The body exceeds the body size limit (1 MiB).' },
  API_URI_TOO_LONG: { status: 414, description: 'A path parameter is longer than the server reads.' },
  API_HEADERS_TOO_LARGE: { status: 431, description: 'The request headers are larger than the server accepts (answered by the HTTP parser before any route runs).' },
  API_UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The Content-Type is not the one the endpoint requires.' },
  API_TOO_MANY_REQUESTS: { status: 429, description: 'Rate limit exceeded.' },
  API_INTERNAL: { status: 500, description: 'An unexpected server error; the trackingId identifies the log line.' },
  API_PAT_LIMIT: { status: 400, description: 'The user already holds the maximum number of personal access tokens (10).' },
  API_OAUTH_INVALID_REQUEST: { status: 400, description: 'Token or authorize request: a parameter is missing, repeated with another value, or malformed (RFC 6749 invalid_request).' },
  API_OAUTH_INVALID_CLIENT: { status: 401, description: 'Unknown, disabled or legacy (dash-less) client, or a wrong client secret (RFC 6749 invalid_client).' },
  API_OAUTH_INVALID_GRANT: { status: 400, description: 'The authorization code or refresh token is unknown, expired, already used, or issued to another client or redirect URI (RFC 6749 invalid_grant).' },
  API_OAUTH_UNAUTHORIZED_CLIENT: { status: 400, description: 'The client is not allowed this grant type (RFC 6749 unauthorized_client).' },
  API_OAUTH_UNSUPPORTED_GRANT_TYPE: { status: 400, description: 'The grant type is not client_credentials, authorization_code or refresh_token (RFC 6749 unsupported_grant_type).' },
  API_OAUTH_UNSUPPORTED_RESPONSE_TYPE: { status: 400, description: 'The authorize request asks for a response type other than code (RFC 6749 unsupported_response_type).' },
  API_OAUTH_INVALID_SCOPE: { status: 400, description: 'A requested scope is unknown or exceeds the scopes of the client (RFC 6749 invalid_scope).' },
  API_OPTIONS: { status: 500, description: 'buildServer was given an unknown or invalid option.' },
  API_PREVIEW_TOO_MANY_MAPPINGS: { status: 400, description: 'An identity preview holds more mappings (attributeTransforms) than the server evaluates in one request (500).' },
  API_PREVIEW_DUPLICATE_ATTRIBUTE: { status: 400, description: 'Two mappings of an identity preview name the same identityAttributeName (a profile maps each attribute once).' },
  API_PREVIEW_TOO_LARGE: { status: 400, description: 'The values an identity preview computed are larger, in all, than the server answers in one response (4,000,000 characters of JSON).' },
  API_PREVIEW_TIME: { status: 400, description: 'An identity preview spent more time than the server gives one preview (2,000 ms of the event loop for validating, compiling and evaluating all its mappings).' },
  API_STORE: { status: 500, description: 'The embedded store cannot be opened or migrated, or a fixture file has the wrong shape.' },
} as const satisfies Record<string, ErrorDefinition>;
