// engine.explain (src/engine/trace.ts, explain-text.ts): for every bundled fixture transform and
// a sample of identities, the explanation's outcome is evaluate()'s, every node of the tree is
// located in its document, and the decisions agree with the values they produced.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../cli/run.js';
import { createEngine, type Explanation } from '../../src/engine/engine.js';
import type { TraceNode } from '../../src/engine/trace.js';
import { formatExplanation } from '../../src/engine/explain-text.js';
import { isTransformsError } from '../../src/errors/index.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { loadFixtures } from '../../src/providers/fixtures.js';
import type { TransformDocument } from '../../src/providers/types.js';
import { FIXTURES, NOW } from '../refresh/tenants.js';

const fixtures = loadFixtures(FIXTURES);
const providers = createMemoryProviders(fixtures);
const engine = createEngine({ providers, clock: () => new Date(NOW), random: () => 0.5 });
const transforms = readdirSync(join(FIXTURES, 'transforms'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(FIXTURES, 'transforms', f), 'utf8')) as TransformDocument);
const sample = fixtures.identities.filter((_i, n) => n % 20 === 0);
const identity = fixtures.identities[3]!;

/** The value at a JSON Pointer, or undefined. */
function at(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((v, t) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[t] : undefined), doc);
}

function* nodes(node: TraceNode): Generator<TraceNode> {
  yield node;
  for (const child of node.children) yield* nodes(child);
}

function outcome(transform: TransformDocument, identityId: string): { value?: unknown; error?: string } {
  try {
    return { value: engine.evaluateSync(transform, { identity: identityId }) };
  } catch (error) {
    if (!isTransformsError(error)) throw error;
    return { error: error.code };
  }
}

describe('engine.explain over every bundled fixture transform', () => {
  it.each(transforms.map((t) => [t.name!, t] as const))('%s', (_name, transform) => {
    for (const identity of sample) {
      const explanation: Explanation = engine.explain(transform, { identity: identity.id });
      expect(explanation.error ? { error: explanation.error.code } : { value: explanation.value }).toEqual(outcome(transform, identity.id));
      expect(explanation.trace).toMatchObject({ type: transform.type, pointer: '' });
      for (const node of nodes(explanation.trace)) {
        // Every node is found where it says, in the explained document or the referenced one.
        const doc = node.transform === undefined ? transform : transforms.find((t) => t.name === node.transform);
        expect((at(doc, node.pointer) as { type?: string } | undefined)?.type, `${node.transform ?? ''}${node.pointer}`).toBe(node.type);
        expect('value' in node || 'error' in node).toBe(true);
        if (node.type === 'accountAttribute' && node.decisions) {
          const d = node.decisions as { accounts: { id: string; value: unknown; droppedBy?: string }[]; returned: string | null; order: string[] };
          const returned = d.accounts.find((a) => a.id === d.returned);
          // The account it says it returned holds the node's value (with the first link, that value may be null).
          if (!node.error) expect(returned ? returned.value : null).toEqual(node.value);
          for (const a of d.accounts) expect(d.order.includes(a.id)).toBe(a.droppedBy === undefined);
        }
        if (node.type === 'reference' && !node.error) {
          expect(node.decisions).toEqual({ transform: (at(doc, node.pointer) as { attributes: { id: string } }).attributes.id });
          expect(node.children.at(-1)).toMatchObject({ transform: node.decisions!.transform, pointer: '', value: node.value });
        }
      }
      expect(formatExplanation(explanation).split('\n').length).toBeGreaterThan(1);
    }
  });
});

