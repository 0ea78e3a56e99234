// The hand-written identities of the bundled fixtures (fixtures/README.md "Hand-added cases"):
// one per documented example that needs specific data (reference Appendix A) — Āric Dubçek,
// "mac-donalds", "Dr. JOHN D. O'BRIEN", Jonathan "John" Doe, the temporary-password guide, the
// entitlement example's "All AD Users-rshwart", "Enrique Jose-Piñon", "corporate.admin".

import type { Account, Identity } from '../../providers/types.js';
import { AD_DOMAIN, SOURCE_IDS } from './data.js';
import type { GeneratedIdentity } from './records.js';

const S = { wd: SOURCE_IDS.workday, ad: SOURCE_IDS.activeDirectory, okta: SOURCE_IDS.okta, hr: SOURCE_IDS.hrSource, p: SOURCE_IDS.partners };
const DC = AD_DOMAIN;
const g = (name: string) => `CN=${name},OU=Groups,${DC}`;

interface WorkdayRow {
  FIRST_NAME: string;
  LAST_NAME: string;
  PREFERRED_NAME?: string;
  EMAIL?: string;
  DEPARTMENT: string;
  JOB_TITLE: string;
  status?: string;
  HIREDATE: string;
  TERMINATION_DATE?: string;
  LOCATION: string;
  COUNTRY: string;
  PHONE?: string;
  created: string;
}

interface HrRow {
  FirstName: string;
  LastName: string;
  empType?: string | null;
  status?: string;
  department: string;
  hire_date: string;
  termination_date?: string;
  end_date?: string;
  country?: string;
  language?: string;
  created: string;
}

/**
 * The special cases, in fixture order. Ids are fixed (`2c9180f1…` identities, `2c9180f2…`
 * accounts); `rootId` is the generated identity #0, the manager of most of them.
 */
