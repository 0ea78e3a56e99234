import type { ErrorDefinition } from './types.js';

// The playground (`identity-transforms play`): its loopback JSON API refuses what does not come
// from its own page, and what a request may not hold. Prefix PLAY_.
export const playErrors = {
  PLAY_TOKEN_INVALID: { status: 401, description: 'A call to the playground\'s API without the token printed in its URL, or with another one: the API answers only the page it served.' },
  PLAY_HOST_REFUSED: { status: 403, description: 'A request to the playground whose Host header is not the loopback address and port it listens on (a DNS-rebinding page names its own host).' },
  PLAY_ORIGIN_REFUSED: { status: 403, description: 'A request to the playground sent by a page of another origin (its Origin header is not the playground\'s own).' },
  PLAY_REQUEST_INVALID: { status: 400, description: 'A playground API request whose body is not JSON of `application/json`, or does not match the request\'s schema (docs/playground.md): a missing or unknown member, a wrong type, a string above its bound; or a request that is not HTTP/1.1 the server reads (headers above 16 KB, a request-target that is not a URL).' },
  PLAY_REQUEST_TIMEOUT: { status: 408, description: 'A request to the playground whose headers took more than 10 s to arrive, or which took more than 60 s in all (a client that sends a byte now and then holds no connection for long).' },
  PLAY_REQUEST_TOO_LARGE: { status: 413, description: 'A playground API request body above its limit (the platform\'s 400 KB for a transform, and room for the other members).' },
  PLAY_NOT_FOUND: { status: 404, description: 'No such page, asset or API route of the playground, or no identity or example by that name in its fixtures.' },
  PLAY_METHOD_NOT_ALLOWED: { status: 405, description: 'A playground route called with another HTTP method than the one it takes.' },
  PLAY_IMPACT_CANCELLED: { status: 409, description: 'A playground impact run stopped before its end: another run was started (one runs at a time; the page\'s Run impact cancels the run under way), or its request was cancelled. Its work stops at once.' },
  PLAY_IMPACT_BUDGET: { status: 400, description: 'A playground impact run needed more than one request may take: more wall time than its budget (a minute by default) or more heap than its memory budget (512 MB). `details.limit` says which (`maxTime`, `maxHeapMb`) and `details.max` its value; run `identity-transforms impact`, which has no such budget.' },
  PLAY_INTERNAL: { status: 500, description: 'The playground failed to answer a request for a reason of its own (a defect: please report it with the request); it goes on serving. The answer carries a `trackingId` and no detail; the play command writes the detail to its standard error under that id.' },
} as const satisfies Record<string, ErrorDefinition>;
