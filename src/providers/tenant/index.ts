// Tenant-backed providers: the engine's providers over a platform tenant's API.

export { createTenantProviders, identityFromDocument, TenantProviders } from './providers.js';
export type { TenantProviderOptions, TenantStats } from './providers.js';
export { TenantClient, isTenantError, retryAfterMs, LIST_PAGE_MAX, SEARCH_PAGE_MAX } from './client.js';
export type { TenantClientOptions, TenantClientStats, TenantResponse } from './client.js';
export { pushDownAccountFilter } from './pushdown.js';
