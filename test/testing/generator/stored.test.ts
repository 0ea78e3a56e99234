// gen-tenant --stored: the stored attributes of a generated tenant are what its profile computes
// (a refresh over the tenant gives them back exactly), with modified and identityProfile; with
// planted differences, the files hold exactly what storeComputedAttributes lists; and the
// command's options.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedAttributeValue } from '../../../src/engine/profile.js';
import type { Account, Identity } from '../../../src/providers/types.js';
import { refresh } from '../../../src/refresh/index.js';
import { storeComputedAttributes, writeTenant } from '../../../src/testing/generator/index.js';
import { runCli } from '../../cli/run.js';
import { FIXTURES } from '../../verify/planted-tenant.js';

const tmp = mkdtempSync(join(tmpdir(), 'idt-stored-'));
const lines = <T>(file: string): T[] => JSON.parse(readFileSync(file, 'utf8')) as T[];
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('storeComputedAttributes', () => {
  const dir = join(tmp, 'plain');
  let passes = 0;
  beforeAll(async () => {
    writeTenant(dir, { identities: 120, seed: 'stored', copyFrom: FIXTURES });
    passes = (await storeComputedAttributes(dir, { workers: 0 })).passes;
  }, 120_000);

  it('stores what the profile computes, as a fixed point of refresh, with modified and identityProfile', async () => {
    expect(passes).toBeGreaterThanOrEqual(2);
    const identities = new Map(lines<Identity>(join(dir, 'identities.json')).map((i) => [i.id, i]));
    let compared = 0;
    for await (const result of refresh({ fixtures: dir, workers: 0, now: '2026-01-15T12:00:00.000Z' })) {
      const identity = identities.get(result.identityId)!;
      const failed = new Set(result.errors.map((e) => e.attribute));
      for (const [name, value] of Object.entries(result.attributes)) {
        expect(identity.attributes[name], `${identity.name} ${name}`).toEqual(failed.has(name) ? null : storedAttributeValue(value));
        compared++;
      }
      expect(identity.modified).toBe('2026-01-15T12:00:00.000Z');
      expect(identity.identityProfile).toEqual({ id: '2c9180867c1c5f4a017c2e1b2c3d4e5f', name: 'Employees' });
    }
    expect(compared).toBeGreaterThan(120 * 20);
  }, 60_000);
});

describe('storeComputedAttributes with differences planted', () => {
  it('changes exactly the listed values, and makes the first one\'s identity stale', async () => {
    const dir = join(tmp, 'planted');
    writeTenant(dir, { identities: 200, seed: 'stored', copyFrom: FIXTURES });
    const clean = join(tmp, 'clean');
    writeTenant(clean, { identities: 200, seed: 'stored', copyFrom: FIXTURES });
    await storeComputedAttributes(clean, { workers: 0 });
    const { planted } = await storeComputedAttributes(dir, { workers: 0, plantIn: ['email', 'department'] });
    expect(planted.length).toBeGreaterThanOrEqual(4);
    expect(planted.every((p) => ['email', 'department'].includes(p.attribute) && p.platform !== p.ours)).toBe(true);
    const before = new Map(lines<Identity>(join(clean, 'identities.json')).map((i) => [i.id, i]));
    const changed: { identityId: string; attribute: string; platform: unknown; ours: unknown }[] = [];
    for (const after of lines<Identity>(join(dir, 'identities.json'))) {
      for (const [name, value] of Object.entries(after.attributes)) {
        const was = before.get(after.id)!.attributes[name];
        if (value !== was) changed.push({ identityId: after.id, attribute: name, platform: value, ours: was });
      }
    }
    expect(changed).toEqual(planted.map(({ identityId, attribute, platform, ours }) => ({ identityId, attribute, platform, ours })));
    const stale = planted.find((p) => p.kind === 'stale')!;
    expect(planted.indexOf(stale)).toBe(0);
    const modified = lines<Account>(join(dir, 'accounts.json')).filter((a) => a.modified !== undefined);
    expect(modified.map((a) => a.identityId)).toEqual([stale.identityId]);
    expect(Date.parse(modified[0]!.modified!)).toBeGreaterThan(Date.parse('2026-01-15T12:00:00.000Z'));
  }, 120_000);
});

describe('gen-tenant --stored', () => {
  it('lists the planted differences', async () => {
    const { code, out } = await runCli('gen-tenant', '--identities', '100', '--seed', '3', '--out', join(tmp, 'cli'), '--stored', '--plant', '--now', '2026-01-15T12:00:00Z');
    expect(code).toBe(0);
    expect(out).toMatch(/stored attributes as the profile computes them\n/);
    expect(out).toMatch(/^planted stale \w+ of \S+ \(\w{32}\): platform .*, ours .*$/m);
  }, 120_000);

  it.each([
    [['--plant'], '--plant goes with --stored'],
    [['--now', '2026-01-01T00:00:00Z'], '--now goes with --stored'],
    [['--stored', '--no-copy'], '--stored needs an identity profile'],
    [['--stored', '--now', 'yesterday'], '--now must be an ISO 8601 date-time'],
  ])('refuses %j (exit 2)', async (args, message) => {
    const { code, err } = await runCli('gen-tenant', '--identities', '5', '--out', join(tmp, 'refused'), ...args);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });
});
