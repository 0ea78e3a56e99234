// The playground server against a client that does not stop: a request body that never ends is
// answered with its coded refusal and, past MAX_DISCARDED_BYTES, its connection closed — the
// server does not read it until the request timeout — and a slow impact run, of an attribute that
// issues unique names too, leaves the rest of the API answering, and stops when its client goes
// away, another run starts or its budget is spent. What Node refuses before a request exists gets the same coded answers.

import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlayHost } from '../../src/play/host.js';
import { MAX_DISCARDED_BYTES, startPlayServer, type PlayServer } from '../../src/play/server.js';
import { HEAVY, impactChildren, pastedProfile } from './impact-children.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const PAGE = resolve(import.meta.dirname, '../../src/play/page');
/** What the client would send at most: far above what the server drops before closing. */
const ENDLESS_BYTES = 8 * MAX_DISCARDED_BYTES;

/**
 * A POST whose chunked body goes on until the server closes the connection (or ENDLESS_BYTES
 * are sent): the server's answer and how much the client had sent when the connection closed.
 */
function endlessPost(server: PlayServer, path: string, headers: Record<string, string>): Promise<{ answer: string; sent: number }> {
  const port = Number(new URL(server.origin).port);
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = 'x'.repeat(64 * 1024);
    let answer = '';
    let sent = 0;
    const pump = () => {
      while (!socket.destroyed && sent < ENDLESS_BYTES) {
        sent += chunk.length;
        if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once('drain', pump);
      }
      if (!socket.destroyed) socket.end('0\r\n\r\n');
    };
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => done({ answer, sent }));
    const lines = Object.entries({ host: new URL(server.origin).host, 'transfer-encoding': 'chunked', 'content-type': 'application/json', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
    pump();
  });
}

/** What the server answers to these raw bytes, once it closes the connection. */
function raw(server: PlayServer, bytes: string): Promise<string> {
  return new Promise((done) => {
    const socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => done(answer));
    socket.write(bytes);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const codeOf = (answer: string) => (JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string } }).error.code;

