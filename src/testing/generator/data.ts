// The constant parts of a synthetic tenant (README "Fixture format"): the six
// sources every generated tenant shares (the bundled transforms and profile address them by
// id and name), and the pools names, departments and locations are drawn from.

import type { Source } from '../../providers/types.js';
import { fmix32, hex8 } from './prng.js';

/** Source ids are fixed so that transforms and identity profiles work on every generated tenant. */
export const SOURCE_IDS = {
  workday: '2c9180857c1c5f4a017c2d8e0f4b1a01',
  activeDirectory: '2c9180835d2e5168015d32f890ca1581',
  okta: '2c9180867d3e4b5a017d4f6a7b8c0d03',
  hrSource: '2c9180877e4f5c6b017e5a7b8c9d0e04',
  corporateHr: '2c9180887f5a6d7c017f6b8c9d0e1f05',
  partners: '2c918089805b7e8d01807c9d0e1f2006',
} as const;

/** The id of generated identity number `index` (a bijection of the index: ids never collide). */
export function identityId(index: number): string {
  return `2c918084${hex8(fmix32(index ^ 0x6a09e667))}${hex8(fmix32(index + 0x3c6ef372))}${hex8(fmix32(index ^ 0xa54ff53a))}`;
}

/** The id of the `slot`-th account (0–15) of generated identity number `index`. */
export function accountId(index: number, slot: number): string {
  const n = index * 16 + slot;
  return `2c918085${hex8(fmix32(n ^ 0x1f83d9ab))}${hex8(fmix32(n + 0x510e527f))}${hex8(fmix32(n ^ 0x9b05688c))}`;
}

/** A reference to the identity owning the sources. */
export interface OwnerRef {
  id: string;
  name: string;
}

function source(
  owner: OwnerRef,
  id: string,
  name: string,
  extra: { description: string; type: string; connector: string; authoritative: boolean; created: string; externalId?: string; features: string[] },
): Source {
  return {
    id,
    name,
    applicationName: `${name} [source]`,
    ...(extra.externalId === undefined ? {} : { externalId: extra.externalId }),
    description: extra.description,
    owner: { type: 'IDENTITY', id: owner.id, name: owner.name },
    cluster: null,
    type: extra.type,
    connector: extra.connector,
    authoritative: extra.authoritative,
    healthy: true,
    status: 'SOURCE_STATE_HEALTHY',
    features: extra.features,
    deleteThreshold: 10,
    created: extra.created,
    modified: '2025-11-03T08:15:00.000Z',
  };
}

/** The six sources of every generated tenant, in the order of sources.json, owned by `owner`. */
export function tenantSources(owner: OwnerRef): Source[] {
  return [
    source(owner, SOURCE_IDS.workday, 'Workday', {
      description: 'Authoritative HR source (workers, hire and termination dates).',
      type: 'Workday',
      connector: 'workday',
      authoritative: true,
      created: '2021-02-01T09:00:00.000Z',
      features: ['NO_RANDOM_ACCESS', 'DISCOVER_SCHEMA'],
    }),
    source(owner, SOURCE_IDS.activeDirectory, 'Active Directory', {
      description: 'Corporate directory: user accounts, service accounts and group memberships.',
      type: 'Active Directory - Direct',
      connector: 'active-directory',
      authoritative: false,
      created: '2021-02-01T09:30:00.000Z',
      // The external GUID accountAttribute's applicationId and getLinksByAppIdOrName address.
      externalId: '2c918088814e6a610181686b56977fa8',
      features: ['DIRECT_PERMISSIONS', 'ENABLE', 'PROVISIONING', 'UNLOCK', 'PASSWORD', 'AUTHENTICATE'],
    }),
    source(owner, SOURCE_IDS.okta, 'Okta', {
      description: 'Single sign-on directory.',
      type: 'Okta',
      connector: 'okta',
      authoritative: false,
      created: '2021-06-14T12:00:00.000Z',
      features: ['ENABLE', 'PROVISIONING', 'PASSWORD'],
    }),
    source(owner, SOURCE_IDS.hrSource, 'HR Source', {
      description: 'Legacy HR export (delimited file): raw names in any case, employee types.',
      type: 'DelimitedFile',
      connector: 'delimited-file',
      authoritative: false,
      created: '2020-09-10T07:45:00.000Z',
      features: ['NO_RANDOM_ACCESS', 'DISCOVER_SCHEMA'],
    }),
    source(owner, SOURCE_IDS.corporateHr, 'Corporate HR', {
      description: 'Position history: one record per assignment, WORKER_STATUS__c per record.',
      type: 'JDBC',
      connector: 'jdbc',
      authoritative: false,
      created: '2022-01-20T10:10:00.000Z',
      features: ['NO_RANDOM_ACCESS'],
    }),
    source(owner, SOURCE_IDS.partners, 'Partner Accounts', {
      description: 'External partners and contractors (delimited file).',
      type: 'DelimitedFile',
      connector: 'delimited-file',
      authoritative: false,
      created: '2023-03-01T11:00:00.000Z',
      features: ['NO_RANDOM_ACCESS'],
    }),
  ];
}

