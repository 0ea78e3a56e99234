// Loading the identity graph of $identity (engine/identity-graph.ts): providers that answer at
// once (a refresh, read without a promise chain) and the same providers answering with promises
// give the same graph, ask the providers the same questions in the same order, and fail with the
// same coded error when one of them fails or some sources are unknown. Only the parts read are
// loaded: a provider that fails fails the evaluation only when its part is read.

import { describe, expect, it } from 'vitest';
import { PartialIdentityGraph } from '../../src/engine/identity-graph.js';
import { IDENTITY_ONLY, MANAGER_ONLY, WHOLE_GRAPH, type IdentityReach } from '../../src/engine/identity-reach.js';
import type { Account, Identity, Providers, Source } from '../../src/providers/types.js';

const sources: Source[] = [
  { id: 's1', name: 'One' },
  { id: 's2', name: 'Two' },
] as Source[];
const accounts = [
  { id: 'a1', sourceId: 's2', identityId: 'i1', nativeIdentity: 'a1', name: 'a1', attributes: {} },
  { id: 'a2', sourceId: 's1', identityId: 'i1', nativeIdentity: 'a2', name: 'a2', attributes: {} },
  { id: 'a3', sourceId: 's2', identityId: 'i1', nativeIdentity: 'a3', name: 'a3', attributes: {} },
  { id: 'a4', sourceId: 's9', identityId: 'i1', nativeIdentity: 'a4', name: 'a4', attributes: {} },
] as Account[];
const manager = { id: 'm1', name: 'boss', attributes: {} } as Identity;
const identity = { id: 'i1', name: 'jdoe', attributes: {}, managerId: 'm1' } as Identity;

type Failing = 'accounts' | 'manager' | 's1' | undefined;
const LINKS_ONLY: IdentityReach = { manager: false, links: true };

/** Providers recording what they are asked; `wrap` turns each answer into a promise or not; `failing` throws. */
function providers(asynchronous: boolean, failing: Failing, calls: string[]): Providers {
  const answer = <T>(what: string, value: () => T): T | Promise<T> => {
    calls.push(what);
    if (failing !== undefined && what.endsWith(failing)) {
      if (asynchronous) return Promise.reject(new Error(`${what} down`));
      throw new Error(`${what} down`);
    }
    return asynchronous ? Promise.resolve(value()) : value();
  };
  return {
    accounts: { listAccounts: () => answer('accounts', () => accounts) },
    identities: { getIdentity: (id) => answer(`identity ${id === 'm1' ? 'manager' : id}`, () => (id === 'm1' ? manager : null)) },
    sources: { resolveSource: (ref) => answer(`source ${ref.sourceId}`, () => sources.find((s) => s.id === ref.sourceId) ?? null) },
  };
}

async function outcome(asynchronous: boolean, failing: Failing, reach: IdentityReach = WHOLE_GRAPH): Promise<{ result: unknown; calls: string[] }> {
  const calls: string[] = [];
  try {
    const graph = await new PartialIdentityGraph(identity, providers(asynchronous, failing, calls), undefined).load(reach);
    const result: Record<string, unknown> = { identity: graph.identity };
    if (reach.links) Object.assign(result, { accounts: graph.accounts, sources: [...graph.sources] });
    if (reach.manager) result.manager = graph.manager;
    return { result, calls };
  } catch (e) {
    const error = e as { code?: string; message?: string };
    return { result: { code: error.code, message: error.message }, calls };
  }
}