export function specialCases(rootId: string): GeneratedIdentity[] {
  const out: { identity: Identity; accounts: Account[] }[] = [];
  let n = 0;
  const hid = (k: number) => `2c9180f1${String(k).padStart(24, '0')}`;
  const acc = (identityId: string, sourceId: string, nativeIdentity: string, name: string, created: string, hasEntitlements: boolean, attributes: Record<string, unknown>) => {
    n++;
    out.find((e) => e.identity.id === identityId)!.accounts.push({ id: `2c9180f2${String(n).padStart(24, '0')}`, identityId, sourceId, nativeIdentity, name, created, hasEntitlements, attributes });
  };
  const ident = (k: number, name: string, attributes: Record<string, unknown>, managerId: string | null) => {
    out.push({ identity: { id: hid(k), name, attributes: { uid: name, ...attributes }, managerId }, accounts: [] });
    return hid(k);
  };
  const base = (o: Record<string, unknown>) => ({ firstname: null, lastname: null, preferredName: null, displayName: null, email: null, department: null, title: null, location: null, country: null, employeeNumber: null, phone: null, networkDn: null, workerType: 'Employee', lifecycleState: 'active', ...o });
  const wd = (id: string, emp: string, o: WorkdayRow) => acc(id, S.wd, emp, `${o.FIRST_NAME} ${o.LAST_NAME}`, o.created, false, { EMPLOYEE_ID: emp, FIRST_NAME: o.FIRST_NAME, LAST_NAME: o.LAST_NAME, PREFERRED_NAME: o.PREFERRED_NAME ?? null, EMAIL: o.EMAIL ?? null, DEPARTMENT: o.DEPARTMENT, JOB_TITLE: o.JOB_TITLE, WORKER_STATUS__c: o.status ?? 'active', WORKER_TYPE: 'Employee', HIREDATE: o.HIREDATE, TERMINATION_DATE: o.TERMINATION_DATE ?? null, LOCATION: o.LOCATION, COUNTRY: o.COUNTRY, PHONE: o.PHONE ?? null, MANAGER_ID: null, COST_CENTER: '410203' });
  const hr = (id: string, emp: string, o: HrRow) => acc(id, S.hr, emp, `${o.FirstName} ${o.LastName}`, o.created, false, { employeeID: emp, FirstName: o.FirstName, LastName: o.LastName, empType: 'empType' in o ? o.empType : 'Employee', status: o.status ?? 'active', department: o.department, JobTitle: 'Engineer', JobCode: 'E42', hire_date: o.hire_date, startDate: `${o.hire_date}T09:00:00.000Z`, termination_date: o.termination_date ?? null, end_date: o.end_date ?? null, country: o.country ?? 'United States of America', language: o.language ?? 'English', phone: null, Location: 'Austin, TX' });

  // 1. The uid getReferenceIdentityAttribute's doc example names; no account at all.
  ident(1, 'corporate.admin', base({ firstname: 'Corporate', lastname: 'Admin', displayName: 'Corporate Admin', email: 'corporate.admin@example.com', department: 'IT Operations', phone: '+1 512 555 0100' }), null);

  // 2. Doc decomposeDiacriticalMarks: "Āric" and "Dubçek".
  const aric = ident(2, 'aric.dubcek', base({ firstname: 'Āric', lastname: 'Dubček', displayName: 'Āric Dubček', email: 'aric.dubcek@example.com', department: 'Finance', employeeNumber: '900002' }), rootId);
  wd(aric, '900002', { FIRST_NAME: 'Āric', LAST_NAME: 'Dubček', EMAIL: 'aric.dubcek@example.com', DEPARTMENT: 'Finance', JOB_TITLE: 'Accountant', HIREDATE: '04/01/1975', LOCATION: 'PRG', COUNTRY: 'CZ', PHONE: '221 234 567', created: '1975-03-20T08:00:00.000Z' });
  hr(aric, '9002', { FirstName: 'Āric', LastName: 'Dubçek', department: 'Finance', hire_date: '1975-04-01', country: 'Česko', language: 'CES', created: '2010-01-04T08:00:00.000Z' });

  // 3. normalizeNames: the tenant observation "mac-donalds" → "Mac-donalds".
  const mac = ident(3, 'seamus.mac-donalds', base({ firstname: 'Seamus', lastname: 'Mac-Donalds', displayName: 'Seamus Mac-Donalds', department: 'Sales', employeeNumber: '900003' }), rootId);
  wd(mac, '900003', { FIRST_NAME: 'Seamus', LAST_NAME: 'Mac-Donalds', DEPARTMENT: 'Sales', JOB_TITLE: 'Account Executive', HIREDATE: '06/15/2015', LOCATION: 'LON', COUNTRY: 'GB', PHONE: '020 7946 0958', created: '2015-06-01T08:00:00.000Z' });
  hr(mac, '9003', { FirstName: 'seamus', LastName: 'mac-donalds', department: 'Sales', hire_date: '2015-06-15', country: 'United Kingdom', language: 'English', created: '2015-06-20T08:00:00.000Z' });

  // 4. normalizeNames doc example "Dr. JOHN D. O'BRIEN" (stored in LastName, as in the doc).
  const obrien = ident(4, 'jd.obrien', base({ firstname: 'John', lastname: "O'Brien", displayName: "John O'Brien", department: 'Legal', employeeNumber: '900004', email: 'jd.obrien@example.com' }), rootId);
  wd(obrien, '900004', { FIRST_NAME: 'John', LAST_NAME: "O'Brien", EMAIL: 'jd.obrien@example.com', DEPARTMENT: 'Legal', JOB_TITLE: 'Counsel', HIREDATE: '09/01/2001', LOCATION: 'DAL', COUNTRY: 'US', PHONE: '214-555-0199', created: '2001-08-20T08:00:00.000Z' });
  hr(obrien, '9004', { FirstName: 'JOHN', LastName: "Dr. JOHN D. O'BRIEN", department: 'Legal', hire_date: '2001-09-01', created: '2001-09-02T08:00:00.000Z' });

  // 5. displayName doc example (preferred John / given Jonathan / family Doe); a *DELETED* Workday
  //    record (accountFilter doc example) that is the oldest.
  const jdoe = ident(5, 'jdoe', base({ firstname: 'Jonathan', lastname: 'Doe', preferredName: 'John', displayName: 'John Doe', email: 'jdoe@example.com', department: 'Engineering', employeeNumber: '900005', networkDn: `CN=John Doe,OU=Engineering,OU=Users,${DC}` }), rootId);
  wd(jdoe, '900005', { FIRST_NAME: 'Jonathan', LAST_NAME: 'Doe', PREFERRED_NAME: 'John', EMAIL: 'jdoe@example.com', DEPARTMENT: 'Engineering', JOB_TITLE: 'Staff Engineer', HIREDATE: '03/02/2018', LOCATION: 'AUS', COUNTRY: 'US', PHONE: '(512) 346-2000', created: '2018-02-20T08:00:00.000Z' });
  wd(jdoe, '*DELETED*900005', { FIRST_NAME: 'Jonathan', LAST_NAME: 'Doe', DEPARTMENT: 'Engineering', JOB_TITLE: 'Software Engineer', HIREDATE: '01/05/2012', status: 'terminated', TERMINATION_DATE: '12/31/2016', LOCATION: 'AUS', COUNTRY: 'US', created: '2011-12-28T08:00:00.000Z' });
  acc(jdoe, S.ad, 'jdoe', 'John Doe', '2018-03-02T10:00:00.000Z', true, { sAMAccountName: 'jdoe', displayName: 'John Doe', givenName: 'John', sn: 'Doe', mail: 'jdoe@example.com', userPrincipalName: 'jdoe@corp.example.com', distinguishedName: `CN=John Doe,OU=Engineering,OU=Users,${DC}`, memberOf: [g('All AD Users'), g('Engineering'), g('VPN Users')], department: 'Engineering', title: 'Staff Engineer', employeeID: '900005', l: 'Austin', co: 'US', telephoneNumber: '(512) 346-2000', manager: null, userAccountControl: '512', objectGUID: '7f3e2a10-5b1c-4d2e-9f00-1a2b3c4d5e6f' });

  // 6. Temporary-password guide: Lewis hamilton, hired 2020-12-12 → "lHamilton12RstP*!7".
  const lewis = ident(6, 'lhamilton', base({ firstname: 'Lewis', lastname: 'Hamilton', displayName: 'Lewis Hamilton', email: 'lewis.hamilton@example.com', department: 'Engineering' }), rootId);
  hr(lewis, '100010', { FirstName: 'Lewis', LastName: 'hamilton', department: 'Engineering', hire_date: '2020-12-12', end_date: '2023-11-01', termination_date: '2023-11-01T00:00:00.000Z', status: 'terminated', created: '2020-12-01T08:00:00.000Z' });

  // 7. The entitlement doc example: memberOf holds "All AD Users-rshwart"; an older SVC- account
  //    (so the default oldest-first sort would pick it without the displayName filter); two HR
  //    Source records; a Partner Accounts "Austin, TX".
  const ruth = ident(7, 'rshwart', base({ firstname: 'Ruth', lastname: 'Shwart', displayName: 'Ruth Shwart', email: 'ruth.shwart@example.com', department: 'IT Operations', employeeNumber: '900007', networkDn: `CN=Ruth Shwart,OU=IT Operations,OU=Users,${DC}` }), rootId);
  wd(ruth, '900007', { FIRST_NAME: 'Ruth', LAST_NAME: 'Shwart', EMAIL: 'ruth.shwart@example.com', DEPARTMENT: 'IT Operations', JOB_TITLE: 'Systems Administrator', HIREDATE: '07/01/2019', LOCATION: 'AUS', COUNTRY: 'US', PHONE: '779.284.2727', created: '2019-06-15T08:00:00.000Z' });
  acc(ruth, S.ad, 'SVC-backup-rshwart', 'SVC-backup Ruth Shwart', '2017-01-10T08:00:00.000Z', true, { sAMAccountName: 'SVC-backup-rshwart', displayName: 'SVC-backup Ruth Shwart', givenName: null, sn: null, mail: null, userPrincipalName: 'SVC-backup-rshwart@corp.example.com', distinguishedName: `CN=SVC-backup-rshwart,OU=Service Accounts,${DC}`, memberOf: [g('Service Accounts'), g('Backup Operators')], department: 'IT Operations', title: null, employeeID: null, l: null, co: null, telephoneNumber: null, manager: null, userAccountControl: '66048', objectGUID: '0c1d2e3f-4a5b-4c6d-8e7f-901234567890' });
  acc(ruth, S.ad, 'rshwart', 'Ruth Shwart', '2019-07-01T09:00:00.000Z', true, { sAMAccountName: 'rshwart', displayName: 'Ruth Shwart', givenName: 'Ruth', sn: 'Shwart', mail: 'ruth.shwart@example.com', userPrincipalName: 'rshwart@corp.example.com', distinguishedName: `CN=Ruth Shwart,OU=IT Operations,OU=Users,${DC}`, memberOf: [g('All AD Users-rshwart'), g('IT Ops'), g('VPN Users')], department: 'IT Operations', title: 'Systems Administrator', employeeID: '900007', l: 'Austin', co: 'US', telephoneNumber: '779.284.2727', manager: null, userAccountControl: '512', objectGUID: '1d2e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6' });
  acc(ruth, S.okta, '00uRuthShwart0001', 'ruth.shwart@example.com', '2019-07-02T09:00:00.000Z', true, { id: '00uRuthShwart0001', login: 'ruth.shwart@example.com', email: 'ruth.shwart@example.com', firstName: 'Ruth', lastName: 'Shwart', status: 'ACTIVE', mobilePhone: null, groups: ['Everyone', 'Slack'], lastLogin: '2026-01-10T08:00:00.000Z' });
  hr(ruth, '1234', { FirstName: 'Ruth', LastName: 'Shwart', department: 'Science', hire_date: '2019-07-01', created: '2019-07-03T08:00:00.000Z', empType: 'Contractor' });
  hr(ruth, '1234-OLD', { FirstName: 'Ruth', LastName: 'Shwart', department: 'IT Operations', hire_date: '2012-02-01', status: 'terminated', end_date: '2015-03-31', termination_date: '2015-03-31T00:00:00.000Z', created: '2012-01-20T08:00:00.000Z' });
  acc(ruth, S.p, 'P-1234', 'Ruth Shwart', '2019-07-05T08:00:00.000Z', false, { partnerId: 'P-1234', firstName: 'Ruth', lastName: 'Shwart', Email: 'ruth.shwart@example.com', Company: 'Acme Consulting', Location: 'Austin, TX', Sponsor: null, contractEnd: null });

  // 8. replaceAll doc example "Enrique Jose-Piñon".
  const enrique = ident(8, 'enrique.jose-pinon', base({ firstname: 'Enrique', lastname: 'Jose-Piñon', displayName: 'Enrique Jose-Piñon', department: 'Customer Success', employeeNumber: '900008' }), jdoe);
  wd(enrique, '900008', { FIRST_NAME: 'Enrique', LAST_NAME: 'Jose-Piñon', DEPARTMENT: 'Customer Success', JOB_TITLE: 'Support Engineer', HIREDATE: '11/11/2011', LOCATION: 'MEX', COUNTRY: 'MX', PHONE: '55 1234 5678', created: '2011-11-01T08:00:00.000Z' });
  hr(enrique, '9008', { FirstName: 'Enrique', LastName: 'Jose-Piñon', department: 'Customer Success', hire_date: '2011-11-11', country: 'México', language: 'Spanish', created: '2011-11-12T08:00:00.000Z', empType: null });

  // 9. Multi-part surname in upper case (normalizeNames "OSCAR DE LA HOYA"), a Science department.
  const oscar = ident(9, 'odelahoya', base({ firstname: 'Oscar', lastname: 'de la Hoya', displayName: 'Oscar de la Hoya', department: 'Science', employeeNumber: '900009', email: 'odelahoya@example.com' }), jdoe);
  wd(oscar, '900009', { FIRST_NAME: 'Oscar', LAST_NAME: 'de la Hoya', EMAIL: 'odelahoya@example.com', DEPARTMENT: 'Science', JOB_TITLE: 'Scientist', HIREDATE: '02/29/2016', LOCATION: 'HOU', COUNTRY: 'US', PHONE: '512-777-2222', created: '2016-02-15T08:00:00.000Z' });
  hr(oscar, '9009', { FirstName: 'OSCAR', LastName: 'DE LA HOYA', department: 'Science', hire_date: '2016-02-29', created: '2016-03-01T08:00:00.000Z' });
  return out;
}
