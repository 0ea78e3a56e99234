// forEachFixtureIdentity: the body runs once per fixture identity with that identity's
// accounts and an evaluate bound to it; every failing identity is reported by name and id; user
// names stay issued across identities; each identity's random stream depends on its id only.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/providers/fixtures.js';
import type { TransformDocument } from '../../src/providers/types.js';
import { FixtureIdentitiesError, forEachFixtureIdentity } from '../../src/testing/for-each.js';
import { rejectionOf } from './rejection.js';

const fixtures = loadFixtures(join(import.meta.dirname, '../../fixtures'));
const uid: TransformDocument = { name: 'UID', type: 'identityAttribute', attributes: { name: 'uid' } };

const failureOf = (promise: Promise<void>) => rejectionOf(promise, FixtureIdentitiesError);

describe('forEachFixtureIdentity', () => {
  it('runs the body for every identity, in order, with its accounts and an evaluate bound to it', async () => {
    const visited: string[] = [];
    await forEachFixtureIdentity(fixtures, async ({ identity, accounts, index, evaluate }) => {
      visited.push(identity.id);
      expect(index).toBe(visited.length - 1);
      expect(accounts.every((a) => a.identityId === identity.id)).toBe(true);
      expect(await evaluate(uid)).toBe(identity.attributes['uid'] ?? identity.name);
    });
    expect(visited).toEqual(fixtures.identities.map((i) => i.id));
  });

  it('collects every failure and names the identities in the message', async () => {
    const error = await failureOf(
      forEachFixtureIdentity(fixtures, ({ identity }) => {
        expect(identity.name).not.toMatch(/^(jdoe|corporate\.admin|aric\.dubcek)$/);
      }, { maxReported: 2 }),
    );
    expect(error.failures.map((f) => f.identity.name).sort()).toEqual(['aric.dubcek', 'corporate.admin', 'jdoe']);
    expect(error.message).toMatch(/^forEachFixtureIdentity: 3 of 209 fixture identities failed\n/);
    expect(error.message).toContain('… and 1 more');
    const first = error.failures[0]!.identity;
    expect(error.message).toContain(`${first.name} (${first.id}): `);
  });

  it('rejects with the coded error when an evaluation fails', async () => {
    const error = await failureOf(
      forEachFixtureIdentity(fixtures, async ({ evaluate }) => {
        await evaluate({ name: 'No match', type: 'lookup', attributes: { table: {}, input: 'x' } });
      }),
    );
    expect(error.failures).toHaveLength(fixtures.identities.length);
    expect(error.failures[0]!.error).toMatchObject({ code: 'EVAL_LOOKUP_NO_MATCH' });
  });

  it('keeps user names issued across identities, as a refresh of the tenant does', async () => {
    const same: TransformDocument = { name: 'Same', type: 'usernameGenerator', attributes: { patterns: ['user${uniqueCounter}'] } };
    const issued: unknown[] = [];
    await forEachFixtureIdentity({ ...fixtures, identities: fixtures.identities.slice(0, 4) }, async ({ evaluate }) => {
      issued.push(await evaluate(same));
    });
    expect(issued).toEqual(['user', 'user1', 'user2', 'user3']);
  });

  it('seeds each identity’s random stream from the seed and its id', async () => {
    const random: TransformDocument = { name: 'R', type: 'randomAlphaNumeric', attributes: { length: 12 } };
    const run = async (seed: number, identities = fixtures.identities.slice(0, 5)) => {
      const out = new Map<string, unknown>();
      await forEachFixtureIdentity({ ...fixtures, identities }, async ({ identity, evaluate }) => {
        out.set(identity.id, await evaluate(random));
      }, { seed });
      return out;
    };
    const a = await run(1);
    expect(await run(1, fixtures.identities.slice(0, 5).reverse())).toEqual(a);
    expect([...(await run(2)).values()]).not.toEqual([...a.values()]);
  });

  it('rejects an unknown option with a coded error', async () => {
    await expect(forEachFixtureIdentity(fixtures, () => undefined, { seeds: 1 } as never)).rejects.toMatchObject({ code: 'ENGINE_OPTION_UNKNOWN' });
  });
});