describe('loading the identity graph', () => {
  it('gives the accounts, the sources in order of first use (unknown ones left out) and the manager', async () => {
    const { result, calls } = await outcome(false, undefined);
    expect(result).toEqual({ identity, accounts, sources: [['s2', sources[1]], ['s1', sources[0]]], manager });
    expect(calls).toEqual(['accounts', 'identity manager', 'source s2', 'source s1', 'source s9']);
  });

  it.each<Failing>([undefined, 'accounts', 'manager', 's1'])('answers at once and answers by promise agree when %s fails', async (failing) => {
    const sync = await outcome(false, failing);
    const async = await outcome(true, failing);
    expect(sync.result).toEqual(async.result);
    if (failing !== undefined) expect(sync.result).toMatchObject({ code: 'EVAL_PROVIDER_FAILED' });
    // Answers at once stop at the first failure; with promises every question was already asked.
    if (failing === undefined) expect(sync.calls).toEqual(async.calls);
  });

  it.each<[string, IdentityReach, Record<string, unknown>, string[]]>([
    ['nothing but the identity', IDENTITY_ONLY, { identity }, []],
    ['the manager', MANAGER_ONLY, { identity, manager }, ['identity manager']],
    ['the links', LINKS_ONLY, { identity, accounts, sources: [['s2', sources[1]], ['s1', sources[0]]] }, ['accounts', 'source s2', 'source s1', 'source s9']],
  ])('asks only for what is read: %s', async (_what, reach, graph, asked) => {
    for (const asynchronous of [false, true]) {
      const { result, calls } = await outcome(asynchronous, undefined, reach);
      expect(result).toEqual(graph);
      expect(calls).toEqual(asked);
    }
  });

  it.each<[Failing, IdentityReach, boolean]>([
    ['accounts', MANAGER_ONLY, false],
    ['s1', MANAGER_ONLY, false],
    ['manager', LINKS_ONLY, false],
    ['manager', IDENTITY_ONLY, false],
    ['accounts', IDENTITY_ONLY, false],
    ['manager', MANAGER_ONLY, true],
    ['s1', LINKS_ONLY, true],
    ['accounts', LINKS_ONLY, true],
  ])('a failing %s provider fails the load only when its part is read (reach %j: %s)', async (failing, reach, fails) => {
    for (const asynchronous of [false, true]) {
      const { result } = await outcome(asynchronous, failing, reach);
      if (fails) expect(result).toMatchObject({ code: 'EVAL_PROVIDER_FAILED' });
      else expect(result).toHaveProperty('identity', identity);
    }
  });

  it('reading the manager first and the links after asks each question once, in the whole graph\'s order otherwise', async () => {
    const calls: string[] = [];
    const graph = new PartialIdentityGraph(identity, providers(false, undefined, calls), new Map());
    graph.load(MANAGER_ONLY);
    graph.load(MANAGER_ONLY);
    expect(calls).toEqual(['identity manager']);
    graph.load(WHOLE_GRAPH);
    graph.load(WHOLE_GRAPH);
    expect(calls).toEqual(['identity manager', 'accounts', 'source s2', 'source s1', 'source s9']);
    expect(graph.manager).toBe(manager);
    expect(graph.accounts).toBe(accounts);
  });

  it('a part read before it is loaded is an internal error, never a silent null', () => {
    const graph = PartialIdentityGraphOf(identity);
    expect(() => graph.manager).toThrow(expect.objectContaining({ code: 'EVAL_INTERNAL' }));
    expect(() => graph.accounts).toThrow(expect.objectContaining({ code: 'EVAL_INTERNAL' }));
  });

  it('a second graph of the same profile evaluation reuses the parts the first loaded', () => {
    const calls: string[] = [];
    const shared = new Map<string, unknown>();
    new PartialIdentityGraph(identity, providers(false, undefined, calls), shared).load(WHOLE_GRAPH);
    const second = new PartialIdentityGraph(identity, providers(false, undefined, calls), shared);
    second.load(WHOLE_GRAPH);
    expect(calls).toEqual(['accounts', 'identity manager', 'source s2', 'source s1', 'source s9']);
    expect(second.manager).toBe(manager);
  });
});

function PartialIdentityGraphOf(who: Identity): PartialIdentityGraph {
  return new PartialIdentityGraph(who, providers(false, undefined, []), undefined);
}
