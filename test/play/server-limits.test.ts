// The playground server against a client that does not stop: a request body that never ends is
// answered with its coded refusal and, past MAX_DISCARDED_BYTES, its connection closed — the
// server does not read it until the request timeout — and a slow impact run, of an attribute that
// issues unique names too, leaves the rest of the API answering. What Node refuses before a request exists gets the same coded answers.

import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlayHost } from '../../src/play/host.js';
import { MAX_DISCARDED_BYTES, startPlayServer, type PlayServer } from '../../src/play/server.js';

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

  it('answers the next call after cutting a body off', async () => {
    await endlessPost(server, '/api/analyze', auth);
    const state = await fetch(`${server.origin}/api/state`, { headers: auth });
    expect(state.status).toBe(200);
  });

  /**
   * Start an impact run of the default profile with its mappings edited, make a
   * control call once the run is under way (a second run is refused as busy), and say in which
   * order the answers came.
   */
  async function controlCallDuringImpact(edit: (mappings: unknown[]) => unknown[]): Promise<string[]> {
    const profile = JSON.parse(readFileSync(resolve(FIXTURES, 'identity-profiles/default.json'), 'utf8')) as { identityAttributeConfig: { attributeTransforms: unknown[] } };
    profile.identityAttributeConfig.attributeTransforms = edit(profile.identityAttributeConfig.attributeTransforms);
    const order: string[] = [];
    const run = fetch(`${server.origin}/api/impact`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ document: JSON.stringify(profile), file: 'identity-profiles/default.json' }),
    }).then(async (r) => {
      order.push(`impact ${r.status}`);
      await r.text();
    });
    let busy: Response;
    do busy = await fetch(`${server.origin}/api/impact`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ document: '{}', file: 'identity-profiles/default.json' }) });
    while (busy.status !== 409 && order.length === 0);
    order.push(`busy ${busy.status}`);
    await busy.text();
    const state = await fetch(`${server.origin}/api/state`, { headers: auth });
    order.push(`state ${state.status}`);
    await run;
    return order;
  }

  /** Counts to the iteration limit's edge: about an evaluation's budget for every identity. */
  const HEAVY = { type: 'static', attributes: { value: '#set($n=0)#foreach($i in [1..99990])#set($n=$n+1)#end$n' } };

  it('answers a control call while an impact run of a profile that spends its whole budget on every identity is under way', async () => {
    const slow = Array.from({ length: 30 }, (_, k) => ({ identityAttributeName: `slow${k}`, transformDefinition: HEAVY }));
    expect(await controlCallDuringImpact(() => slow)).toEqual(['busy 409', 'state 200', 'impact 200']);
  }, 120_000);

  it('answers a control call while an attribute that issues unique names is impacted: its pass runs on one worker thread', async () => {
    // Names are issued in identities.json's order by one provider: one thread, never the server's.
    // The profile's own mappings stay as they are: the new one is the only attribute impacted.
    const handle = { type: 'usernameGenerator', attributes: { patterns: ['$fn$ln${uniqueCounter}'], fn: HEAVY, ln: HEAVY } };
    expect(await controlCallDuringImpact((own) => [...own, { identityAttributeName: 'handle', transformDefinition: handle }])).toEqual(['busy 409', 'state 200', 'impact 200']);
  }, 120_000);
});
