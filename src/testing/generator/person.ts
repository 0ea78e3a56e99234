// One generated person of the tenant generator: everything about identity number `index`
// that other records need (names, uid, employee ids, department, manager), rebuilt from
// (seed, index) alone so that a manager can be recomputed instead of remembered.

import {
  asciiFold,
  DEPARTMENTS,
  FIRST_NAMES,
  identityId,
  LAST_NAMES,
  LOCATIONS,
  TENANT_NOW,
  type Department,
  type Location,
} from './data.js';
import { fmix32, hashString, Prng } from './prng.js';

const DAY = 86_400_000;

export type WorkerStatus = 'active' | 'leave' | 'terminated' | 'pre-hire';

export interface Person {
  readonly index: number;
  readonly id: string;
  readonly first: string;
  readonly last: string;
  readonly preferred: string | null;
  readonly displayName: string;
  /** Unique by construction (see TenantShape). */
  readonly uid: string;
  readonly email: string | null;
  /** Workday worker id (also the identity's employeeNumber). */
  readonly employeeId: string;
  /** The legacy HR export's id. */
  readonly hrEmployeeId: string;
  readonly department: Department;
  readonly title: string;
  readonly location: Location;
  readonly status: WorkerStatus;
  readonly workerType: 'Employee' | 'Contingent Worker';
  /** Only a Partner Accounts account (no Workday record). */
  readonly partnerOnly: boolean;
  /** Hire date, UTC midnight (ms). */
  readonly hire: number;
  /** Termination or contract end date, UTC midnight (ms), or null. */
  readonly end: number | null;
  readonly phone: string | null;
  readonly managerIndex: number | null;
}

/** What a seed fixes for the whole tenant: the seed hash and the keys of the name permutation. */
export interface TenantShape {
  readonly seedHash: number;
  readonly keys: readonly number[];
}

const F = FIRST_NAMES.length;
const L = LAST_NAMES.length;
/** Number of (first, last) pairs. */
const M = F * L;
/** Half the bit width of the smallest even-width power of two ≥ M (the Feistel domain). */
const HALF = Math.ceil(Math.ceil(Math.log2(M)) / 2);
const MASK = (1 << HALF) - 1;

export function tenantShape(seed: string): TenantShape {
  const seedHash = hashString(seed);
  const r = new Prng(seedHash);
  return { seedHash, keys: [0, 1, 2, 3].map(() => Math.floor(r.next() * 4294967296)) };
}

/**
 * A keyed permutation of [0, M): a 4-round Feistel network on 2·HALF bits (a permutation
 * whatever the round function), cycle-walked until the value falls inside [0, M).
 */
function permute(shape: TenantShape, value: number): number {
  let x = value;
  do {
    let left = x >>> HALF;
    let right = x & MASK;
    for (const key of shape.keys) [left, right] = [right, left ^ (fmix32(right ^ key) & MASK)];
    x = (left << HALF) | right;
  } while (x >= M);
  return x;
}

/**
 * The (first, last) pair of identity `index` and its uid. Each block of M consecutive indices
 * visits every pair once (a permutation); blocks after the first get a numeric suffix.
 * Folded pool names are distinct, so uids are unique without remembering issued ones.
 */
function names(shape: TenantShape, index: number): { first: (typeof FIRST_NAMES)[number]; last: string; uid: string } {
  const c = permute(shape, index % M);
  const first = FIRST_NAMES[c % F]!;
  const last = LAST_NAMES[Math.floor(c / F)]!;
  const block = Math.floor(index / M);
  const uid = `${asciiFold(first.name).toLowerCase()}.${asciiFold(last).toLowerCase()}${block === 0 ? '' : String(block + 1)}`;
  return { first, last, uid };
}

/** Replace every `#` of a template with a random digit. */
export function fillDigits(r: Prng, template: string): string {
  return template.replace(/#/g, () => String(r.int(10)));
}

/** Build person `index` (draw order is part of the format: changing it changes every tenant). */
export function person(shape: TenantShape, index: number): Person {
  const r = Prng.for(shape.seedHash, index, 1);
  const { first, last, uid } = names(shape, index);
  const department = index === 0 ? DEPARTMENTS.find((d) => d.name === 'Executive')! : r.pick(DEPARTMENTS);
  const title = r.pick(department.titles);
  const location = r.pick(LOCATIONS);
  const status: WorkerStatus =
    index === 0 ? 'active' : r.weighted<WorkerStatus>([['active', 84], ['leave', 4], ['terminated', 8], ['pre-hire', 4]]);
  const workerType = r.chance(0.85) ? 'Employee' : 'Contingent Worker';
  const partnerOnly = index !== 0 && workerType === 'Contingent Worker' && r.chance(0.2);
  let preferred: string | null = null;
  if (first.nick !== undefined && r.chance(0.35)) preferred = first.nick;
  else if (r.chance(0.03)) preferred = r.pick(FIRST_NAMES).name;
  if (preferred === first.name) preferred = null;

  const start1995 = Date.UTC(1995, 0, 1);
  const end2025 = Date.UTC(2025, 11, 31);
  const hire =
    status === 'pre-hire'
      ? Date.UTC(2026, 0, 20) + r.int(160) * DAY
      : start1995 + r.int(Math.floor((end2025 - start1995) / DAY)) * DAY;
  let end: number | null = null;
  if (status === 'terminated') end = Math.min(hire + r.between(30, 4000) * DAY, TENANT_NOW - 5 * DAY - (TENANT_NOW % DAY));
  else if (workerType === 'Contingent Worker' && r.chance(0.6)) end = Date.UTC(2026, 0, 20) + r.int(340) * DAY;

  const phone = r.chance(0.1) ? null : fillDigits(r, r.pick(location.phones));
  const email = r.chance(0.03) ? null : `${uid}@example.com`;
  const managerIndex = index === 0 || r.chance(0.03) ? null : Math.floor((index - 1) / 7);
  return {
    index,
    id: identityId(index),
    first: first.name,
    last,
    preferred,
    displayName: `${preferred ?? first.name} ${last}`,
    uid,
    email,
    employeeId: String(100000 + index),
    hrEmployeeId: String(1000 + index),
    department,
    title,
    location,
    status,
    workerType,
    partnerOnly,
    hire,
    end,
    phone,
    managerIndex,
  };
}

/** A person source with a one-entry memo: consecutive identities mostly share their manager. */
export function personCache(shape: TenantShape): (index: number) => Person {
  let last: Person | null = null;
  return (index) => {
    if (last === null || last.index !== index) last = person(shape, index);
    return last;
  };
}

/** 'MM/dd/yyyy' (Workday, Corporate HR). */
export function formatMdy(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${d.getUTCFullYear()}`;
}

/** 'yyyy-MM-dd' (HR Source). */
export function formatYmd(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function formatIso(ms: number): string {
  return new Date(ms).toISOString();
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