export interface FirstName {
  readonly name: string;
  /** A preferred (short) name some holders use. */
  readonly nick?: string;
}

// Names with diacritics, apostrophes and hyphens on purpose; after ASCII folding every entry
// is distinct (a test checks it), which keeps generated uids unique by construction.
export const FIRST_NAMES: readonly FirstName[] = [
  { name: 'José', nick: 'Pepe' }, { name: 'Zoë' }, { name: 'Øyvind' }, { name: 'Renée' }, { name: 'Chloé' },
  { name: 'François' }, { name: 'Jürgen' }, { name: 'Søren' }, { name: 'Björn' }, { name: 'Łukasz', nick: 'Luke' },
  { name: 'Małgorzata', nick: 'Gosia' }, { name: 'Iñaki' }, { name: 'Mónica' }, { name: 'Sinéad' }, { name: 'Siobhán' },
  { name: 'Seán' }, { name: 'Noémie' }, { name: 'Anaïs' }, { name: 'Thérèse' }, { name: 'Åsa' },
  { name: 'Zoltán' }, { name: 'Jiří' }, { name: 'Tomáš' }, { name: 'Ümit' }, { name: 'Çağla' },
  { name: 'Gökhan' }, { name: 'Radka' }, { name: 'Jean-Baptiste' }, { name: 'Mary-Kate' }, { name: 'Anne-Marie' },
  { name: 'Jean-Luc' }, { name: "D'Andre" }, { name: "Ka'iulani" }, { name: 'Jonathan', nick: 'Jon' }, { name: 'Elizabeth', nick: 'Liz' },
  { name: 'Robert', nick: 'Bob' }, { name: 'Michael', nick: 'Mike' }, { name: 'James', nick: 'Jim' }, { name: 'Jennifer', nick: 'Jen' }, { name: 'William', nick: 'Bill' },
  { name: 'Alexander', nick: 'Alex' }, { name: 'Katherine', nick: 'Kate' }, { name: 'Margaret', nick: 'Maggie' }, { name: 'Dmitri', nick: 'Dima' }, { name: 'Lewis' },
  { name: 'Frank' }, { name: 'Paddy' }, { name: 'Adam' }, { name: 'John' }, { name: 'Ana' },
  { name: 'Maria' }, { name: 'Wei' }, { name: 'Mei' }, { name: 'Hiroshi' }, { name: 'Yuki' },
  { name: 'Priya' }, { name: 'Arjun' }, { name: 'Aisha' }, { name: 'Omar' }, { name: 'Fatima' },
  { name: 'Olga' }, { name: 'Ingrid' }, { name: 'Astrid' }, { name: 'Kwame' }, { name: 'Ngozi' },
  { name: 'Chidi' }, { name: 'Liam' }, { name: 'Olivia' }, { name: 'Emma' }, { name: 'Noah' },
  { name: 'Ava' }, { name: 'Sophia' }, { name: 'Lucas' }, { name: 'Mia' }, { name: 'Linda' },
  { name: 'Barbara' }, { name: 'David' }, { name: 'Susan' }, { name: 'Karen' }, { name: 'Nguyễn Văn' },
  { name: 'Thảo' }, { name: 'Bảo' }, { name: 'Oscar' }, { name: 'Dell' }, { name: 'Cornelius' },
  { name: 'Neil' }, { name: 'Martin' }, { name: 'Joan' }, { name: 'George' }, { name: 'Keifer' },
  { name: 'Enrique' }, { name: 'Beatriz' }, { name: 'Joaquín' }, { name: 'Léa' }, { name: 'Hélène' },
  { name: 'Ævar' }, { name: 'Þóra' }, { name: 'Grzegorz' }, { name: 'Agnieszka' }, { name: 'Ólafur' },
];

