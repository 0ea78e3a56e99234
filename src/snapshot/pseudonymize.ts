// Pseudonymized snapshots: names, e-mail addresses, phone numbers, distinguished names and
// free text replaced by realistic values derived with a keyed hash (HMAC-SHA-256 of the value
// under the user's key), so that the same input gives the same output in every run and every
// record (a uid, the AD sAMAccountName and the e-mail's local part that share a word share its
// pseudonym), while ids, dates, numbers, booleans and enumerated values are kept. docs/snapshot.md
// "Pseudonymization" lists exactly which attributes are which.

import { createHmac } from 'node:crypto';
import { codedError } from '../errors/index.js';
import type { IdentityProfile } from '../providers/types.js';
import type { Account, Identity, Source } from '../providers/types.js';
import { GIVEN_NAMES, FAMILY_NAMES, TEXT_WORDS } from './pseudonym-words.js';

export interface Pseudonymizer {
  /** A fingerprint of the key (HMAC of a fixed text), kept in the manifest to check --since. */
  readonly fingerprint: string;
  identity(identity: Identity): Identity;
  account(account: Account): Account;
  source(source: Source): Source;
  profile(profile: IdentityProfile): IdentityProfile;
}

type Kind = 'given' | 'family' | 'fullname' | 'username' | 'email' | 'phone' | 'dn' | 'text' | 'keep';

/** Attribute names (lower case, without `_`, `-` and spaces) and how their values are replaced. */
export const ATTRIBUTE_KINDS: Readonly<Record<string, Kind>> = Object.freeze({
  firstname: 'given', givenname: 'given', preferredname: 'given', nickname: 'given', middlename: 'given',
  lastname: 'family', sn: 'family', surname: 'family', familyname: 'family',
  displayname: 'fullname', fullname: 'fullname', cn: 'fullname', name: 'fullname',
  uid: 'username', samaccountname: 'username', login: 'username', username: 'username', userprincipalname: 'username', alias: 'username',
  email: 'email', mail: 'email', emailaddress: 'email', workemail: 'email', personalemail: 'email',
  phone: 'phone', telephonenumber: 'phone', mobile: 'phone', mobilephone: 'phone', homephone: 'phone', workphone: 'phone', phonenumber: 'phone', fax: 'phone',
  distinguishedname: 'dn', networkdn: 'dn', managerdn: 'dn', manager: 'dn',
  description: 'text', comments: 'text', comment: 'text', notes: 'text', note: 'text',
  address: 'text', street: 'text', streetaddress: 'text', homeaddress: 'text', postaladdress: 'text',
  // Group memberships are entitlements: transforms test them whole (memberOf.contains("CN=…")).
  memberof: 'keep', groups: 'keep', entitlements: 'keep', roles: 'keep',
});

/** Words of a username kept as they are: the prefixes that account filters look for. */
export const STRUCTURAL_WORDS: ReadonlySet<string> = new Set(['svc', 'adm', 'admin', 'deleted', 'test', 'sys', 'srv', 'ext', 'tmp']);
/** Name particles kept as they are. */
export const PARTICLES: ReadonlySet<string> = new Set(['de', 'del', 'la', 'las', 'los', 'van', 'von', 'der', 'den', 'y', 'da', 'di', 'du', 'le', 'ní', 'mac', 'mc', 'st', 'bin', 'al']);

const EMAIL = /^([^@\s]+)@([^@\s]+\.[^@\s]+)$/;
const DN = /^(?:CN|UID)=.*,\s*(?:OU|DC|O|CN)=/i;
/** An opaque id: letters and digits only, at least 8 long, at least 3 digits (Okta ids, GUIDs without braces). */
const ID_LIKE = /^(?=(?:[^0-9]*[0-9]){3})[0-9A-Za-z-]{8,}$/;
const MARKS = /[\u0300-\u036f]/g;

const lengthClass = (n: number): 0 | 1 | 2 => (n <= 4 ? 0 : n <= 7 ? 1 : 2);

function byClass(words: readonly string[]): string[][] {
  const out: string[][] = [[], [], []];
  for (const w of words) out[lengthClass(w.length)]!.push(w);
  return out;
}

// One pool for every name word, so that a word maps alike as a first name, a last name or part
// of a uid ("jose.nunez" → the pseudonyms of "José" and "Núñez").
const NAMES = byClass([...GIVEN_NAMES, ...FAMILY_NAMES]);
const TEXT = byClass(TEXT_WORDS);

/** Give `word` the case pattern of `like`: UPPER, lower, or Capitalized. */
function withCase(word: string, like: string): string {
  if (like.length > 1 && like === like.toUpperCase() && like !== like.toLowerCase()) return word.toUpperCase();
  if (like === like.toLowerCase()) return word.toLowerCase();
  return word[0]!.toUpperCase() + word.slice(1).toLowerCase();
}

/** An acute accent on the first vowel (the shape of a name with diacritics, in NFC). */
function withDiacritic(word: string): string {
  const i = word.search(/[aeiouAEIOU]/);
  return i < 0 ? word : (word.slice(0, i + 1) + '\u0301' + word.slice(i + 1)).normalize('NFC');
}

/** The shortest key HMAC-SHA-256 is given: 128 bits, so that pseudonyms cannot be searched for by guessing the key. */
export const MIN_KEY_BYTES = 16;

