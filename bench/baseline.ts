// The refresh benchmark's baseline: the bundled identity profile
// (fixtures/identity-profiles/default.json) written by hand as plain TypeScript, without the
// engine. bench/refresh.ts checks that it gives byte-identical NDJSON before timing it, so any
// change to the profile or to the engine's semantics shows up as a verification failure here.

import type { Account, Identity } from '../src/providers/types.js';

const WORKDAY = '2c9180857c1c5f4a017c2d8e0f4b1a01';
const AD = '2c9180835d2e5168015d32f890ca1581';
const OKTA = '2c9180867d3e4b5a017d4f6a7b8c0d03';
const HR = '2c9180877e4f5c6b017e5a7b8c9d0e04';
const CORPORATE_HR = '2c9180887f5a6d7c017f6b8c9d0e1f05';
const PARTNER = '2c918089805b7e8d01807c9d0e1f2006';

type Value = string | number | boolean | null | readonly unknown[];

const LOCATION: Record<string, string> = {
  AUS: 'Austin', HOU: 'Houston', DAL: 'Dallas', LON: 'London', PAR: 'Paris', BER: 'Berlin', MAD: 'Madrid',
  MEX: 'Mexico City', SAO: 'São Paulo', TYO: 'Tokyo', SYD: 'Sydney', BLR: 'Bengaluru', OSL: 'Oslo', PRG: 'Prague',
};
const COUNTRY: Record<string, string> = {
  AUS: 'US', HOU: 'US', DAL: 'US', REM: 'US', LON: 'GB', PAR: 'FR', BER: 'DE', MAD: 'ES', MEX: 'MX', SAO: 'BR',
  TYO: 'JP', SYD: 'AU', BLR: 'IN', OSL: 'NO', PRG: 'CZ',
};
const REGION: Record<string, string> = {
  AUS: 'Americas', HOU: 'Americas', DAL: 'Americas', REM: 'Americas', MEX: 'Americas', SAO: 'Americas',
  LON: 'EMEA', PAR: 'EMEA', BER: 'EMEA', MAD: 'EMEA', OSL: 'EMEA', PRG: 'EMEA', TYO: 'APAC', SYD: 'APAC', BLR: 'APAC',
};

function has(table: Record<string, string>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(table, key);
}

function read(account: Account, name: string): Value {
  const v = account.attributes[name];
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return null;
  return v as Value;
}

/** Sort key of the profile's sort attributes (created: an ISO instant; RECORD_SEQ: a number). */
function key(account: Account, attribute: 'created' | 'RECORD_SEQ'): number | null {
  if (attribute === 'created') return Date.parse(account.created);
  const v = account.attributes.RECORD_SEQ;
  return typeof v === 'number' ? v : null;
}

/** Stable sort with nulls last in both directions (the engine's accountSortAttribute rule). */
function sorted(accounts: Account[], attribute: 'created' | 'RECORD_SEQ', descending: boolean): Account[] {
  if (accounts.length < 2) return accounts;
  return accounts
    .map((account, index) => ({ account, index, k: key(account, attribute) }))
    .sort((a, b) => {
      if (a.k === null || b.k === null) return a.k === null && b.k === null ? a.index - b.index : a.k === null ? 1 : -1;
      const c = a.k - b.k;
      return c !== 0 ? (descending ? -c : c) : a.index - b.index;
    })
    .map((x) => x.account);
}

function firstValue(accounts: Account[], name: string): Value {
  for (const a of accounts) {
    const v = read(a, name);
    if (v !== null) return v;
  }
  return null;
}

const str = (v: Value): string | null => (v === null ? null : String(v));

