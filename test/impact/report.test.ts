// The impact report as people read it: names beside ids, counts with the right noun, and the
// --fail-on rule that failed with its count.

import { describe, expect, it } from 'vitest';
import { formatImpact, impactFailure, type AttributeImpact, type ImpactReport } from '../../src/impact/index.js';

function attribute(name: string, counts: Partial<AttributeImpact>): AttributeImpact {
  return {
    attribute: name,
    reasons: [{ kind: 'mapping-changed' }],
    dependsOnIssuedValues: false,
    identities: 1,
    unchanged: 0,
    changed: 0,
    becameNull: 0,
    stoppedBeingNull: 0,
    newErrors: 0,
    errorsFixed: 0,
    errorsChanged: 0,
    examples: {},
    ...counts,
  };
}

function report(attributes: AttributeImpact[]): ImpactReport {
  const sum = (key: 'changed' | 'newErrors' | 'errorsFixed') => attributes.reduce((n, a) => n + a[key], 0);
  return {
    version: 1,
    base: 'main',
    head: 'work',
    tenant: 'fixtures',
    transforms: [],
    profiles: [{ profile: 'Employees', attributes }],
    totals: { identities: Math.max(...attributes.map((a) => a.identities)), attributes: attributes.length, changed: sum('changed'), newErrors: sum('newErrors'), errorsFixed: sum('errorsFixed') },
    elapsedMs: 1200,
  };
}

describe('formatImpact', () => {
  const region = attribute('region', {
    changed: 1,
    becameNull: 1,
    newErrors: 1,
    examples: {
      becameNull: [{ identityId: '2c91a', identityName: 'ada.lovelace', before: { value: 'EMEA' }, after: { value: null } }],
      newError: [{ identityId: '2c91b', before: { value: 'EMEA' }, after: { error: { code: 'EVAL_LOOKUP_NO_MATCH', message: 'no match', path: '' } } }],
    },
  });

  it('quotes names from a pull request and identities from the tenant without opening tags or ending rows in markdown', () => {
    const hostile = attribute('region</details><img src=x>|', {
      changed: 1,
      examples: { changed: [{ identityId: '2c91a', identityName: 'ada\n\n<img src=y>', before: { value: 'a' }, after: { value: 'b' } }] },
    });
    const markdown = formatImpact({ ...report([hostile]), profiles: [{ profile: 'Employees <b>', attributes: [hostile] }] }, 'markdown');
    const tags = new Set([...markdown.matchAll(/<\/?([a-z]+)/gi)].map((m) => m[1]!.toLowerCase()));
    expect(tags).toEqual(new Set(['details', 'summary', 'code', 'table', 'tr', 'th', 'td']));
    expect(markdown).toContain('| region&lt;/details&gt;&lt;img src=x&gt;\\| |');
    expect(markdown).not.toContain('\n\n&lt;img');
  });

  it('writes singular counts in the singular', () => {
    const text = formatImpact(report([region]), 'text');
    expect(text).toContain('region: 1 of 1 identity changes (1 becomes null, 0 stop being null), 1 new error, 0 errors fixed');
    expect(text).toContain('1 attribute evaluated for 1 identity: 1 value changes, 1 new error, 0 errors fixed (1.2 s)');
  });

  it('writes plural counts in the plural', () => {
    const text = formatImpact(report([attribute('region', { identities: 600, changed: 43, becameNull: 2, newErrors: 8, errorsFixed: 1 }), attribute('title', { identities: 600 })]), 'text');
    expect(text).toContain('region: 43 of 600 identities change (2 become null, 0 stop being null), 8 new errors, 1 error fixed');
    expect(text).toContain('2 attributes evaluated for 600 identities: 43 values change, 8 new errors, 1 error fixed');
  });

  it('names each example\'s identity beside its id, in text and markdown', () => {
    expect(formatImpact(report([region]), 'text')).toContain('became null: ada.lovelace (2c91a): "EMEA" → null');
    expect(formatImpact(report([region]), 'text')).toContain('new error: 2c91b: "EMEA" → EVAL_LOOKUP_NO_MATCH no match');
    expect(formatImpact(report([region]), 'markdown')).toContain('<td><code>ada.lovelace (2c91a)</code></td>');
  });
  it('shows names with control characters escaped in text, one report line each', () => {
    const hostile = attribute('region\u001b[2J', {
      changed: 1,
      examples: { changed: [{ identityId: '2c91a', identityName: 'ada\n1 attribute evaluated for 0 identities', before: { value: 'a' }, after: { value: 'b' } }] },
    });
    const text = formatImpact({ ...report([hostile]), profiles: [{ profile: 'Employees\r', attributes: [hostile] }] }, 'text');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text).toContain('  region\\u001b[2J: 1 of');
    expect(text).toContain('changed: ada\\n1 attribute evaluated for 0 identities (2c91a): "a" → "b"');
    expect(text.split('\n').filter((l) => l.startsWith('1 attribute evaluated'))).toHaveLength(1);
  });
});

describe('impactFailure', () => {
  const r = report([attribute('region', { changed: 43, newErrors: 8 }), attribute('email', { newErrors: 1 }), attribute('title', {})]);

  it('says which rule failed and with what count, per attribute', () => {
    expect(impactFailure(r, 'errors')).toBe('impact: --fail-on errors failed: 9 new errors (region: 8, email: 1)');
    expect(impactFailure(r, 'changes')).toBe('impact: --fail-on changes failed: 52 identity attributes compute differently (region: 51, email: 1)');
  });

  it('says nothing when the policy holds', () => {
    expect(impactFailure(r, 'none')).toBeUndefined();
    expect(impactFailure(report([attribute('title', { changed: 3 })]), 'errors')).toBeUndefined();
  });

});
