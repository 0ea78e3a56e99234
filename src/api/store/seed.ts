// Seeding a new store from a fixtures directory (file formats in docs/api.md and the README's
// "Fixture format"). Every file is optional. Plain fixture secrets are hashed here and never stored
// as given.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { codedError } from '../../errors/index.js';
import { stripByteOrderMark } from '../../json/positions.js';
import { IdentityIds } from '../../providers/identity-ids.js';
import { apiKeyLookup, hashSecret } from '../auth/secrets.js';
import { MAX_JSON_DEPTH } from '../../json/depth.js';
import { checkJsonDepth } from '../json-limits.js';
import { DEFAULT_REQUEST_LIMITS } from '../options.js';
import * as S from './fixture-schemas.js';
import { API_KEY_LOOKUP_META, type GrantType } from './auth-repo.js';
import { PUBLIC_IDENTITY_COLUMNS_FILL } from './migrations.js';
import type { Doc, ResourceKind } from './resource-repo.js';
import type { Store } from './store.js';

const ajv = new Ajv({ allErrors: false, strict: false, allowUnionTypes: true });

/** A UUID derived from names, so that fixture records without an id get the same id every run. */
export function stableUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\0')).digest('hex');
  // Version nibble 8 (RFC 9562 "custom") and the RFC variant bits.
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A fixture file's JSON; its callers check its depth against the store's limit (checked). */
function readJson(file: string): unknown {
  try {
    // A byte-order mark an editor saved is skipped, as in every JSON file the CLI reads (decision C4).
    return JSON.parse(stripByteOrderMark(readFileSync(file, 'utf8'))) as unknown;
  } catch (cause) {
    throw codedError('API_STORE', `cannot read fixture ${file}: ${(cause as Error).message}`, { cause, details: { file } });
  }
}

/** Read a fixture file, check its shape and that no document in it nests deeper than `maxDepth`. */
function checked<T>(file: string, schema: object, maxDepth: number): T | null {
  if (!existsSync(file)) return null;
  const data = readJson(file);
  try {
    // Each element of a list file is one stored document: the list itself adds a level.
    checkJsonDepth(data, maxDepth + (Array.isArray(data) ? 1 : 0), `fixture ${file}`);
  } catch (cause) {
    throw codedError('API_STORE', (cause as Error).message, { cause, path: (cause as { path?: string }).path, details: { file } });
  }
  const validate = ajv.compile(schema);
  if (!validate(data)) {
    const e = validate.errors![0] as ErrorObject;
    throw codedError('API_STORE', `fixture ${file} has the wrong shape: ${e.instancePath || '/'} ${e.message ?? ''}`, {
      path: e.instancePath,
      details: { file },
    });
  }
  return data as T;
}

/** The identities, each with an id of its own: a repeated id is the fixture readers' CLI_FIXTURES (providers/identity-ids.ts), not the last one kept. */
function uniqueIds(file: string, identities: Doc[]): Doc[] {
  const ids = new IdentityIds();
  identities.forEach((doc, index) => ids.add(String(doc.id), { index }));
  ids.check(file);
  return identities;
}

function readDir(dir: string, schema: object, kind: string, maxDepth: number): Doc[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const doc = checked<Record<string, unknown>>(join(dir, f), schema, maxDepth)!;
      const id = typeof doc.id === 'string' && doc.id !== '' ? doc.id : stableUuid(kind, String(doc.name));
      return { ...doc, id };
    });
}

export interface SeedOptions {
  now: Date;
  /** Deepest nesting of a stored document (the server's requestLimits.maxJsonDepth). */
  maxJsonDepth?: number;
  /** log2 of the scrypt cost used to hash fixture secrets. */
  secretHashCost?: number;
}

export interface SeedSummary {
  users: number;
  oauthClients: number;
  personalAccessTokens: number;
  nonEmployeeApiKeys: number;
  sources: number;
  identities: number;
  accounts: number;
  transforms: number;
  identityProfiles: number;
}

interface UserFixture { id?: string; login: string; name: string; email?: string | null; identityId?: string | null; capabilities?: string[]; fixturePassword?: string; passwordHash?: string }
interface ClientFixture { id: string; name: string; description?: string | null; enabled?: boolean; created?: string; modified?: string; grantTypes: GrantType[]; redirectUris?: string[] | null; scope?: string[] | null; accessTokenValiditySeconds?: number; refreshTokenValiditySeconds?: number; fixtureSecret?: string; secretHash?: string; [k: string]: unknown }
interface PatFixture { id?: string; name: string; ownerLogin: string; scope?: string[] | null; created?: string; accessTokenValiditySeconds?: number; fixtureSecret?: string; secretHash?: string }
interface KeyFixture { id?: string; name: string; created?: string; fixtureKey: string }

const CLIENT_EXTRA = ['businessName', 'homepageUrl', 'accessType', 'type', 'internal', 'strongAuthSupported', 'claimsSupported'];