/** The bundled profile's attributes for one identity, in the profile's order. */
export function baselineAttributes(identity: Identity, accounts: readonly Account[], manager: Identity | null): Record<string, Value> {
  const bySource = new Map<string, Account[]>();
  for (const a of accounts) {
    const list = bySource.get(a.sourceId);
    if (list) list.push(a);
    else bySource.set(a.sourceId, [a]);
  }
  const on = (source: string) => bySource.get(source) ?? [];
  const workday = sorted(on(WORKDAY), 'created', false);
  // accountFilter: not a service account (SVC-) nor an admin account (adm-).
  const ad = sorted(
    on(AD).filter((a) => !a.name.startsWith('SVC-') && !a.nativeIdentity.startsWith('adm-')),
    'created',
    false,
  );
  const okta = sorted(on(OKTA), 'created', false);
  const hr = sorted(on(HR), 'created', false);
  const partner = sorted(on(PARTNER), 'created', false);
  const wd = (name: string) => firstValue(workday, name);

  const oktaLogin = firstValue(okta, 'login');
  const uid = firstValue(ad, 'sAMAccountName') ?? (oktaLogin === null ? null : String(oktaLogin).replace(/@.*$/, '')) ?? wd('EMPLOYEE_ID');
  const preferred = wd('PREFERRED_NAME') ?? 'none';
  const first = wd('FIRST_NAME') ?? firstValue(hr, 'FirstName') ?? firstValue(partner, 'firstName') ?? 'none';
  const last = wd('LAST_NAME') ?? firstValue(hr, 'LastName') ?? firstValue(partner, 'lastName') ?? 'none';
  const department = str(wd('DEPARTMENT'));
  const title = str(wd('JOB_TITLE'));
  const location = str(wd('LOCATION'));

  const latestWorkday = sorted(on(WORKDAY), 'created', true);
  const status = latestWorkday.length > 0 ? (read(latestWorkday[0]!, 'WORKER_STATUS__c') ?? 'none') : 'none';
  const lifecycle =
    status === 'active' ? 'active' : status === 'leave' ? 'inactive' : status === 'terminated' ? 'terminated' : status === 'pre-hire' ? 'prehire' : 'contractor';

  const notTerminated = (a: Account) => a.attributes.WORKER_STATUS__c !== 'terminated';
  const employeeNumber =
    firstValue(sorted(on(WORKDAY).filter(notTerminated), 'created', true), 'EMPLOYEE_ID') ?? wd('EMPLOYEE_ID') ?? firstValue(hr, 'employeeID');

  const activeCorporate = sorted(on(CORPORATE_HR).filter((a) => a.attributes.WORKER_STATUS__c === 'active'), 'created', true);
  const hireDate = activeCorporate.length > 0 ? read(activeCorporate[0]!, 'HIREDATE') : null;
  const costCenter = str(firstValue(sorted(on(CORPORATE_HR).filter(notTerminated), 'RECORD_SEQ', true), 'COST_CENTER'));

  // Worker Type Label and Okta Login Of Active Account name their source by name only.
  const empType = firstValue(hr, 'empType') ?? 'none';
  const workerType = empType === 'Employee' ? 'Full-Time' : empType === 'none' ? 'Unknown' : 'Contingent';
  const managerDn = manager?.attributes.networkDn;
  const vpn = sorted(on(AD).filter((a) => {
    const groups = a.attributes.memberOf;
    return Array.isArray(groups) ? groups.some((g) => typeof g === 'string' && g.includes('CN=VPN Users')) : typeof groups === 'string' && groups.includes('CN=VPN Users');
  }), 'created', false);
  const phone = str(wd('PHONE'));

  return {
    uid,
    firstname: wd('FIRST_NAME'),
    lastname: wd('LAST_NAME'),
    preferredName: wd('PREFERRED_NAME'),
    displayName: `${preferred !== 'none' ? preferred : first} ${last}`,
    email: firstValue(ad, 'mail') ?? firstValue(okta, 'email') ?? wd('EMAIL') ?? 'none',
    department: department === null ? null : department.replace(/\s*&\s*/g, ' and '),
    title: title === null ? null : title.replace(/^Sr\.? /, 'Senior '),
    location: location !== null && has(LOCATION, location) ? LOCATION[location]! : 'Remote',
    country: location !== null && has(COUNTRY, location) ? COUNTRY[location]! : 'US',
    region: location !== null && has(REGION, location) ? REGION[location]! : 'Unknown',
    lifecycleState: lifecycle,
    employeeNumber,
    hireDate,
    costCenter: costCenter === null ? null : costCenter.replace(/^(\d{3})(\d{3})$/, '$1-$2'),
    workerType,
    managerUid: manager ? manager.name : 'none',
    managerDn: typeof managerDn === 'string' ? managerDn : '',
    networkDn: firstValue(ad, 'distinguishedName'),
    hasITAccess: firstValue(vpn, 'sAMAccountName') === null ? 'FALSE' : 'TRUE',
    phone: phone === null ? null : phone.replace(/[^0-9+]/g, ''),
    oktaLogin: firstValue(okta.filter((a) => a.attributes.status !== 'DEPROVISIONED'), 'login'),
  };
}

/** One NDJSON line, as the engine's refresh writes it. */
export function baselineLine(identity: Identity, accounts: readonly Account[], manager: Identity | null): string {
  return JSON.stringify({ identityId: identity.id, attributes: baselineAttributes(identity, accounts, manager), errors: [] });
}
