// The identity and account records of one generated person (README "Fixture format"): Workday
// (rehires), Active Directory (service and admin accounts, multi-valued memberOf), Okta, HR Source
// (raw-case names), Corporate HR (position history) and Partner Accounts.

import type { Account, Identity } from '../../providers/types.js';
import {
  accountId,
  AD_BASE_GROUP,
  AD_DOMAIN,
  EMAIL_DOMAIN,
  OKTA_GROUPS,
  PARTNER_COMPANIES,
  SERVICE_PURPOSES,
  SOURCE_IDS,
  TENANT_NOW,
} from './data.js';
import { formatIso, formatMdy, formatYmd, type Person, type TenantShape } from './person.js';
import { Prng } from './prng.js';

const DAY = 86_400_000;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface GeneratedIdentity {
  readonly identity: Identity;
  /** The identity's accounts, grouped by source in sources.json order (not by date). */
  readonly accounts: Account[];
}

/** Builds records with consecutive account slots for one identity. */
class Builder {
  readonly accounts: Account[] = [];
  constructor(private readonly p: Person) {}

  add(sourceId: string, nativeIdentity: string, name: string, created: number, hasEntitlements: boolean, attributes: Record<string, unknown>): void {
    this.accounts.push({
      id: accountId(this.p.index, this.accounts.length),
      identityId: this.p.id,
      sourceId,
      nativeIdentity,
      name,
      created: formatIso(created),
      hasEntitlements,
      attributes,
    });
  }
}

function groupDn(group: string): string {
  return `CN=${group},OU=Groups,${AD_DOMAIN}`;
}

/** The distinguished name of a person's directory account (commas in a CN escaped). */
export function personDn(p: Person): string {
  return `CN=${p.displayName.replace(/([,+"\\<>;=])/g, '\\$1')},OU=${p.department.name.replace(/&/g, 'and')},OU=Users,${AD_DOMAIN}`;
}

function raggedCase(r: Prng, text: string): string {
  const roll = r.next();
  if (roll < 0.12) return text.toUpperCase();
  if (roll < 0.2) return text.toLowerCase();
  return text;
}

function workday(b: Builder, r: Prng, p: Person, manager: Person | null): void {
  const record = (employeeId: string, status: string, hire: number, end: number | null, departmentName: string) => ({
    EMPLOYEE_ID: employeeId,
    FIRST_NAME: p.first,
    LAST_NAME: p.last,
    PREFERRED_NAME: p.preferred,
    EMAIL: p.email,
    DEPARTMENT: departmentName,
    JOB_TITLE: p.title,
    WORKER_STATUS__c: status,
    WORKER_TYPE: p.workerType,
    HIREDATE: formatMdy(hire),
    TERMINATION_DATE: end === null ? null : formatMdy(end),
    LOCATION: p.location.code,
    COUNTRY: p.location.country,
    PHONE: p.phone,
    MANAGER_ID: manager === null ? null : manager.employeeId,
    COST_CENTER: `4${r.digits(5)}`,
  });
  const created = Math.min(p.hire - r.between(7, 40) * DAY + r.int(86_400) * 1000, TENANT_NOW - DAY);
  b.add(SOURCE_IDS.workday, p.employeeId, `${p.first} ${p.last}`, created, false, record(p.employeeId, p.status, p.hire, p.end, p.department.name));
  // A rehire keeps the earlier, terminated worker record: listed after the current one so
  // that the default sort (oldest created first) changes which record answers.
  if (p.status !== 'pre-hire' && r.chance(0.07)) {
    const oldEnd = p.hire - r.between(30, 400) * DAY;
    const oldHire = oldEnd - r.between(365, 3000) * DAY;
    const oldDepartment = r.chance(0.5) ? p.department.name : 'Customer Success';
    b.add(SOURCE_IDS.workday, `${p.employeeId}-R`, `${p.first} ${p.last}`, oldHire - 10 * DAY, false, record(`${p.employeeId}-R`, 'terminated', oldHire, oldEnd, oldDepartment));
  }
}