/** Load every fixture file present in `dir` into `store`, in one transaction. */
export function seedStore(store: Store, dir: string, options: SeedOptions): SeedSummary {
  const cost = options.secretHashCost;
  const depth = options.maxJsonDepth ?? DEFAULT_REQUEST_LIMITS.maxJsonDepth;
  const now = options.now.toISOString();
  const users = checked<UserFixture[]>(join(dir, 'users.json'), S.USERS_SCHEMA, depth) ?? [];
  const clients = checked<ClientFixture[]>(join(dir, 'oauth-clients.json'), S.OAUTH_CLIENTS_SCHEMA, depth) ?? [];
  const pats = checked<PatFixture[]>(join(dir, 'personal-access-tokens.json'), S.PATS_SCHEMA, depth) ?? [];
  const keys = checked<KeyFixture[]>(join(dir, 'nonemployee-api-keys.json'), S.API_KEYS_SCHEMA, depth) ?? [];
  const resources: [ResourceKind, Doc[]][] = [
    ['sources', checked<Doc[]>(join(dir, 'sources.json'), S.SOURCES_SCHEMA, depth) ?? []],
    ['identities', uniqueIds(join(dir, 'identities.json'), checked<Doc[]>(join(dir, 'identities.json'), S.IDENTITIES_SCHEMA, depth) ?? [])],
    ['accounts', checked<Doc[]>(join(dir, 'accounts.json'), S.ACCOUNTS_SCHEMA, depth) ?? []],
    ['transforms', readDir(join(dir, 'transforms'), S.TRANSFORM_SCHEMA, 'transform', depth)],
    ['identity_profiles', readDir(join(dir, 'identity-profiles'), S.PROFILE_SCHEMA, 'identity-profile', depth)],
  ];
  const activities = readActivities(dir);
  const secret = (f: { fixtureSecret?: string; secretHash?: string }) => f.secretHash ?? hashSecret(f.fixtureSecret!, cost);

  store.transaction(() => {
    const userIds = new Map<string, string>();
    for (const u of users) {
      const id = u.id ?? stableUuid('user', u.login);
      userIds.set(u.login.toLowerCase(), id);
      store.identity.insertUser({
        id,
        login: u.login,
        name: u.name,
        email: u.email ?? null,
        identityId: u.identityId ?? null,
        capabilities: u.capabilities ?? [],
        passwordHash: u.passwordHash ?? (u.fixturePassword === undefined ? null : hashSecret(u.fixturePassword, cost)),
      });
    }
    for (const c of clients) {
      const extra: Record<string, unknown> = {};
      for (const k of CLIENT_EXTRA) if (c[k] !== undefined) extra[k] = c[k];
      store.identity.insertClient({
        id: c.id,
        kind: 'CLIENT',
        name: c.name,
        description: c.description ?? null,
        enabled: c.enabled ?? true,
        created: c.created ?? now,
        modified: c.modified ?? c.created ?? now,
        grantTypes: c.grantTypes,
        redirectUris: c.redirectUris ?? [],
        scope: c.scope ?? null,
        secretHash: secret(c),
        ownerUserId: null,
        accessTokenValiditySeconds: c.accessTokenValiditySeconds ?? null,
        refreshTokenValiditySeconds: c.refreshTokenValiditySeconds ?? null,
        lastUsed: null,
        extra,
      });
    }
    for (const p of pats) {
      const owner = userIds.get(p.ownerLogin.toLowerCase()) ?? store.identity.getUserByLogin(p.ownerLogin)?.id;
      if (owner === undefined) {
        throw codedError('API_STORE', `personal access token "${p.name}" names an unknown owner ${p.ownerLogin}`, {
          details: { file: join(dir, 'personal-access-tokens.json') },
        });
      }
      store.identity.insertClient({
        id: p.id ?? stableUuid('pat', p.ownerLogin, p.name),
        kind: 'PAT',
        name: p.name,
        description: null,
        enabled: true,
        created: p.created ?? now,
        modified: p.created ?? now,
        grantTypes: ['CLIENT_CREDENTIALS'],
        redirectUris: [],
        scope: p.scope ?? null,
        secretHash: secret(p),
        ownerUserId: owner,
        accessTokenValiditySeconds: p.accessTokenValiditySeconds ?? null,
        refreshTokenValiditySeconds: null,
        lastUsed: null,
        extra: {},
      });
    }
    for (const k of keys) {
      store.identity.insertApiKey(
        { id: k.id ?? stableUuid('nonemployee-api-key', k.name), name: k.name, keyHash: hashSecret(k.fixtureKey, cost), created: k.created ?? now },
        apiKeyLookup(store.secretKey(API_KEY_LOOKUP_META), k.fixtureKey),
      );
    }
    bulkLoad(store, () => {
      for (const [kind, docs] of resources) store.resources.putAll(kind, docs);
    });
    insertActivities(store, activities);
  });

  return {
    users: users.length,
    oauthClients: clients.length,
    personalAccessTokens: pats.length,
    nonEmployeeApiKeys: keys.length,
    sources: resources[0]![1].length,
    identities: resources[1]![1].length,
    accounts: resources[2]![1].length,
    transforms: resources[3]![1].length,
    identityProfiles: resources[4]![1].length,
  };
}