export const LAST_NAMES: readonly string[] = [
  'Ñúñez', 'Dubček', "O'Brien", "O'Sullivan", "D'Angelo", 'Wilkes-Booth', 'Mac-Donalds', 'de la Hoya', 'von Trapp', 'van der Berg',
  'del Roach', 'Ortega y Gasset', 'da Silva', 'dos Santos', 'ten Brink', 'Le Goff', 'McGlennon', 'MacKenna', 'McDonald', 'Lane-Fox Pitt-Rivers',
  'Anstruther-Gough-Calthorpe', 'Schröder', 'Müller', 'Weiß', 'Łukasiewicz', 'Kowalski', 'Dvořák', 'Novák', 'Håkansson', 'Ødegård',
  'Sæther', 'Trần', 'Phạm', 'Şahin', 'Yılmaz', 'Öztürk', 'García', 'Hernández', 'López', 'Martínez',
  'González', 'Peña', 'Ibáñez', 'Muñoz', 'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller',
  'Davis', 'Wilson', 'Taylor', 'Anderson', 'Thomas', 'Moore', 'Jackson', 'Lee', 'Chen', 'Wang',
  'Zhang', 'Kim', 'Park', 'Patel', 'Singh', 'Khan', 'Okafor', 'Adeyemi', 'Mensah', 'Hamilton',
  'Lowe', 'Sutherland', 'Doe', 'Ní Bhriain', 'Ó Súilleabháin', 'Fitzgerald', 'Bjørnstad', 'Jóhannsdóttir', 'Lefèvre', 'Gauthier',
  'Châtelet', 'Kovačević', 'Horváth', 'Nakamura', 'Suzuki', 'Iyer', 'Reddy', 'Cohen', 'Levi', 'Rossi',
  'Bianchi', 'Esposito', 'Ferreira', 'Gonçalves', 'Pereira', 'Andersen', 'Nielsen', 'Virtanen', 'Mäkinen', 'Karlsson',
];

export interface Department {
  readonly name: string;
  /** Corporate HR department code. */
  readonly code: string;
  readonly titles: readonly string[];
  /** AD groups members of this department join. */
  readonly groups: readonly string[];
}

export const DEPARTMENTS: readonly Department[] = [
  { name: 'Engineering', code: 'D100', titles: ['Software Engineer', 'Sr. Software Engineer', 'Staff Engineer', 'Engineering Manager'], groups: ['Engineering', 'GitHub Users', 'VPN Users'] },
  { name: 'Research & Development', code: 'D110', titles: ['Research Scientist', 'Sr. Research Scientist', 'Lab Technician'], groups: ['R&D', 'Lab Access'] },
  { name: 'Science', code: 'D120', titles: ['Scientist', 'Sr Scientist', 'Principal Scientist'], groups: ['Lab Access', 'Science Share'] },
  { name: 'Sales', code: 'D200', titles: ['Account Executive', 'Sr. Account Executive', 'Sales Director'], groups: ['Sales', 'CRM Users'] },
  { name: 'Marketing', code: 'D210', titles: ['Marketing Specialist', 'Content Writer', 'Marketing Manager'], groups: ['Marketing', 'CMS Editors'] },
  { name: 'Finance', code: 'D300', titles: ['Accountant', 'Sr. Financial Analyst', 'Controller'], groups: ['Finance', 'ERP Users'] },
  { name: 'Human Resources', code: 'D310', titles: ['HR Generalist', 'Recruiter', 'HR Business Partner'], groups: ['HR', 'Workday Admins'] },
  { name: 'Legal', code: 'D320', titles: ['Counsel', 'Paralegal', 'General Counsel'], groups: ['Legal'] },
  { name: 'Customer Success', code: 'D400', titles: ['Support Engineer', 'Customer Success Manager', 'Sr. Support Engineer'], groups: ['Support', 'CRM Users'] },
  { name: 'IT Operations', code: 'D500', titles: ['Systems Administrator', 'Sr. Network Engineer', 'IT Manager'], groups: ['IT Ops', 'VPN Users', 'Server Admins'] },
  { name: 'Facilities', code: 'D600', titles: ['Facilities Coordinator', 'Office Manager'], groups: ['Facilities'] },
  { name: 'Executive', code: 'D900', titles: ['Vice President', 'Chief of Staff', 'Executive Assistant'], groups: ['Executives', 'VPN Users'] },
];

export interface Location {
  readonly code: string;
  readonly city: string;
  /** Region or state shown in "City, ST" (Partner Accounts). */
  readonly region: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  /** Country as a person would type it in the HR export (English or native name). */
  readonly countryNames: readonly string[];
  /** Language as the HR export spells it (English name or ISO 639-2 code). */
  readonly languages: readonly string[];
  /** National phone number templates: `#` is a random digit. */
  readonly phones: readonly string[];
}

