// Groups of differences (docs/verify.md "Groups"): the edit signatures, pairs that repeat
// grouped by pair, single pairs by signature, and the bound on distinct pairs.

import { describe, expect, it } from 'vitest';
import type { VerifyLine } from '../../src/refresh/stored-comparison.js';
import { AttributeGroups, editSignature, MAX_PAIRS } from '../../src/verify/groups.js';

describe('editSignature', () => {
  it.each([
    [null, 'a', 'platform null'],
    ['a', null, 'ours null'],
    ['', 'a', 'empty on the platform'],
    ['a', '', 'empty here'],
    ['Ann', 'ANN', 'case'],
    ['a b', 'a  b', 'whitespace'],
    ['2026-02-28T00:00', '2026-02-28T00:00Z', 'ours adds suffix "Z"'],
    ['2026-02-28T00:00Z', '2026-02-28T00:00', 'ours drops suffix "Z"'],
    ['doe', 'jdoe', 'ours adds prefix "j"'],
    ['jdoe', 'doe', 'ours drops prefix "j"'],
    ['a', 'a' + 'x'.repeat(17), 'different'],
    ['alpha', 'beta', 'different'],
  ])('%j → %j is %s', (platform, ours, signature) => {
    expect(editSignature(platform, ours)).toBe(signature);
  });
});

const line = (i: number, platform: string | null, ours: string | null): VerifyLine => ({ identityId: `id${i}`, identityName: `n${i}`, attribute: 'a', platform, ours, kind: 'differ' });

describe('AttributeGroups', () => {
  it('groups a repeated pair by pair and single pairs by signature, largest first, with a few examples', () => {
    const groups = new AttributeGroups(2);
    for (let i = 0; i < 3; i++) groups.add(line(i, 'X', 'x'));
    groups.add(line(3, 'Bob', 'BOB'));
    groups.add(line(4, 'Al', 'AL'));
    groups.add(line(5, 'p', 'q'));
    expect(groups.groups()).toEqual([
      { by: 'pair', signature: 'case', platform: 'X', ours: 'x', count: 3, examples: [{ identityId: 'id0', identityName: 'n0', platform: 'X', ours: 'x' }, { identityId: 'id1', identityName: 'n1', platform: 'X', ours: 'x' }] },
      { by: 'signature', signature: 'case', count: 2, examples: [{ identityId: 'id3', identityName: 'n3', platform: 'Bob', ours: 'BOB' }, { identityId: 'id4', identityName: 'n4', platform: 'Al', ours: 'AL' }] },
      { by: 'signature', signature: 'different', count: 1, examples: [{ identityId: 'id5', identityName: 'n5', platform: 'p', ours: 'q' }] },
    ]);
  });

  it('counts at most MAX_PAIRS distinct pairs; later new pairs go to their signature', () => {
    const groups = new AttributeGroups(1);
    for (let i = 0; i < MAX_PAIRS + 10; i++) groups.add(line(i, `v${i}`, `v${i}Z`));
    groups.add(line(0, 'v0', 'v0Z'));
    const out = groups.groups();
    expect(out[0]).toMatchObject({ by: 'signature', signature: 'ours adds suffix "Z"', count: MAX_PAIRS + 10 - 1 });
    expect(out[1]).toMatchObject({ by: 'pair', platform: 'v0', ours: 'v0Z', count: 2 });
    expect(out.reduce((n, g) => n + g.count, 0)).toBe(MAX_PAIRS + 11);
  });
});