describe('the playground server against a client that does not stop', () => {
  let server: PlayServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    server = await startPlayServer(await PlayHost.open(FIXTURES), { assets: PAGE });
    auth = { authorization: `token ${server.token}` };
  });
  afterAll(() => server?.close());

  it('answers a body that never ends with PLAY_REQUEST_TOO_LARGE and closes the connection', async () => {
    const { answer, sent } = await endlessPost(server, '/api/analyze', auth);
    expect(statusOf(answer)).toBe(413);
    expect(codeOf(answer)).toBe('PLAY_REQUEST_TOO_LARGE');
    expect(sent).toBeLessThan(ENDLESS_BYTES);
  });

  it('refuses a never-ending body without the token, and closes the connection', async () => {
    const { answer, sent } = await endlessPost(server, '/api/analyze', {});
    expect(statusOf(answer)).toBe(401);
    expect(codeOf(answer)).toBe('PLAY_TOKEN_INVALID');
    expect(sent).toBeLessThan(ENDLESS_BYTES);
  });

  it.each([
    ['a request without Host', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n', 403, 'PLAY_HOST_REFUSED'],
    ['a request that is not HTTP', 'HELLO\r\n\r\n', 400, 'PLAY_REQUEST_INVALID'],
    ['headers above 16 KB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 400, 'PLAY_REQUEST_INVALID'],
  ])('%s: a coded answer, not an empty one', async (_name, bytes, status, code) => {
    const answer = await raw(server, bytes);
    expect(statusOf(answer)).toBe(status);
    expect(codeOf(answer)).toBe(code);
    expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  // Node's parser lets through a request-target that is no URL (`http://[`, `//[`): it was a
  // 500 PLAY_INTERNAL, a defect of the server, for what is the client's malformed request.
  it.each(['http://[', '//[', 'http://127.0.0.1:0:0/api/state'])('answers the request-target %s, which is no URL, with 400 PLAY_REQUEST_INVALID', async (target) => {
    const answer = await raw(server, `GET ${target} HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\nConnection: close\r\n\r\n`);
    expect(statusOf(answer)).toBe(400);
    expect(codeOf(answer)).toBe('PLAY_REQUEST_INVALID');
  });

  it('answers the next call after cutting a body off', async () => {
    await endlessPost(server, '/api/analyze', auth);
    const state = await fetch(`${server.origin}/api/state`, { headers: auth });
    expect(state.status).toBe(200);
  });

  const DEFAULT_PROFILE = readFileSync(resolve(FIXTURES, 'identity-profiles/default.json'), 'utf8');
  const impactCall = (mappings: unknown[], signal?: AbortSignal) =>
    fetch(`${server.origin}/api/impact`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ document: pastedProfile(DEFAULT_PROFILE, mappings), file: 'identity-profiles/default.json' }),
      ...(signal ? { signal } : {}),
    });
  /** 30 attributes that each spend an evaluation's budget, for every identity: minutes of work. */
  const slow = Array.from({ length: 30 }, (_, k) => ({ identityAttributeName: `slow${k}`, transformDefinition: HEAVY }));

  /** Start an impact run of the mappings, make a control call once its process is at work, then cancel it: the answers in order. */
  async function controlCallDuringImpact(mappings: unknown[]): Promise<string[]> {
    const order: string[] = [];
    const cancel = new AbortController();
    const run = impactCall(mappings, cancel.signal).catch((error: Error) => void order.push(`impact ${error.name}`));
    await expect.poll(() => impactChildren().length, { timeout: 30_000 }).toBe(1);
    const state = await fetch(`${server.origin}/api/state`, { headers: auth });
    order.push(`state ${state.status}`);
    cancel.abort();
    await run;
    return order;
  }

  it('answers a control call while an impact run of a profile that spends its whole budget on every identity is under way', async () => {
    expect(await controlCallDuringImpact(slow)).toEqual(['state 200', 'impact AbortError']);
  }, 120_000);

  it('answers a control call while an attribute that issues unique names is impacted', async () => {
    // Names are issued in identities.json's order by one provider: one thread, in the run's process.
    const handle = { type: 'usernameGenerator', attributes: { patterns: ['$fn$ln${uniqueCounter}'], fn: HEAVY, ln: HEAVY } };
    const own = (JSON.parse(DEFAULT_PROFILE) as { identityAttributeConfig: { attributeTransforms: unknown[] } }).identityAttributeConfig.attributeTransforms;
    expect(await controlCallDuringImpact([...own, { identityAttributeName: 'handle', transformDefinition: handle }])).toEqual(['state 200', 'impact AbortError']);
  }, 120_000);

  it('stops the run\'s work when its client goes away (the page\'s Stop, a closed tab)', async () => {
    const cancel = new AbortController();
    const run = impactCall(slow, cancel.signal).catch((error: Error) => error.name);
    await expect.poll(() => impactChildren().length, { timeout: 30_000 }).toBe(1);
    cancel.abort();
    expect(await run).toBe('AbortError');
    await expect.poll(impactChildren, { timeout: 30_000 }).toEqual([]);
  }, 120_000);

  it('cancels the run under way when another is started: the first answers PLAY_IMPACT_CANCELLED, the second its report', async () => {
    const first = impactCall(slow);
    await expect.poll(() => impactChildren().length, { timeout: 30_000 }).toBe(1);
    const second = await impactCall([{ identityAttributeName: 'greeting', transformDefinition: { type: 'static', attributes: { value: 'hi' } } }]);
    const cancelled = await first;
    expect(cancelled.status).toBe(409);
    expect(await cancelled.json()).toEqual({ error: { code: 'PLAY_IMPACT_CANCELLED', message: 'the impact run was cancelled: another one was started' } });
    expect(second.status).toBe(200);
    expect((await second.json()) as { totals: { identities: number } }).toMatchObject({ totals: { identities: 209 } });
    expect(impactChildren()).toEqual([]);
  }, 120_000);
});

describe('the playground server\'s budget of an impact run', () => {
  let server: PlayServer;
  let auth: Record<string, string>;

  beforeAll(async () => {
    server = await startPlayServer(await PlayHost.open(FIXTURES, { impactBudget: { maxTime: 3_000, maxHeapMb: 512 } }), { assets: PAGE });
    auth = { authorization: `token ${server.token}` };
  });
  afterAll(() => server?.close());

  it('answers a run past its time with PLAY_IMPACT_BUDGET in the platform\'s error body, and stops its work', async () => {
    const slow = Array.from({ length: 30 }, (_, k) => ({ identityAttributeName: `slow${k}`, transformDefinition: HEAVY }));
    const document = pastedProfile(readFileSync(resolve(FIXTURES, 'identity-profiles/default.json'), 'utf8'), slow);
    const answer = await fetch(`${server.origin}/api/impact`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ document, file: 'identity-profiles/default.json' }) });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: { code: 'PLAY_IMPACT_BUDGET', message: expect.stringContaining('took more than its 3 s') } });
    expect(impactChildren()).toEqual([]);
  }, 120_000);
});