describe('engine.explain', () => {

  it('records the candidate accounts with their sort keys, which filter dropped each, and which one was returned', () => {
    const explanation = engine.explain(
      { name: 'mail', type: 'accountAttribute', attributes: { sourceName: 'Active Directory', attributeName: 'mail', accountPropertyFilter: '(mail != null)', accountSortDescending: true } },
      { identity: identity.id },
    );
    const d = explanation.trace.decisions as { accounts: { id: string; droppedBy?: string; sortKey: unknown }[]; order: string[]; returned: string | null; descending: boolean };
    expect(d.descending).toBe(true);
    expect(d.accounts.length).toBeGreaterThan(0);
    expect(d.accounts.filter((a) => a.droppedBy === 'accountPropertyFilter').length + d.order.length).toBe(d.accounts.length);
    expect(d.returned).toBe(d.order[0] ?? null);
  });

  it('names the source, the attribute, the filters, the sort and the account that won', () => {
    const ad = fixtures.sources.find((s) => s.name === 'Active Directory')!;
    const explanation = engine.explain(
      { name: 'mail', type: 'accountAttribute', attributes: { sourceName: 'Active Directory', attributeName: 'mail', accountFilter: 'nativeIdentity != "nobody"', accountPropertyFilter: '(mail != null)' } },
      { identity: identity.id },
    );
    const d = explanation.trace.decisions as { returned: string; accounts: { id: string; name: string }[] };
    expect(d).toMatchObject({
      source: { id: ad.id, name: 'Active Directory' },
      attribute: 'mail',
      accountFilter: 'nativeIdentity != "nobody"',
      accountPropertyFilter: '(mail != null)',
      sortAttribute: 'created',
      descending: false,
    });
    const won = d.accounts.find((a) => a.id === d.returned)!;
    const text = formatExplanation(explanation);
    expect(text).toContain('reads "mail" of the identity\'s accounts on source "Active Directory"');
    expect(text).toContain('accountFilter: nativeIdentity != "nobody"');
    expect(text).toContain('accountPropertyFilter: (mail != null)');
    expect(text).toMatch(/\d+ accounts? considered, sorted by created ascending/);
    expect(text).toContain(`won: ${JSON.stringify(won.name)}`);
  });

  it('warns of an attribute no account of the source carries, with the closest name, in the trace and its text', () => {
    const explanation = engine.explain({ name: 'm', type: 'accountAttribute', attributes: { sourceName: 'Active Directory', attributeName: 'mial' } }, { identity: identity.id });
    expect(explanation.value).toBeNull();
    expect(explanation.trace.decisions).toMatchObject({ unknownAttribute: { suggestion: 'mail' } });
    expect(formatExplanation(explanation)).toContain('warning: no account of source "Active Directory" carries "mial": it reads as null; did you mean "mail"?');
    const known = engine.explain({ name: 'm', type: 'accountAttribute', attributes: { sourceName: 'Active Directory', attributeName: 'mail' } }, { identity: identity.id });
    expect(known.trace.decisions).not.toHaveProperty('unknownAttribute');
  });

  it('says which lookup key was tried and whether the default was used', () => {
    const lookup = { name: 'l', type: 'lookup', attributes: { input: 'ZZZ', table: { LON: 'uk', default: 'other' } } };
    const explanation = engine.explain(lookup, {});
    expect(explanation.value).toBe('other');
    expect(explanation.trace.decisions).toEqual({ key: 'ZZZ', matched: false, usedDefault: true });
  });

  it('keeps the error and the nodes that ran before it', () => {
    const explanation = engine.explain({ name: 'e', type: 'lookup', attributes: { input: 'ZZZ', table: { LON: 'uk' } } }, {});
    expect(explanation.error).toMatchObject({ code: 'EVAL_LOOKUP_NO_MATCH', path: '/attributes/table' });
    expect(explanation.trace.error?.code).toBe('EVAL_LOOKUP_NO_MATCH');
  });

  it('needs synchronous providers, and says so', async () => {
    const asyncEngine = createEngine({ providers: { ...providers, identities: { getIdentity: async (id) => providers.identities!.getIdentity(id) } } });
    expect(() => asyncEngine.explain({ name: 'u', type: 'upper', attributes: { input: 'a' } }, { identity: identity.id })).toThrow(expect.objectContaining({ code: 'ENGINE_ASYNC_PROVIDER' }));
  });

  it('leaves ordinary compiles untouched: the compiled closure of evaluate() is not the explained one', () => {
    const t = { name: 'x', type: 'upper', attributes: { input: 'a' } };
    engine.explain(t, {});
    expect(engine.evaluateSync(t)).toBe('A');
    expect(engine.cacheStats().transforms.size).toBeGreaterThan(0);
  });

  it('resolves a reference through the explained evaluation\'s own host: traced inside explain, ordinary afterwards', () => {
    const fresh = createEngine({ providers, clock: () => new Date(NOW), random: () => 0.5 });
    const target = transforms.find((t) => t.type === 'static')!;
    const ref = { name: 'r', type: 'reference', attributes: { id: target.name } };
    const explanation = fresh.explain(ref, { identity: identity.id });
    expect(explanation.trace.decisions).toEqual({ transform: target.name });
    expect(explanation.trace.children[0]).toMatchObject({ type: 'static', pointer: '', transform: target.name });
    expect(fresh.cacheStats().transforms).toMatchObject({ size: 0, misses: 0 });
    expect(fresh.evaluateSync(ref, { identity: identity.id })).toEqual(explanation.value);
    // The ordinary evaluation compiled both transforms the ordinary way, into the ordinary cache.
    expect(fresh.cacheStats().transforms).toMatchObject({ size: 2, misses: 2 });
  });
});

describe('evaluate --explain', () => {
  const file = join(FIXTURES, 'transforms', 'display-name-and-worker-type.json');

  it('prints the tree, with the referenced transforms inside it', async () => {
    const r = await run('evaluate', file, '--fixtures', FIXTURES, '--identity', identity.id, '--now', NOW, '--explain');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^concat \/ {2}= ".+"$/m);
    expect(r.out).not.toContain('input null');
    expect(r.out).toContain('evaluates transform "Get Display Name"');
    expect(r.out).toMatch(/static in "Get Display Name" \//);
    expect(r.out.trimEnd().split('\n').at(-1)).toMatch(/^value: ".+ - .+"$/);
  });

  it('gives the same as data with --format json, and refuses --tenant', async () => {
    const r = await run('evaluate', file, '--fixtures', FIXTURES, '--identity', identity.id, '--now', NOW, '--explain', '--format', 'json');
    const data = JSON.parse(r.out) as Explanation;
    expect(data.value).toBe(engine.evaluateSync(JSON.parse(readFileSync(file, 'utf8')), { identity: identity.id }));
    expect(data.trace.type).toBe('concat');
    expect(r.out).toContain('"input": null'); // the data keeps every node's input, null or not
    const tenant = await run('evaluate', file, '--tenant', 'http://127.0.0.1:1', '--identity', identity.id, '--explain');
    expect(tenant.code).toBe(2);
    expect(tenant.err).toContain('--explain evaluates against --fixtures');
  });
});