function activeDirectory(b: Builder, r: Prng, p: Person, manager: Person | null): string | null {
  const present = p.partnerOnly ? r.chance(0.5) : p.status === 'pre-hire' ? r.chance(0.3) : r.chance(0.93);
  if (!present) return null;
  const dn = personDn(p);
  const created = p.status === 'pre-hire' ? TENANT_NOW - r.between(1, 20) * DAY : Math.min(p.hire + r.int(4) * DAY + r.int(86_400) * 1000, TENANT_NOW - DAY);
  let memberOf: string[] | null;
  if (p.status === 'terminated') memberOf = r.chance(0.3) ? null : [];
  else {
    memberOf = [];
    if (r.chance(0.92)) memberOf.push(groupDn(AD_BASE_GROUP));
    for (const g of r.sample(p.department.groups, r.between(0, p.department.groups.length))) memberOf.push(groupDn(g));
  }
  b.add(SOURCE_IDS.activeDirectory, p.uid, p.displayName, created, memberOf !== null && memberOf.length > 0, {
    sAMAccountName: p.uid,
    displayName: p.displayName,
    givenName: p.preferred ?? p.first,
    sn: p.last,
    mail: p.email === null || r.chance(0.04) ? null : p.email,
    userPrincipalName: `${p.uid}@corp.${EMAIL_DOMAIN}`,
    distinguishedName: dn,
    memberOf,
    department: p.department.name,
    title: p.title,
    employeeID: p.employeeId,
    l: p.location.city,
    co: p.location.country,
    telephoneNumber: p.phone,
    manager: manager === null ? null : personDn(manager),
    userAccountControl: p.status === 'terminated' ? '514' : '512',
    objectGUID: r.uuid(),
  });
  // Service accounts: often older than the person's own account, which is why the platform's
  // doc example filters them out with !(displayName.startsWith("SVC-")).
  if (r.chance(0.08)) {
    for (const purpose of r.sample(SERVICE_PURPOSES, r.between(1, 2))) {
      const sam = `SVC-${purpose}-${p.uid}`;
      const svcCreated = r.chance(0.6) ? created - r.between(1, 900) * DAY : created + r.between(1, 300) * DAY;
      b.add(SOURCE_IDS.activeDirectory, sam, `SVC-${purpose} ${p.displayName}`, Math.min(svcCreated, TENANT_NOW - DAY), true, {
        sAMAccountName: sam,
        displayName: `SVC-${purpose} ${p.displayName}`,
        givenName: null,
        sn: null,
        mail: null,
        userPrincipalName: `${sam}@corp.${EMAIL_DOMAIN}`,
        distinguishedName: `CN=SVC-${purpose}-${p.uid},OU=Service Accounts,${AD_DOMAIN}`,
        memberOf: [groupDn('Service Accounts'), ...(purpose === 'backup' ? [groupDn('Backup Operators')] : [])],
        department: p.department.name,
        title: null,
        employeeID: null,
        l: null,
        co: null,
        telephoneNumber: null,
        manager: null,
        userAccountControl: '66048',
        objectGUID: r.uuid(),
      });
    }
  }
  const adminLikely = p.department.name === 'IT Operations' || p.department.name === 'Engineering';
  if (p.status !== 'terminated' && r.chance(adminLikely ? 0.3 : 0.02)) {
    const sam = `adm-${p.uid}`;
    b.add(SOURCE_IDS.activeDirectory, sam, `Admin ${p.displayName}`, Math.min(created + r.between(10, 700) * DAY, TENANT_NOW - DAY), true, {
      sAMAccountName: sam,
      displayName: `Admin ${p.displayName}`,
      givenName: p.first,
      sn: p.last,
      mail: null,
      userPrincipalName: `${sam}@corp.${EMAIL_DOMAIN}`,
      distinguishedName: `CN=Admin ${p.displayName.replace(/([,+"\\<>;=])/g, '\\$1')},OU=Admins,${AD_DOMAIN}`,
      memberOf: [groupDn('Domain Admins'), groupDn('Server Admins')],
      department: p.department.name,
      title: p.title,
      employeeID: p.employeeId,
      l: p.location.city,
      co: p.location.country,
      telephoneNumber: null,
      manager: null,
      userAccountControl: '512',
      objectGUID: r.uuid(),
    });
  }
  return dn;
}

function okta(b: Builder, r: Prng, p: Person, hasDirectory: boolean): void {
  if (!r.chance(hasDirectory && p.status !== 'pre-hire' ? 0.7 : 0.15)) return;
  let oktaId = '00u';
  for (let i = 0; i < 17; i++) oktaId += BASE62[r.int(62)];
  const login = p.email ?? `${p.uid}@${EMAIL_DOMAIN}`;
  const created = Math.min(p.hire + r.between(0, 30) * DAY + r.int(86_400) * 1000, TENANT_NOW - DAY);
  b.add(SOURCE_IDS.okta, oktaId, login, created, true, {
    id: oktaId,
    login,
    email: p.email,
    firstName: p.preferred ?? p.first,
    lastName: p.last,
    status: p.status === 'terminated' ? 'DEPROVISIONED' : p.status === 'leave' ? 'SUSPENDED' : 'ACTIVE',
    mobilePhone: r.chance(0.5) ? p.phone : null,
    groups: ['Everyone', ...r.sample(OKTA_GROUPS.slice(1), r.between(0, 4))],
    lastLogin: p.status === 'active' && r.chance(0.9) ? formatIso(TENANT_NOW - r.int(60 * 86_400) * 1000) : null,
  });
}

