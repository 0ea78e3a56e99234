// Pseudonymization (docs/snapshot.md "Pseudonymization"): keyed, deterministic, shape-keeping,
// and ids, dates, booleans and enumerated values untouched.

import { describe, expect, it } from 'vitest';
import { createPseudonymizer } from '../../src/snapshot/pseudonymize.js';
import { isTransformsError } from '../../src/errors/index.js';
import type { Account, Identity } from '../../src/providers/types.js';

const KEY = Buffer.from('0123456789abcdef-test-key');
const p = createPseudonymizer(KEY);

const identity: Identity = {
  id: '2c91808409f45f693cd6e3f3a2393ef1',
  name: 'jose.nunez',
  attributes: {
    uid: 'jose.nunez', firstname: 'José', lastname: 'Núñez', displayName: 'José Núñez', email: 'jose.nunez@example.com',
    phone: '+1 512-346-2000', networkDn: 'CN=José Núñez,OU=Engineering,DC=corp,DC=example,DC=com', department: 'Engineering',
    lifecycleState: 'active', employeeNumber: '100042', hireDate: '2020-12-12', isManager: true, score: 7, nothing: null,
    description: 'Works on the Austin campus', contact: 'backup.person@partner.org',
  },
  managerId: '2c918084461c483f12bc83900e60d551',
};

describe('createPseudonymizer', () => {
  const out = p.identity(identity);

  it('replaces names, usernames, e-mails, phones, DNs and free text', () => {
    for (const k of ['uid', 'firstname', 'lastname', 'displayName', 'email', 'phone', 'networkDn', 'description', 'contact']) {
      expect(out.attributes[k], k).not.toBe(identity.attributes[k]);
    }
    expect(out.name).not.toBe(identity.name);
  });

  it('keeps ids, dates, numbers, booleans, null and enumerated values', () => {
    expect(out.id).toBe(identity.id);
    expect(out.managerId).toBe(identity.managerId);
    for (const k of ['department', 'lifecycleState', 'employeeNumber', 'hireDate', 'isManager', 'score', 'nothing']) expect(out.attributes[k], k).toBe(identity.attributes[k]);
  });

  it('keeps the shape: diacritics, case, length class, separators, the e-mail domain and the phone format', () => {
    const a = out.attributes as Record<string, string>;
    expect(a.firstname).toMatch(/^\p{Lu}\p{Ll}+$/u);
    expect(a.firstname.normalize('NFD')).toMatch(/\u0301/);
    expect(a.firstname.length).toBeLessThanOrEqual(4);
    expect(a.email).toMatch(/^[a-záéíóú]+\.[a-záéíóú]+@example\.com$/);
    expect(a.contact).toMatch(/@partner\.org$/);
    expect(a.phone).toMatch(/^\+1 \d{3}-\d{3}-\d{4}$/);
    expect(a.networkDn).toMatch(/^CN=\S+ \S+,OU=Engineering,DC=corp,DC=example,DC=com$/);
    expect(a.description).toMatch(/^\p{Lu}\p{Ll}* \p{Ll}+ \p{Ll}+ \p{Lu}\p{Ll}* \p{Ll}+$/u);
  });

  it('maps a word alike wherever it appears, so uid, names, e-mail and display name agree', () => {
    const a = out.attributes as Record<string, string>;
    const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
    expect(a.uid).toBe(out.name);
    expect(a.email.split('@')[0]).toBe(a.uid);
    expect(fold(a.uid)).toBe(`${fold(a.firstname)}.${fold(a.lastname)}`);
    expect(a.displayName).toBe(`${a.firstname} ${a.lastname}`);
  });

  it('gives the same output for the same input and key, another with another key', () => {
    expect(createPseudonymizer(KEY).identity(identity)).toEqual(out);
    const other = createPseudonymizer(Buffer.from('another key of sixteen bytes or more')).identity(identity);
    expect(other.attributes.email).not.toBe(out.attributes.email);
    expect(createPseudonymizer(KEY).fingerprint).toBe(p.fingerprint);
  });

  it('keeps account-filter prefixes, particles, initials and opaque ids', () => {
    const account: Account = {
      id: 'a1', identityId: identity.id, sourceId: 's1', nativeIdentity: 'SVC-backup-jose.nunez', name: 'Oscar de la Hoya', created: '2020-01-01T00:00:00Z', hasEntitlements: true,
      attributes: { sAMAccountName: 'adm-jose.nunez', id: '00u1a2b3c4d5', memberOf: ['CN=All AD Users-jose,OU=Groups,DC=corp'], givenName: 'J.' },
    };
    const a = p.account(account);
    expect(a.nativeIdentity).toMatch(/^SVC-[a-z]+-[a-z]+\.[a-z]+$/);
    expect(a.nativeIdentity.endsWith(`-${out.name}`)).toBe(true);
    expect(a.name).toMatch(/^\S+ de la \S+$/);
    expect(a.attributes.sAMAccountName).toBe(`adm-${out.name}`);
    expect(a.attributes.id).toBe('00u1a2b3c4d5');
    expect(a.attributes.givenName).toBe('J.');
    expect(a.attributes.memberOf).toEqual(account.attributes.memberOf);
    expect({ ...a, nativeIdentity: 0, name: 0, attributes: 0 }).toEqual({ ...account, nativeIdentity: 0, name: 0, attributes: 0 });
  });

  it('replaces the owner name of a source and keeps the rest', () => {
    const source = { id: 's1', name: 'Workday', owner: { type: 'IDENTITY', id: identity.id, name: 'jose.nunez' }, authoritative: true };
    expect(p.source(source)).toEqual({ ...source, owner: { ...source.owner, name: out.name } });
  });
});

describe('createPseudonymizer refuses a key it cannot use', () => {
  const codeOf = (key: unknown): string => {
    try {
      createPseudonymizer(key as Uint8Array);
    } catch (error) {
      return isTransformsError(error) ? `${error.code}: ${error.message}` : `uncoded: ${String(error)}`;
    }
    return 'accepted';
  };

  it('is SNAPSHOT_KEY for no key, a string, or fewer than 16 bytes', () => {
    expect(codeOf(undefined)).toBe('SNAPSHOT_KEY: the pseudonymization key must be at least 16 bytes (a Uint8Array or Buffer); got undefined');
    expect(codeOf(null)).toBe('SNAPSHOT_KEY: the pseudonymization key must be at least 16 bytes (a Uint8Array or Buffer); got null');
    expect(codeOf('a key given as text')).toBe('SNAPSHOT_KEY: the pseudonymization key must be at least 16 bytes (a Uint8Array or Buffer); got string');
    expect(codeOf(Buffer.from('short'))).toBe('SNAPSHOT_KEY: the pseudonymization key must be at least 16 bytes (a Uint8Array or Buffer); got 5 bytes');
  });

  it('takes 16 bytes in a Uint8Array as well as a Buffer', () => {
    expect(codeOf(new Uint8Array(16))).toBe('accepted');
  });
});
