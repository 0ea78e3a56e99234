// Rights, capabilities and scopes (https://developer.sailpoint.com/docs/api/authentication: "Access
// level equals that of the user who created the PAT or logged in. Scopes can narrow access.").
// Right names follow the platform's `idn:<area>:<read|manage>` convention; docs/decisions.md lists
// the table.

/** The all-scopes value of the authentication docs; a PAT's default scope. */
export const ALL_SCOPES = 'sp:scopes:all';

export const RIGHTS = {
  oauthClientsRead: 'idn:oauth-clients:read',
  myPatsRead: 'idn:my-personal-access-tokens:read',
  myPatsManage: 'idn:my-personal-access-tokens:manage',
  allPatsRead: 'idn:all-personal-access-tokens:read',
  allPatsManage: 'idn:all-personal-access-tokens:manage',
  nonEmployeeRead: 'idn:nesr:read',
  sourcesRead: 'idn:sources:read',
  sourcesManage: 'idn:sources:manage',
  transformsRead: 'idn:transforms:read',
  transformsManage: 'idn:transforms:manage',
  identitiesRead: 'idn:identities:read',
  accountsRead: 'idn:accounts:read',
  accountActivitiesRead: 'idn:account-activities:read',
  identityProfilesRead: 'idn:identity-profiles:read',
  identityProfilesManage: 'idn:identity-profiles:manage',
  searchRead: 'idn:search:read',
} as const;

export type Right = (typeof RIGHTS)[keyof typeof RIGHTS];
export const ALL_RIGHTS: readonly Right[] = Object.values(RIGHTS);

/** Rights every user has (any user of the platform may create a PAT). */
const EVERY_USER: readonly Right[] = [RIGHTS.myPatsRead, RIGHTS.myPatsManage];

/** What each user capability (the platform's user levels) adds. */
export const CAPABILITY_RIGHTS: Readonly<Record<string, readonly Right[]>> = {
  ORG_ADMIN: ALL_RIGHTS,
  SOURCE_ADMIN: [
    RIGHTS.sourcesRead, RIGHTS.sourcesManage, RIGHTS.transformsRead, RIGHTS.transformsManage,
    RIGHTS.identityProfilesRead, RIGHTS.identityProfilesManage, RIGHTS.accountsRead, RIGHTS.accountActivitiesRead,
  ],
  SOURCE_SUBADMIN: [RIGHTS.sourcesRead, RIGHTS.transformsRead, RIGHTS.accountsRead],
  HELPDESK: [RIGHTS.identitiesRead, RIGHTS.accountsRead, RIGHTS.accountActivitiesRead, RIGHTS.searchRead],
  REPORT_ADMIN: [RIGHTS.identitiesRead, RIGHTS.accountsRead, RIGHTS.accountActivitiesRead, RIGHTS.searchRead, RIGHTS.sourcesRead],
};

/** A scope is the all-scopes value or one right. */
export function isKnownScope(scope: string): boolean {
  return scope === ALL_SCOPES || (ALL_RIGHTS as readonly string[]).includes(scope);
}

/** Rights of a user from its capabilities (unknown capabilities add nothing). */
export function userRights(capabilities: readonly string[]): Set<string> {
  const out = new Set<string>(EVERY_USER);
  for (const c of capabilities) for (const r of CAPABILITY_RIGHTS[c] ?? []) out.add(r);
  return out;
}

/**
 * Effective rights of a token: the base rights (the user's, or every right for a client without a
 * user, whose reach is then bounded by user-context checks) narrowed by the granted scopes.
 */
export function effectiveRights(base: ReadonlySet<string>, scopes: readonly string[]): Set<string> {
  if (scopes.includes(ALL_SCOPES)) return new Set(base);
  return new Set(scopes.filter((s) => base.has(s)));
}

/**
 * Whether `requested` scopes stay within `allowed` ones (null = all scopes). Returns the scopes to
 * grant, or null when one is unknown or exceeds what the client may have.
 */
export function grantScopes(requested: readonly string[] | null, allowed: readonly string[] | null): string[] | null {
  const allow = allowed ?? [ALL_SCOPES];
  if (requested === null || requested.length === 0) return [...allow];
  for (const s of requested) {
    if (!isKnownScope(s)) return null;
    if (!allow.includes(ALL_SCOPES) && !allow.includes(s)) return null;
  }
  return [...new Set(requested)];
}
