// JSON Schemas of the fixture files this server reads (docs/api.md describes them). The files
// of the identity side (users, OAuth clients, PATs, legacy keys) are defined here; the tenant
// files (README "Fixture format") are checked only for what the store indexes (id, name).

const secretFields = {
  fixtureSecret: { type: 'string', minLength: 8, description: 'FIXTURE ONLY: a plain secret, hashed with scrypt when seeded.' },
  secretHash: { type: 'string', pattern: '^scrypt\\$' },
};

const scope = { type: ['array', 'null'], items: { type: 'string', minLength: 1 } };

export const USERS_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['login', 'name'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', minLength: 1 },
      login: { type: 'string', minLength: 1 },
      name: { type: 'string' },
      email: { type: ['string', 'null'] },
      identityId: { type: ['string', 'null'] },
      capabilities: { type: 'array', items: { type: 'string' } },
      fixturePassword: { type: 'string', minLength: 1, description: 'FIXTURE ONLY: a plain password, hashed with scrypt when seeded.' },
      passwordHash: { type: 'string', pattern: '^scrypt\\$' },
    },
    not: { required: ['fixturePassword', 'passwordHash'] },
  },
} as const;

export const OAUTH_CLIENTS_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'name', 'grantTypes'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', minLength: 1 },
      name: { type: 'string' },
      description: { type: ['string', 'null'] },
      enabled: { type: 'boolean' },
      created: { type: 'string' },
      modified: { type: 'string' },
      grantTypes: { type: 'array', items: { enum: ['CLIENT_CREDENTIALS', 'AUTHORIZATION_CODE', 'REFRESH_TOKEN'] } },
      redirectUris: { type: ['array', 'null'], items: { type: 'string' } },
      scope,
      accessTokenValiditySeconds: { type: 'integer', minimum: 1 },
      refreshTokenValiditySeconds: { type: 'integer', minimum: 1 },
      businessName: { type: ['string', 'null'] },
      homepageUrl: { type: ['string', 'null'] },
      accessType: { enum: ['ONLINE', 'OFFLINE'] },
      type: { enum: ['CONFIDENTIAL', 'PUBLIC'] },
      internal: { type: 'boolean' },
      strongAuthSupported: { type: 'boolean' },
      claimsSupported: { type: 'boolean' },
      ...secretFields,
    },
    oneOf: [{ required: ['fixtureSecret'] }, { required: ['secretHash'] }],
  },
} as const;

export const PATS_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'ownerLogin'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', minLength: 1 },
      name: { type: 'string', minLength: 1 },
      ownerLogin: { type: 'string', minLength: 1 },
      scope,
      created: { type: 'string' },
      accessTokenValiditySeconds: { type: 'integer', minimum: 1 },
      ...secretFields,
    },
    oneOf: [{ required: ['fixtureSecret'] }, { required: ['secretHash'] }],
  },
} as const;

export const API_KEYS_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'fixtureKey'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', minLength: 1 },
      name: { type: 'string' },
      created: { type: 'string' },
      fixtureKey: { type: 'string', minLength: 24, description: 'FIXTURE ONLY: the legacy non-employee API key, hashed when seeded.' },
    },
  },
} as const;

const resource = (required: string[]) => ({ type: 'object', required, properties: { id: { type: 'string', minLength: 1 }, name: { type: 'string' } } });

export const SOURCES_SCHEMA = { type: 'array', items: resource(['id', 'name']) } as const;
export const IDENTITIES_SCHEMA = { type: 'array', items: resource(['id', 'name']) } as const;
export const ACCOUNTS_SCHEMA = {
  type: 'array',
  items: { type: 'object', required: ['id', 'identityId', 'sourceId'], properties: { id: { type: 'string', minLength: 1 }, identityId: { type: 'string' }, sourceId: { type: 'string' } } },
} as const;
export const TRANSFORM_SCHEMA = { type: 'object', required: ['name', 'type'], properties: { id: { type: 'string' }, name: { type: 'string', minLength: 1 }, type: { type: 'string' } } } as const;
export const PROFILE_SCHEMA = resource(['name']);
