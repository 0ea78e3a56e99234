// The admin PAT of `serve`: with --admin-client-id/--admin-client-secret that PAT is
// ensured; without them one is created on the first start of a store and its secret returned
// once (it is stored hashed, so later starts can only name it).

import { randomUUID } from 'node:crypto';
import { codedError } from '../errors/index.js';
import { verifySecret } from './auth/secrets.js';
import type { ApiContext } from './context.js';
import { createPersonalAccessToken } from './plugins/pats.js';
import type { UserRecord } from './store/auth-repo.js';

const META = 'bootstrap_admin_pat';
const PAT_NAME = 'serve admin';

export interface AdminCredentials {
  clientId: string;
  /** Present only when the PAT was created by this call with a generated secret. */
  clientSecret?: string;
  created: boolean;
  ownerLogin: string;
}

/** The first ORG_ADMIN user by login, or a new `admin` user without a password. */
function adminUser(ctx: ApiContext): UserRecord {
  const found = ctx.store.identity.listUsers().find((u) => u.capabilities.includes('ORG_ADMIN'));
  if (found !== undefined) return found;
  const user: UserRecord = { id: randomUUID(), login: 'admin', name: 'Administrator', email: null, passwordHash: null, capabilities: ['ORG_ADMIN'], identityId: null };
  ctx.store.identity.insertUser(user);
  return user;
}

export async function ensureAdminPat(ctx: ApiContext, fixed?: { clientId: string; clientSecret: string }): Promise<AdminCredentials> {
  const owner = adminUser(ctx);
  if (fixed !== undefined) {
    if (!fixed.clientId.includes('-')) throw codedError('API_OPTIONS', 'The admin client id must be UUID-style with dashes (legacy ids do not work).');
    if (fixed.clientSecret.length < 8) throw codedError('API_OPTIONS', 'The admin client secret must have at least 8 characters.');
    const existing = ctx.store.identity.getClient(fixed.clientId);
    if (existing !== null) {
      if (existing.kind === 'PAT' && existing.ownerUserId === owner.id && (await verifySecret(fixed.clientSecret, existing.secretHash))) {
        return { clientId: existing.id, created: false, ownerLogin: owner.login };
      }
      // The flags are authoritative: a stale token of that id is replaced.
      ctx.store.identity.deleteClient(existing.id);
    }
    await createPersonalAccessToken(ctx, owner, { name: `${PAT_NAME} ${fixed.clientId}`, id: fixed.clientId, secret: fixed.clientSecret });
    return { clientId: fixed.clientId, created: true, ownerLogin: owner.login };
  }
  const known = ctx.store.getMeta(META);
  if (known !== null && ctx.store.identity.getClient(known) !== null) return { clientId: known, created: false, ownerLogin: owner.login };
  const { record, secret } = await createPersonalAccessToken(ctx, owner, { name: `${PAT_NAME} ${new Date(ctx.now()).toISOString()}` });
  ctx.store.setMeta(META, record.id);
  return { clientId: record.id, clientSecret: secret, created: true, ownerLogin: owner.login };
}