export const LOCATIONS: readonly Location[] = [
  { code: 'AUS', city: 'Austin', region: 'TX', country: 'US', countryNames: ['United States of America', 'USA', 'US'], languages: ['English'], phones: ['512-###-####', '(512) ###-####', '512.###.####'] },
  { code: 'HOU', city: 'Houston', region: 'TX', country: 'US', countryNames: ['United States of America', 'US'], languages: ['English', 'Spanish'], phones: ['281-###-####', '713.###.####', '(832) ###-####'] },
  { code: 'DAL', city: 'Dallas', region: 'TX', country: 'US', countryNames: ['United States of America'], languages: ['English'], phones: ['214-###-####'] },
  { code: 'LON', city: 'London', region: 'England', country: 'GB', countryNames: ['United Kingdom', 'GBR'], languages: ['English', 'ENG'], phones: ['020 7946 ####', '+44 20 7946 ####'] },
  { code: 'PAR', city: 'Paris', region: 'Île-de-France', country: 'FR', countryNames: ['France', 'FRA'], languages: ['French'], phones: ['01 ## ## ## ##'] },
  { code: 'BER', city: 'Berlin', region: 'Berlin', country: 'DE', countryNames: ['Deutschland', 'Germany', 'DE'], languages: ['German', 'DEU'], phones: ['030 ########'] },
  { code: 'MAD', city: 'Madrid', region: 'Madrid', country: 'ES', countryNames: ['España', 'Spain', 'ESP'], languages: ['Spanish', 'SPA'], phones: ['91 ### ## ##'] },
  { code: 'MEX', city: 'Mexico City', region: 'CDMX', country: 'MX', countryNames: ['México', 'Mexico'], languages: ['Spanish'], phones: ['55 #### ####'] },
  { code: 'SAO', city: 'São Paulo', region: 'SP', country: 'BR', countryNames: ['Brasil', 'Brazil'], languages: ['Portuguese'], phones: ['11 9####-####'] },
  { code: 'TYO', city: 'Tokyo', region: 'Tokyo', country: 'JP', countryNames: ['Japan', 'JPN'], languages: ['Japanese'], phones: ['03-####-####'] },
  { code: 'SYD', city: 'Sydney', region: 'NSW', country: 'AU', countryNames: ['Australia'], languages: ['English'], phones: ['04## ### ###', '02 #### ####'] },
  { code: 'BLR', city: 'Bengaluru', region: 'KA', country: 'IN', countryNames: ['India'], languages: ['Hindi', 'English'], phones: ['080 #### ####'] },
  { code: 'OSL', city: 'Oslo', region: 'Oslo', country: 'NO', countryNames: ['Norway', 'Norge'], languages: ['NOR', 'English'], phones: ['22 ## ## ##'] },
  { code: 'PRG', city: 'Prague', region: 'Praha', country: 'CZ', countryNames: ['Czechia', 'Česko', 'CZE'], languages: ['Czech'], phones: ['221 ### ###'] },
  { code: 'REM', city: 'Remote', region: 'Remote', country: 'US', countryNames: ['United States of America'], languages: ['English'], phones: ['(779) ###-####'] },
];

/** Groups every directory user is in (unless the account is new or disabled). */
export const AD_BASE_GROUP = 'All AD Users';
export const AD_DOMAIN = 'DC=corp,DC=example,DC=com';
export const EMAIL_DOMAIN = 'example.com';
export const OKTA_GROUPS: readonly string[] = ['Everyone', 'Slack', 'Zoom', 'Jira', 'Confluence', 'Salesforce', 'Workday', 'Box'];
export const SERVICE_PURPOSES: readonly string[] = ['backup', 'sql', 'build', 'scan', 'report', 'sync'];
export const PARTNER_COMPANIES: readonly string[] = ['Acme Consulting', 'Globex Staffing', 'Initech Services', 'Umbrella Contractors'];

/** The platform's account-creation epoch of this tenant: no generated date is later. */
export const TENANT_NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

/**
 * ASCII folding used for uids, e-mail local parts and sAMAccountNames: NFKD, drop combining
 * marks, map the letters NFKD leaves alone (ø, ł, ß, æ, þ, ı, đ, œ), keep [A-Za-z0-9-].
 */
export function asciiFold(text: string): string {
  const special: Record<string, string> = { ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', ß: 'ss', æ: 'ae', Æ: 'AE', þ: 'th', Þ: 'Th', ı: 'i', đ: 'd', Đ: 'D', œ: 'oe', Œ: 'OE', ð: 'd', Ð: 'D' };
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[øØłŁßæÆþÞıđĐœŒðÐ]/g, (c) => special[c] ?? c)
    .replace(/[^A-Za-z0-9-]/g, '');
}