/** Refuse a key that is not bytes or is too short (SNAPSHOT_KEY), before any record is read. */
export function checkPseudonymizationKey(key: unknown): asserts key is Uint8Array {
  if (!(key instanceof Uint8Array) || key.length < MIN_KEY_BYTES) {
    const got = key instanceof Uint8Array ? `${key.length} bytes` : key === null ? 'null' : typeof key;
    throw codedError('SNAPSHOT_KEY', `the pseudonymization key must be at least ${MIN_KEY_BYTES} bytes (a Uint8Array or Buffer); got ${got}`, { details: { option: 'pseudonymizationKey' } });
  }
}

export function createPseudonymizer(key: Uint8Array): Pseudonymizer {
  checkPseudonymizationKey(key);
  const digest = (kind: string, value: string): Buffer => createHmac('sha256', key).update(`${kind}\u0000${value}`).digest();
  const pick = (pool: string[][], kind: string, folded: string, length: number): string => {
    const list = pool[lengthClass(length)]!.length > 0 ? pool[lengthClass(length)]! : pool.flat();
    return list[digest(kind, folded).readUInt32BE(0) % list.length]!;
  };

  /** One word of a name: same folded word → same pseudonym, with the original's case, diacritics and length class. */
  const nameWord = (word: string, ): string => {
    const folded = word.normalize('NFD').replace(MARKS, '').toLowerCase();
    if (folded.length <= 1 || PARTICLES.has(word.toLowerCase())) return word;
    let out = pick(NAMES, 'name', folded, folded.length);
    if (word.normalize('NFD') !== word.normalize('NFD').replace(MARKS, '')) out = withDiacritic(out);
    return withCase(out, word);
  };
  const nameWords = (value: string): string =>
    value
      .split(/([\s\-'’.,()]+)/)
      .map((part, i) => (i % 2 === 1 || part === '' ? part : nameWord(part)))
      .join('');
  const username = (value: string): string => {
    if (ID_LIKE.test(value)) return value;
    return value
      .split(/([^\p{L}\p{M}]+)/u)
      .map((part, i) => (i % 2 === 1 || part.length < 2 || STRUCTURAL_WORDS.has(part.toLowerCase()) ? part : nameWord(part)))
      .join('');
  };
  const email = (value: string): string => {
    const m = EMAIL.exec(value);
    return m === null ? username(value) : `${username(m[1]!)}@${m[2]}`;
  };
  const phone = (value: string): string => {
    const digits = value.replace(/\D/g, '');
    if (digits.length === 0) return value;
    const hash = digest('phone', digits);
    // A leading +CC (the country code: up to the first separator) is kept, so the number stays valid for its region.
    const keep = /^\+\d{1,3}(?=\D)/.exec(value)?.[0].length ?? 0;
    let n = 0;
    return value.slice(0, keep) + value.slice(keep).replace(/\d/g, () => String(hash[n++ % hash.length]! % 10));
  };
  const dn = (value: string): string => value.replace(/((?:^|,)\s*(?:CN|UID)=)((?:\\.|[^,])*)/gi, (_, head: string, rdn: string) => head + nameWords(rdn));
  const text = (value: string): string =>
    value
      .split(/([^\p{L}\p{M}]+)/u)
      .map((part, i) => {
        if (i % 2 === 1 || part === '') return part;
        const folded = part.normalize('NFD').replace(MARKS, '').toLowerCase();
        return withCase(pick(TEXT, 'text', folded, folded.length), part);
      })
      .join('');

  const byKind = (kind: Kind, value: string): string => {
    switch (kind) {
      case 'given':
        return nameWords(value);
      case 'family':
        return nameWords(value);
      case 'fullname':
        return EMAIL.test(value) ? email(value) : nameWords(value);
      case 'username':
        return email(value);
      case 'email':
        return email(value);
      case 'phone':
        return phone(value);
      case 'dn':
        return DN.test(value) ? dn(value) : value;
      case 'text':
        return text(value);
      case 'keep':
        return value;
    }
  };
  /** A value by its attribute's name; any string that is an e-mail address or a DN is replaced whatever its attribute. */
  const value = (name: string, v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((x) => value(name, x));
    if (typeof v !== 'string' || v === '') return v;
    const kind = ATTRIBUTE_KINDS[name.toLowerCase().replace(/[\s_-]/g, '')];
    if (kind !== undefined) return byKind(kind, v);
    if (EMAIL.test(v)) return email(v);
    if (DN.test(v)) return dn(v);
    return v;
  };
  const attributes = (attrs: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(attrs)) out[k] = value(k, v);
    return out;
  };
  const owner = <T extends Record<string, unknown>>(record: T): T => {
    const o = record.owner as { name?: unknown } | null | undefined;
    if (o === null || typeof o !== 'object' || typeof o.name !== 'string') return record;
    return { ...record, owner: { ...o, name: username(o.name) } };
  };

  return {
    fingerprint: createHmac('sha256', key).update('identity-transforms snapshot key fingerprint').digest('hex').slice(0, 16),
    identity: (i) => ({ ...i, name: username(i.name), attributes: attributes(i.attributes) }),
    account: (a) => ({
      ...a,
      nativeIdentity: DN.test(a.nativeIdentity) ? dn(a.nativeIdentity) : email(a.nativeIdentity),
      name: EMAIL.test(a.name) ? email(a.name) : /\s/.test(a.name) ? nameWords(a.name) : username(a.name),
      attributes: attributes(a.attributes),
    }),
    source: (s) => owner(s),
    profile: (p) => owner(p),
  };
}
