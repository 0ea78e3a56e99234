// `--tenant <baseUrl>` of evaluate and refresh: tenant-backed providers with the
// client credentials from the environment (IDT_CLIENT_ID, IDT_CLIENT_SECRET; IDT_TOKEN_URL when
// the token endpoint is not {baseUrl}/oauth/token), so that secrets stay out of argv and shell history.

import { isTransformsError } from '../errors/index.js';
import { createTenantProviders, type TenantProviderOptions, type TenantProviders } from '../providers/tenant/index.js';
import { UsageError } from './io.js';

export const TENANT_HELP = `Credentials of --tenant come from the environment: IDT_CLIENT_ID and IDT_CLIENT_SECRET (a PAT's
client id and secret, or an API client's), and IDT_TOKEN_URL when the token endpoint is not
<baseUrl>/oauth/token.`;

/** Tenant providers for `--tenant`; a bad URL or missing credentials are usage errors (exit 2). */
export function tenantFromEnvironment(baseUrl: string, env: NodeJS.ProcessEnv = process.env, extra: Omit<Partial<TenantProviderOptions>, 'baseUrl' | 'clientId' | 'clientSecret'> = {}): TenantProviders {
  const clientId = env.IDT_CLIENT_ID;
  const clientSecret = env.IDT_CLIENT_SECRET;
  if (!clientId || !clientSecret) throw new UsageError('--tenant needs the client credentials in IDT_CLIENT_ID and IDT_CLIENT_SECRET');
  try {
    return createTenantProviders({ ...extra, baseUrl, clientId, clientSecret, ...(env.IDT_TOKEN_URL ? { tokenUrl: env.IDT_TOKEN_URL } : {}) });
  } catch (error) {
    if (isTransformsError(error) && error.code === 'TENANT_OPTIONS') throw new UsageError(`--tenant: ${error.message}`);
    throw error;
  }
}