function hrSource(b: Builder, r: Prng, p: Person): void {
  if (p.partnerOnly || !r.chance(0.7)) return;
  const firstName = raggedCase(r, p.first);
  const lastName = raggedCase(r, p.last);
  const empType = p.workerType === 'Employee' ? (r.chance(0.92) ? 'Employee' : null) : r.weighted<string | null>([['Contractor', 7], ['Intern', 2], [null, 1]]);
  const record = (id: string, status: string, hire: number, end: number | null) => ({
    employeeID: id,
    FirstName: firstName,
    LastName: lastName,
    empType,
    status,
    department: p.department.name,
    JobTitle: r.chance(0.05) ? ` ${p.title} ` : p.title,
    JobCode: `E${r.between(10, 99)}`,
    hire_date: formatYmd(hire),
    startDate: formatIso(hire + 9 * 3_600_000),
    termination_date: end === null ? null : formatIso(end),
    end_date: end === null ? null : formatYmd(end),
    country: r.pick(p.location.countryNames),
    language: r.pick(p.location.languages),
    phone: p.phone,
    Location: `${p.location.city}, ${p.location.region}`,
  });
  const created = Math.min(p.hire + r.between(1, 60) * DAY, TENANT_NOW - DAY);
  b.add(SOURCE_IDS.hrSource, p.hrEmployeeId, `${firstName} ${lastName}`, created, false, record(p.hrEmployeeId, p.status === 'terminated' ? 'terminated' : 'active', p.hire, p.end));
  if (r.chance(0.05)) {
    const oldHire = p.hire - r.between(400, 3000) * DAY;
    b.add(SOURCE_IDS.hrSource, `${p.hrEmployeeId}-OLD`, `${firstName} ${lastName}`, oldHire, false, record(`${p.hrEmployeeId}-OLD`, 'terminated', oldHire, p.hire - 20 * DAY));
  }
}

function corporateHr(b: Builder, r: Prng, p: Person): void {
  if (p.partnerOnly || p.status === 'pre-hire' || !r.chance(0.45)) return;
  const count = r.weighted([[1, 6], [2, 3], [3, 1]]);
  const starts: number[] = [p.hire];
  for (let i = 1; i < count; i++) starts.push(Math.min(starts[i - 1]! + r.between(200, 1500) * DAY, TENANT_NOW - 30 * DAY));
  const last = count - 1;
  const lastStatus = p.status === 'terminated' ? 'terminated' : p.status === 'leave' ? 'inactive' : 'active';
  // Written newest first, so the order in the file is not the created order.
  for (let i = last; i >= 0; i--) {
    b.add(SOURCE_IDS.corporateHr, `CHR-${p.hrEmployeeId}-${i + 1}`, `${p.displayName} (${i + 1})`, starts[i]! + r.int(86_400) * 1000, false, {
      WORKER_ID: p.hrEmployeeId,
      RECORD_SEQ: i + 1,
      WORKER_STATUS__c: i === last ? lastStatus : 'inactive',
      HIREDATE: formatMdy(starts[i]!),
      EFFECTIVE_DATE: formatYmd(starts[i]!),
      DEPARTMENT: i === last ? p.department.code : r.pick(['D100', 'D200', 'D400', p.department.code]),
      POSITION: i === last ? p.title : null,
      COST_CENTER: `4${r.digits(5)}`,
    });
  }
}

function partners(b: Builder, r: Prng, p: Person, manager: Person | null): void {
  if (!p.partnerOnly && !(p.workerType === 'Contingent Worker' && r.chance(0.25))) return;
  b.add(SOURCE_IDS.partners, `P-${p.hrEmployeeId}`, p.displayName, Math.min(p.hire + r.int(10) * DAY, TENANT_NOW - DAY), false, {
    partnerId: `P-${p.hrEmployeeId}`,
    firstName: p.first,
    lastName: p.last,
    Email: p.email,
    Company: r.pick(PARTNER_COMPANIES),
    Location: `${p.location.city}, ${p.location.region}`,
    Sponsor: manager === null ? null : manager.email,
    contractEnd: p.end === null ? null : formatYmd(p.end),
  });
}

const LIFECYCLE: Record<Person['status'], string> = { active: 'active', leave: 'inactive', terminated: 'terminated', 'pre-hire': 'prehire' };

/** The identity record and accounts of identity `index`. */
export function generateRecords(shape: TenantShape, p: Person, manager: Person | null): GeneratedIdentity {
  const r = Prng.for(shape.seedHash, p.index, 2);
  const b = new Builder(p);
  if (!p.partnerOnly) workday(b, r, p, manager);
  const dn = activeDirectory(b, r, p, manager);
  okta(b, r, p, dn !== null);
  hrSource(b, r, p);
  corporateHr(b, r, p);
  partners(b, r, p, manager);
  const identity: Identity = {
    id: p.id,
    name: p.uid,
    attributes: {
      uid: p.uid,
      firstname: p.first,
      lastname: p.last,
      preferredName: p.preferred,
      displayName: p.displayName,
      email: p.email,
      department: p.department.name,
      title: p.title,
      location: p.location.city,
      country: p.location.country,
      employeeNumber: p.partnerOnly ? null : p.employeeId,
      phone: p.phone,
      networkDn: dn,
      workerType: p.workerType,
      lifecycleState: LIFECYCLE[p.status],
    },
    managerId: manager === null ? null : manager.id,
  };
  return { identity, accounts: b.accounts };
}
