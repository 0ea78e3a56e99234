// What a change can affect, found without evaluation (src/impact/plan.ts): transform diffs by
// canonical JSON with renames, the reference graph, and the attributes a change reaches.

import { describe, expect, it } from 'vitest';
import { diffTransforms, planProfile, referencesOf } from '../../src/impact/plan.js';
import type { NamedTransform, TransformVersion, VersionFile } from '../../src/impact/version.js';
import type { IdentityProfile } from '../../src/providers/types.js';

function version(transforms: NamedTransform[], profiles: IdentityProfile[] = []): TransformVersion {
  return {
    label: 'v',
    transforms: new Map(transforms.map((t): [string, VersionFile<NamedTransform>] => [t.name, { doc: t, file: `transforms/${t.name}.json` }])),
    profiles: profiles.map((doc) => ({ doc, file: `identity-profiles/${doc.name}.json` })),
  };
}

const lower = (name: string, input?: unknown): NamedTransform => ({ name, type: 'lower', attributes: input === undefined ? {} : { input } });
const ref = (id: string) => ({ type: 'reference', attributes: { id } });

function profile(mappings: Record<string, unknown>): IdentityProfile {
  return {
    name: 'Employees',
    identityAttributeConfig: { attributeTransforms: Object.entries(mappings).map(([identityAttributeName, transformDefinition]) => ({ identityAttributeName, transformDefinition: transformDefinition as { type: string } })) },
  };
}

describe('diffTransforms', () => {
  it('key order and formatting are not changes; content is', () => {
    const base = version([{ name: 'A', type: 'lower', attributes: { input: 'x' } }, lower('B')]);
    const head = version([{ attributes: { input: 'x' }, type: 'lower', name: 'A' }, { name: 'B', type: 'upper', attributes: {} }]);
    expect(diffTransforms(base, head)).toEqual([{ kind: 'changed', name: 'B', file: 'transforms/B.json' }]);
  });

  it('reports added and removed transforms, and one with the same content under a new name as renamed', () => {
    const base = version([lower('Old'), { name: 'Gone', type: 'upper', attributes: {} }]);
    const head = version([lower('New'), { name: 'Fresh', type: 'trim', attributes: {} }]);
    expect(diffTransforms(base, head)).toEqual([
      { kind: 'added', name: 'Fresh', file: 'transforms/Fresh.json' },
      { kind: 'removed', name: 'Gone', file: 'transforms/Gone.json' },
      { kind: 'renamed', name: 'New', previousName: 'Old', file: 'transforms/New.json' },
    ]);
  });
});

describe('referencesOf', () => {
  it('follows references transitively and stops at cycles', () => {
    const v = version([lower('A', ref('B')), lower('B', ref('C')), lower('C', ref('A'))]);
    expect([...referencesOf(ref('A'), v.transforms).names].sort()).toEqual(['A', 'B', 'C']);
  });

  it('finds references in any attribute, at any depth, without recursion', () => {
    let deep: unknown = ref('Leaf');
    for (let i = 0; i < 50_000; i++) deep = { type: 'lower', attributes: { input: deep } };
    const found = referencesOf(deep, version([]).transforms);
    expect([...found.names]).toEqual(['Leaf']);
  });

  it('marks a reference whose name is a template as dynamic, and a usernameGenerator as depending on issued values', () => {
    expect(referencesOf({ type: 'reference', attributes: { id: '$name' } }, version([]).transforms).dynamic).toBe(true);
    const v = version([{ name: 'U', type: 'usernameGenerator', attributes: { patterns: ['$fn'] } }]);
    expect(referencesOf(ref('U'), v.transforms).issued).toBe(true);
  });
});

describe('planProfile', () => {
  const transforms = [lower('Leaf'), lower('Middle', ref('Leaf')), lower('Other')];
  const mappings = { viaMiddle: ref('Middle'), direct: ref('Leaf'), unrelated: ref('Other'), plain: { type: 'upper', attributes: {} } };

  it('evaluates exactly the attributes that reach a changed transform, directly or through others', () => {
    const base = version(transforms, [profile(mappings)]);
    const head = version([{ name: 'Leaf', type: 'upper', attributes: {} }, transforms[1]!, transforms[2]!], [profile(mappings)]);
    const plans = planProfile(base.profiles[0]!.doc, head.profiles[0]!.doc, base, head, diffTransforms(base, head));
    expect(plans.map((p) => [p.attribute, p.reasons])).toEqual([
      ['viaMiddle', [{ kind: 'transform', name: 'Leaf', change: 'changed' }]],
      ['direct', [{ kind: 'transform', name: 'Leaf', change: 'changed' }]],
    ]);
  });

  it('evaluates changed, added and removed mappings, and nothing when nothing changed', () => {
    const base = version(transforms, [profile(mappings)]);
    const { unrelated: _removed, ...kept } = mappings;
    const head = version(transforms, [profile({ ...kept, plain: { type: 'lower', attributes: {} }, added: ref('Other') })]);
    const plans = planProfile(base.profiles[0]!.doc, head.profiles[0]!.doc, base, head, []);
    expect(plans.map((p) => [p.attribute, p.reasons.map((r) => r.kind)])).toEqual([
      ['plain', ['mapping-changed']],
      ['added', ['mapping-added']],
      ['unrelated', ['mapping-removed']],
    ]);
    expect(planProfile(base.profiles[0]!.doc, base.profiles[0]!.doc, base, base, [])).toEqual([]);
  });
});
