// What every plugin of the server is given: the store, the token service and the resolved
// options. One instance per buildServer call (no module-level state).

import type { SecretVerifier } from './auth/secrets.js';
import type { TokenService } from './auth/tokens.js';
import type { ResolvedOptions, ServerUrls } from './options.js';
import type { Store } from './store/store.js';

export interface ApiContext {
  readonly store: Store;
  readonly tokens: TokenService;
  readonly secrets: SecretVerifier;
  readonly options: ResolvedOptions;
  readonly tenantId: string;
  /** Advertised addresses; set when the listeners start (or from options.urls). */
  readonly urls: ServerUrls;
  /** Milliseconds since the epoch (the injected clock). */
  now(): number;
}