/** The tables a tenant's bulk of rows goes to, and the triggers whose work bulkLoad does itself. */
const BULK_TABLES = ['identities', 'accounts', 'public_identity_columns'];
const BULK_TRIGGERS = new Set(['public_identity_columns_insert', 'public_identity_columns_update', 'public_identity_columns_delete']);

/**
 * Run `load` (inserts into a new store's empty identities and accounts) with those tables'
 * secondary indexes and the public-identity triggers set aside, then fill public_identity_columns
 * in one statement and build the indexes again: SQLite builds an index from its rows sorted once,
 * where inserting updates every index row by row (a 100,000-identity tenant took minutes). Inside
 * the seed's transaction, so that the schema changes roll back with a failed seed. A store with
 * rows already, or with a trigger on these tables this function does not know, is loaded row by row.
 */
function bulkLoad(store: Store, load: () => void): void {
  const db = store.db;
  const empty = BULK_TABLES.every((t) => (db.prepare(`SELECT NOT EXISTS (SELECT 1 FROM ${t}) AS empty`).get() as { empty: number }).empty === 1);
  const aside = db
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE tbl_name IN (${BULK_TABLES.map(() => '?').join(', ')}) AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid`)
    .all(...BULK_TABLES) as { type: 'index' | 'trigger'; name: string; sql: string }[];
  if (!empty || aside.some((o) => o.type === 'trigger' && !BULK_TRIGGERS.has(o.name))) {
    load();
    return;
  }
  for (const o of aside) db.exec(`DROP ${o.type === 'index' ? 'INDEX' : 'TRIGGER'} "${o.name}"`);
  load();
  db.exec(PUBLIC_IDENTITY_COLUMNS_FILL);
  for (const o of aside) db.exec(o.sql);
}

/** account-activities.json: an array of activity documents, each with a string id. */
function readActivities(dir: string): Doc[] {
  const file = join(dir, 'account-activities.json');
  if (!existsSync(file)) return [];
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw codedError('API_STORE', `cannot read fixture ${file}: ${(cause as Error).message}`, { cause, details: { file } });
  }
  checkJsonDepth(data, MAX_JSON_DEPTH, file);
  if (!Array.isArray(data) || !data.every((d) => d !== null && typeof d === 'object' && typeof (d as { id?: unknown }).id === 'string')) {
    throw codedError('API_STORE', `fixture ${file} must be an array of objects with a string id`, { details: { file } });
  }
  return data as Doc[];
}

function insertActivities(store: Store, activities: readonly Doc[]): void {
  const insert = store.db.prepare('INSERT OR IGNORE INTO account_activities (id, name, type, created, modified, doc) VALUES (?, ?, ?, ?, ?, ?)');
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  for (const a of activities) insert.run(a.id, str(a.name), str(a.type), str(a.created), str(a.modified), JSON.stringify(a));
}

/** SQLite json_each type → source schema attribute type (https://developer.sailpoint.com/docs/api/v3/get-source-schemas: "for example STRING"). */
const JSON_TYPES: Readonly<Record<string, string>> = { true: 'BOOLEAN', false: 'BOOLEAN', integer: 'INT', real: 'LONG' };

/**
 * A source that has no schema gets an account schema derived from its accounts (a sample of
 * the first 1,000), as the platform's schema discovery would produce one. Run at every start,
 * so that sources added since get theirs too.
 */
export function deriveSourceSchemas(store: Store, now: string): void {
  const db = store.db;
  const sources = db.prepare('SELECT id, created FROM sources WHERE id NOT IN (SELECT source_id FROM source_schemas)').all() as { id: string; created: string | null }[];
  if (sources.length === 0) return;
  const sample = db.prepare(`SELECT j.key AS key, j.type AS type
    FROM (SELECT doc FROM accounts WHERE source_id = ? LIMIT 1000) a, json_each(a.doc, '$.attributes') j`);
  const insert = db.prepare('INSERT INTO source_schemas (id, source_id, name, created, modified, doc) VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const s of sources) {
      const attrs = new Map<string, { type: string; isMulti: boolean }>();
      for (const row of sample.all(s.id) as { key: string; type: string }[]) {
        const known = attrs.get(row.key) ?? { type: '', isMulti: false };
        if (row.type === 'array') known.isMulti = true;
        // The first non-null scalar decides the type; lists are lists of strings.
        if (known.type === '' && row.type !== 'null' && row.type !== 'array') known.type = JSON_TYPES[row.type] ?? 'STRING';
        attrs.set(row.key, known);
      }
      const names = [...attrs.keys()];
      const id = stableUuid('source-schema', s.id, 'account');
      const created = s.created ?? now;
      const doc = {
        id,
        name: 'account',
        nativeObjectType: 'User',
        identityAttribute: names[0] ?? null,
        displayAttribute: names[0] ?? null,
        hierarchyAttribute: null,
        includePermissions: false,
        features: [],
        configuration: {},
        attributes: names.map((name) => ({ name, type: attrs.get(name)!.type || 'STRING', schema: null, description: '', isMulti: attrs.get(name)!.isMulti, isEntitlement: false, isGroup: false })),
        created,
        modified: created,
      };
      insert.run(id, s.id, 'account', created, created, JSON.stringify(doc));
    }
  })();
}
