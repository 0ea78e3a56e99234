// What each operation of the local tenant answers on success, for /openapi.json: the resource
// schemas (components) and, per operationId, the success status and body (the X-Total-Count
// header is added to every operation that takes `count`). Routes that already
// serialize through a Fastify `response` schema (OAuth, clients, PATs, non-employee) keep that
// one; the others answer their stored documents as they are, so their shapes are described here
// rather than in a response schema that would make Fastify drop or coerce members. The API test
// suite validates every response it receives against the served document, so a shape written
// here that the server does not keep fails a test (test/api/contract.ts).

type Json = Record<string, unknown>;

const str = { type: 'string' } as const;
const nstr = { type: ['string', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const time = { type: 'string', format: 'date-time' } as const;
const ntime = { type: ['string', 'null'], format: 'date-time' } as const;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const reference = { type: ['object', 'null'], properties: { type: str, id: str, name: str } } as const;
const arrayOf = (name: string) => ({ type: 'array', items: ref(name) });

/** The resources the operations answer (SDK model names where the SDK has one). */
export const RESOURCE_SCHEMAS: Record<string, Json> = {
  PublicIdentity: {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: str,
      name: str,
      alias: nstr,
      email: nstr,
      status: nstr,
      identityState: nstr,
      manager: reference,
      attributes: { type: 'array', items: { type: 'object', properties: { key: str, name: str, value: {} } } },
    },
  },
  Account: {
    type: 'object',
    required: ['id', 'name', 'sourceId', 'nativeIdentity', 'created'],
    properties: {
      id: str,
      name: str,
      identityId: nstr,
      sourceId: str,
      sourceName: nstr,
      nativeIdentity: str,
      created: time,
      modified: ntime,
      hasEntitlements: bool,
      authoritative: bool,
      uncorrelated: bool,
      disabled: bool,
      locked: bool,
      systemAccount: bool,
      manuallyCorrelated: bool,
      isMachine: bool,
      attributes: { type: ['object', 'null'] },
    },
  },
  AccountActivity: {
    type: 'object',
    required: ['id', 'type', 'created'],
    properties: { id: str, name: nstr, type: nstr, created: ntime, modified: ntime, completed: ntime, completionStatus: nstr, executionStatus: nstr },
  },
  Source: {
    type: 'object',
    required: ['id', 'name', 'owner', 'type', 'connector', 'created', 'modified'],
    properties: {
      id: str,
      name: str,
      description: nstr,
      owner: reference,
      cluster: reference,
      features: { type: 'array', items: str },
      type: str,
      connector: nstr,
      connectorClass: nstr,
      connectorAttributes: { type: 'object' },
      deleteThreshold: { type: ['integer', 'null'] },
      authoritative: bool,
      healthy: bool,
      status: nstr,
      since: ntime,
      created: time,
      modified: ntime,
      schemas: { type: 'array', items: reference },
    },
  },
  SourceSchema: {
    type: 'object',
    required: ['id', 'name', 'attributes'],
    properties: {
      id: str,
      name: str,
      nativeObjectType: nstr,
      identityAttribute: nstr,
      displayAttribute: nstr,
      hierarchyAttribute: nstr,
      includePermissions: bool,
      features: { type: 'array', items: str },
      configuration: { type: 'object' },
      attributes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'type'],
          properties: { name: str, type: str, schema: { type: ['object', 'null'] }, description: nstr, isMulti: bool, isEntitlement: bool, isGroup: bool },
        },
      },
      created: ntime,
      modified: ntime,
    },
  },
  Transform: {
    type: 'object',
    required: ['id', 'name', 'type', 'attributes', 'internal'],
    properties: { id: str, name: str, type: str, attributes: { type: ['object', 'null'] }, internal: bool },
  },
  IdentityProfile: {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: str,
      name: str,
      description: nstr,
      owner: reference,
      priority: { type: ['integer', 'null'] },
      authoritativeSource: reference,
      identityRefreshRequired: bool,
      identityCount: { type: ['integer', 'null'] },
      hasTimeBasedAttr: bool,
      created: ntime,
      modified: ntime,
      identityAttributeConfig: { type: ['object', 'null'] },
    },
  },
  IdentityDocument: {
    type: 'object',
    // No member is required: a queryResultFilter keeps only the members it includes.
    description: 'An identity search hit. Every member is present unless the request\'s queryResultFilter drops it.',
    properties: {
      id: str,
      name: str,
      _type: str,
      type: str,
      _index: str,
      displayName: nstr,
      firstName: nstr,
      lastName: nstr,
      email: nstr,
      phone: nstr,
      employeeNumber: nstr,
      inactive: bool,
      status: str,
      manager: { type: ['object', 'null'], properties: { id: str, name: str, displayName: nstr } },
      isManager: bool,
      accountCount: { type: 'integer' },
      created: ntime,
      modified: ntime,
      identityProfile: { type: ['object', 'null'], properties: { id: str, name: nstr } },
      attributes: { type: 'object' },
    },
  },
  IdentityPreviewResponse: {
    type: 'object',
    required: ['identity', 'previewAttributes'],
    properties: {
      identity: reference,
      previewAttributes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'value', 'previousValue', 'errorMessages'],
          properties: { name: str, value: {}, previousValue: {}, errorMessages: { type: 'array', items: { type: 'object', properties: { locale: str, localeOrigin: str, text: str, code: str, path: str } } } },
        },
      },
    },
  },
};

