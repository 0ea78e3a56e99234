// The SQL that derives a /public-identities row from an identity's document
// (https://developer.sailpoint.com/docs/api/v3/get-public-identities), shared by the store
// migrations that build public_identity_columns and its triggers (migrations.ts). Built-in SQL
// only, but for filter_fold, which Store.open registers on its connection before migrating.

export const VALUE_COLUMNS = 'id, alias, email, firstname, lastname, display';

/** The public-identity fields of an identities row (`NEW` in a trigger), in VALUE_COLUMNS order. */
export function valuesOf(row: string): string {
  const attribute = (name: string) => `json_extract(${row}.doc, '$.attributes.${name}')`;
  return `${row}.id, ${row}.name, ${attribute('email')}, ${attribute('firstname')}, ${attribute('lastname')}, COALESCE(${attribute('displayName')}, ${row}.name)`;
}

/** What a page of /public-identities reads of a row, besides its id (migration 6). */
export const SHOWN = 'shown_name, alias, shown_email, active, manager_ref, manager_name';
export const ROW_COLUMNS = 'id, alias, email, firstname, lastname, display, alias_key, email_key, firstname_key, lastname_key, shown_name, shown_email, active, manager_id';

/**
 * A SELECT of the public_identity_columns values of an identities row (`NEW` in a trigger, or
 * the table), in ROW_COLUMNS order: the fields, their folded keys and the shown values.
 */
export function rowOf(row: string): string {
  const attribute = (name: string) => `json_extract(${row}.doc, '$.attributes.${name}')`;
  const text = (path: string) => `CASE WHEN json_type(${row}.doc, '${path}') = 'text' THEN json_extract(${row}.doc, '${path}') END`;
  const lifecycle = `COALESCE(${text('$.attributes.lifecycleState')}, ${text('$.attributes.cloudLifecycleState')})`;
  const values = [
    `${row}.id AS id`,
    `${row}.name AS alias`,
    `${attribute('email')} AS email`,
    `${attribute('firstname')} AS firstname`,
    `${attribute('lastname')} AS lastname`,
    `COALESCE(${attribute('displayName')}, ${row}.name) AS display`,
    `COALESCE(${text('$.attributes.displayName')}, ${row}.name) AS shown_name`,
    `${text('$.attributes.email')} AS shown_email`,
    `COALESCE(${lifecycle} = 'active', 1) AS active`,
    `NULLIF(${text('$.managerId')}, '') AS manager_id`,
  ];
  const keys = ['alias', 'email', 'firstname', 'lastname'].map((c) => foldedKey(`v.${c}`));
  return `SELECT v.id, v.alias, v.email, v.firstname, v.lastname, v.display, ${keys.join(', ')}, v.shown_name, v.shown_email, v.active, v.manager_id FROM (SELECT ${values.join(', ')}${row === 'NEW' ? '' : ` FROM ${row}`}) v`;
}

/**
 * The case-folded key of a column: the value itself when it is ASCII (as many bytes as
 * characters), which NOCASE compares ignoring case; otherwise filter_fold(value), the filter
 * module's fold. length() of text stops at a NUL, so a value with one is folded too.
 */
export function foldedKey(column: string): string {
  return `CASE WHEN ${column} IS NULL OR length(CAST(${column} AS BLOB)) = length(${column}) THEN ${column} ELSE filter_fold(${column}) END`;
}

/**
 * One page item, the SDK's PublicIdentity, as JSON text (migration 7 stores it in the `item`
 * column), from the shown values of `row` (a table or alias with the ROW_COLUMNS) and its
 * manager's id and shown name (SQL expressions: no manager while the id is NULL; null: none).
 * The name is the display name, else the account name; the status is ACTIVE unless a lifecycle
 * state other than 'active' is set. No public identity attributes are configured
 * (/public-identities-config is not served), so `attributes` is empty.
 */
export function publicIdentityItem(row: string, manager: { id: string; name: string } | null): string {
  const active = `${row}.active`;
  const shownManager = manager === null ? 'NULL' : `CASE WHEN ${manager.id} IS NULL THEN NULL ELSE json_object('type', 'IDENTITY', 'id', ${manager.id}, 'name', ${manager.name}) END`;
  return `json_object('id', ${row}.id, 'name', ${row}.shown_name, 'alias', ${row}.alias, 'email', ${row}.shown_email, `
    + `'status', CASE WHEN ${active} THEN 'ACTIVE' ELSE 'INACTIVE' END, `
    + `'identityState', CASE WHEN ${active} THEN 'ACTIVE' ELSE 'INACTIVE_LONG_TERM' END, `
    + `'manager', ${shownManager}, 'attributes', json_array())`;
}