export interface Success {
  readonly status: number;
  /** The body schema; null for an empty body. */
  readonly schema: Json | null;
  readonly description: string;
  /** Error statuses beyond those its path, method and body imply (openapi.ts errorStatuses). */
  readonly errors?: readonly string[];
}

const list = (name: string, what: string): Success => ({ status: 200, schema: arrayOf(name), description: `A page of ${what} (possibly empty).` });
const one = (name: string, what: string): Success => ({ status: 200, schema: ref(name), description: what });

/** Success responses of the operations whose routes carry no response schema, by operationId. */
export const SUCCESS: Readonly<Record<string, Success>> = {
  getPublicIdentities: list('PublicIdentity', 'public identities'),
  listAccounts: list('Account', 'accounts'),
  getAccount: one('Account', 'The account.'),
  listAccountActivities: list('AccountActivity', 'account activities'),
  getAccountActivity: one('AccountActivity', 'The account activity.'),
  listSources: list('Source', 'sources'),
  getSource: one('Source', 'The source.'),
  putSource: one('Source', 'The replaced source.'),
  updateSource: one('Source', 'The updated source (RFC 6902, https://developer.sailpoint.com/docs/api/patch-requests).'),
  getSourceSchemas: { status: 200, schema: arrayOf('SourceSchema'), description: 'The schemas of the source.' },
  getSourceSchema: one('SourceSchema', 'The source schema.'),
  putSourceSchema: one('SourceSchema', 'The replaced source schema.'),
  updateSourceSchema: one('SourceSchema', 'The updated source schema (RFC 6902, https://developer.sailpoint.com/docs/api/patch-requests).'),
  listTransforms: list('Transform', 'transforms'),
  createTransform: { status: 201, schema: ref('Transform'), description: 'The created transform.' },
  getTransform: one('Transform', 'The transform.'),
  updateTransform: one('Transform', 'The replaced transform.'),
  deleteTransform: { status: 204, schema: null, description: 'Deleted.' },
  listIdentityProfiles: list('IdentityProfile', 'identity profiles'),
  getIdentityProfile: one('IdentityProfile', 'The identity profile.'),
  searchPost: { status: 200, schema: arrayOf('IdentityDocument'), description: 'The matching documents, in the requested order.' },
  showIdentityPreview: { ...one('IdentityPreviewResponse', 'The identity attributes the profile computes for the identity.'), errors: ['404'] },
};
