// snapshotTenant() against serve over the bundled tenant: the parts and the profile asked for,
// an output directory that is not a snapshot refused, a failed copy leaving the previous
// snapshot as it was, options and keys checked; and the CLI over it.

import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { isTransformsError } from '../../src/errors/index.js';
import { createTenantProviders } from '../../src/providers/tenant/index.js';
import { snapshotTenant, type SnapshotOptions } from '../../src/snapshot/index.js';
import { ADMIN_PAT, resourceServer, type ResourceServer } from '../api/resources-server.js';

let server: ResourceServer;
let baseUrl: string;
const tmp = mkdtempSync(join(tmpdir(), 'idt-snapshot-'));
const credentials = () => ({ baseUrl, clientId: ADMIN_PAT.id, clientSecret: ADMIN_PAT.secret });
const take = (out: string, extra: Partial<SnapshotOptions> = {}) => snapshotTenant({ tenant: credentials(), out: join(tmp, out), now: () => Date.parse('2025-06-01T00:00:00Z'), ...extra });
const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (isTransformsError(e) ? e.code : String(e)));

beforeAll(async () => {
  server = await resourceServer();
  baseUrl = await server.listen();
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('snapshotTenant over the bundled tenant', () => {
  it('copies what the fixtures hold, in the fixture format', async () => {
    const summary = await take('all');
    expect(summary.counts).toEqual({ sources: 6, identities: 209, accounts: 861, transforms: 70, profiles: 1 });
    const bundled = (f: string) => JSON.parse(readFileSync(new URL(`../../fixtures/${f}`, import.meta.url), 'utf8')) as { id: string }[];
    const copied = (f: string) => JSON.parse(readFileSync(join(tmp, 'all', f), 'utf8')) as { id: string }[];
    const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(copied('identities.json')).toEqual(byId(bundled('identities.json')).map((i) => ({ managerId: null, ...i })));
    expect(byId(copied('accounts.json'))).toEqual(byId(bundled('accounts.json')));
    // Each source's schemas, with its source's id: the account schema the server derived from its accounts.
    const schemas = copied('source-schemas.json') as unknown as { sourceId: string; name: string; attributes: { name: string }[] }[];
    expect(schemas.map((s) => s.sourceId)).toEqual(byId(bundled('sources.json')).map((s) => s.id));
    const workday = bundled('sources.json').find((s) => (s as { name?: string }).name === 'Workday')!;
    expect(schemas.find((s) => s.sourceId === workday.id && s.name === 'account')!.attributes.map((a) => a.name)).toContain('FIRST_NAME');
    const transform = JSON.parse(readFileSync(join(tmp, 'all', 'transforms', 'CleanDepartment.json'), 'utf8'));
    expect(transform).toMatchObject({ name: 'Clean Department', type: 'replace' });
    expect(JSON.parse(readFileSync(join(tmp, 'all', '.snapshot.json'), 'utf8'))).toMatchObject({ format: 1, tenant: baseUrl, takenAt: '2025-06-01T00:00:00.000Z', profile: null, pseudonymized: null });
  });

  it('copies only the parts asked for, and only the profile asked for', async () => {
    await take('config', { only: ['sources', 'transforms', 'profiles'], profile: 'Employees' });
    expect(readdirSync(join(tmp, 'config')).sort()).toEqual(['.snapshot.json', 'identity-profiles', 'source-schemas.json', 'sources.json', 'transforms']);
    expect(readdirSync(join(tmp, 'config', 'identity-profiles'))).toEqual(['Employees.json']);
    expect(await codeOf(take('nope', { profile: 'Contractors' }))).toBe('SNAPSHOT_PROFILE');
    expect(existsSync(join(tmp, 'nope'))).toBe(false);
  });

  it('keeps a private snapshot private: the copy replacing a 0700 directory is 0700 too', async () => {
    await take('private', { only: ['sources'] });
    chmodSync(join(tmp, 'private'), 0o700);
    await take('private', { only: ['sources'] });
    expect(statSync(join(tmp, 'private')).mode & 0o777).toBe(0o700);
  });

  it('refuses an output directory that holds anything but a snapshot', async () => {
    mkdirSync(join(tmp, 'home'));
    writeFileSync(join(tmp, 'home', 'notes.txt'), 'mine');
    expect(await codeOf(take('home'))).toBe('SNAPSHOT_OUT');
    expect(readdirSync(join(tmp, 'home'))).toEqual(['notes.txt']);
  });

  it('leaves the previous snapshot as it was when a copy fails midway', async () => {
    await take('kept');
    const before = readFileSync(join(tmp, 'kept', 'accounts.json'), 'utf8');
    let accounts = 0;
    const failing: typeof fetch = async (input, init) => {
      if (String(input).includes('/v3/accounts') && ++accounts === 3) return new Response(JSON.stringify({ messages: [{ text: 'no' }] }), { status: 400 });
      return fetch(input, init);
    };
    const tenant = createTenantProviders({ ...credentials(), fetch: failing, cache: false });
    expect(await codeOf(snapshotTenant({ tenant, out: join(tmp, 'kept'), pageSize: 50 }))).toBe('TENANT_HTTP');
    expect(readFileSync(join(tmp, 'kept', 'accounts.json'), 'utf8')).toBe(before);
    expect(existsSync(join(tmp, '.kept.snapshot-partial', 'checkpoint.json'))).toBe(true);
  });

  it('refuses a tenant whose search hands out one identity twice, leaving the previous snapshot as it was (decision S12)', async () => {
    await take('repeated');
    const before = readFileSync(join(tmp, 'repeated', 'identities.json'), 'utf8');
    let searches = 0;
    // The second page of the walk begins with the first page's last identity again.
    let lastOfFirst: unknown;
    const repeating: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (!String(input).includes('/v3/search')) return answer;
      const hits = (await answer.json()) as unknown[];
      if (++searches === 1) lastOfFirst = hits[hits.length - 1];
      const page = searches === 2 ? [lastOfFirst, ...hits.slice(0, -1)] : hits;
      return new Response(JSON.stringify(page), { status: answer.status, headers: answer.headers });
    };
    const tenant = createTenantProviders({ ...credentials(), fetch: repeating, cache: false });
    const failure = await snapshotTenant({ tenant, out: join(tmp, 'repeated'), pageSize: 50 }).then(() => undefined, (e: unknown) => e);
    expect(isTransformsError(failure) && failure.code).toBe('TENANT_RESPONSE');
    expect((failure as Error).message).toMatch(/^\/v3\/search handed out the hit whose id is "[^"]+" twice; a search walked with searchAfter gives each id once$/);
    expect(readFileSync(join(tmp, 'repeated', 'identities.json'), 'utf8')).toBe(before);
  });

  it('checks its options and the key', async () => {
    expect(await codeOf(take('x', { only: ['everything' as never] }))).toBe('SNAPSHOT_OPTIONS');
    expect(await codeOf(take('x', { pageSize: 0 }))).toBe('SNAPSHOT_OPTIONS');
    expect(await codeOf(take('x', { colour: true } as never))).toBe('SNAPSHOT_OPTIONS');
    expect(await codeOf(take('x', { pseudonymizationKey: Buffer.from('short') }))).toBe('SNAPSHOT_KEY');
    expect(await codeOf(take('x', { since: join(tmp, 'missing') }))).toBe('SNAPSHOT_PREVIOUS');
    expect(await codeOf(take('x', { since: join(tmp, 'config') }))).toBe('SNAPSHOT_PREVIOUS');
  });

  // A FIFO held the command in a read that not even SIGTERM ended; /dev/zero was read by gigabytes.
  it.each([
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    ['a link to /dev/zero', (file: string) => symlinkSync('/dev/zero', file)],
  ])('refuses a previous snapshot whose manifest is %s, unread, with SNAPSHOT_PREVIOUS', async (name, make) => {
    const since = join(tmp, `since-${name.replace(/\W+/g, '-')}`);
    mkdirSync(since);
    make(join(since, '.snapshot.json'));
    const error = await take('after-hostile-since', { since }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SNAPSHOT_PREVIOUS', message: `${since} is not a complete snapshot: cannot read .snapshot.json (is not a regular file (a device, a FIFO or a socket))` });
  });

  it('starts afresh over an interrupted copy whose checkpoint is a FIFO, without reading it', async () => {
    const work = join(tmp, '.fifo-checkpoint.snapshot-partial');
    mkdirSync(work);
    execFileSync('mkfifo', [join(work, 'checkpoint.json')]);
    await take('fifo-checkpoint', { only: ['sources'] });
    expect(JSON.parse(readFileSync(join(tmp, 'fifo-checkpoint', 'sources.json'), 'utf8'))).not.toHaveLength(0);
  });

  it('refuses a previous snapshot whose manifest says it was taken after now: changes since then would be missed', async () => {
    await take('future');
    const manifest = join(tmp, 'future', '.snapshot.json');
    const edited = { ...JSON.parse(readFileSync(manifest, 'utf8')), takenAt: '2999-01-01T00:00:00.000Z' };
    writeFileSync(manifest, JSON.stringify(edited));
    const error = await take('after-future', { since: join(tmp, 'future') }).catch((e: unknown) => e);
    expect(isTransformsError(error) && error.code).toBe('SNAPSHOT_PREVIOUS');
    expect((error as Error).message).toMatch(/taken at 2999-01-01T00:00:00.000Z, after now/);
    expect(existsSync(join(tmp, 'after-future'))).toBe(false);
  });

  it('starts over rather than resume from files shorter than the checkpoint says (the data never reached the disk)', async () => {
    await take('whole');
    const abort = new AbortController();
    const stopped = await take('cut', {
      pageSize: 50,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.phase === 'identities' && p.identities >= 100) abort.abort();
      },
    }).catch((e: unknown) => e);
    expect(isTransformsError(stopped) && stopped.code).toBe('SNAPSHOT_ABORTED');
    const partial = join(tmp, '.cut.snapshot-partial', 'identities.json');
    const checkpoint = JSON.parse(readFileSync(join(tmp, '.cut.snapshot-partial', 'checkpoint.json'), 'utf8')) as { identities: { bytes: number } };
    expect(checkpoint.identities.bytes).toBeGreaterThan(100);
    writeFileSync(partial, readFileSync(partial).subarray(0, checkpoint.identities.bytes - 100));
    const summary = await take('cut', { pageSize: 50 });
    expect(summary.resumed).toBe(false);
    for (const f of ['identities.json', 'accounts.json']) expect(readFileSync(join(tmp, 'cut', f), 'utf8')).toBe(readFileSync(join(tmp, 'whole', f), 'utf8'));
  });

  it('reads a previous snapshot whose manifest and array files a text editor saved with a byte-order mark (decision C4)', async () => {
    await take('bom');
    for (const f of ['.snapshot.json', 'identities.json', 'accounts.json']) writeFileSync(join(tmp, 'bom', f), `\ufeff${readFileSync(join(tmp, 'bom', f), 'utf8')}`);
    await take('after-bom', { since: join(tmp, 'bom') });
    await take('full-now');
    for (const f of ['identities.json', 'accounts.json', 'sources.json']) expect(readFileSync(join(tmp, 'after-bom', f), 'utf8')).toBe(readFileSync(join(tmp, 'full-now', f), 'utf8'));
  });
});

describe('identity-transforms snapshot', () => {
  const run = async (args: string[], env: Record<string, string> = { IDT_CLIENT_ID: ADMIN_PAT.id, IDT_CLIENT_SECRET: ADMIN_PAT.secret }) => {
    let out = '';
    let err = '';
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const code = await main(['snapshot', ...args], { out: (t) => void (out += t), err: (t) => void (err += t) });
      return { code, out, err };
    } finally {
      process.env = saved;
    }
  };

  it('copies a tenant and prints a summary on stderr; --since merges', async () => {
    const first = await run(['--tenant', baseUrl, '--out', join(tmp, 'cli')]);
    expect(first).toMatchObject({ code: 0, out: '' });
    expect(first.err).toMatch(/^snapshot full of .*cli taken at .*\n {2}209 identities, 861 accounts, 6 sources, 70 transforms, 1 identity profiles\n {2}\d+ requests \(0 retried\)/);
    const second = await run(['--tenant', baseUrl, '--out', join(tmp, 'cli'), '--since', join(tmp, 'cli'), '--no-progress']);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/snapshot incremental .*\n.*\n {2}since the previous snapshot: \d+ identities fetched again, 0 deleted/);
  });

  it('pseudonymizes with a key file', async () => {
    writeFileSync(join(tmp, 'key'), 'k'.repeat(32));
    expect((await run(['--tenant', baseUrl, '--out', join(tmp, 'cli-p'), '--pseudonymize', '--key-file', join(tmp, 'key'), '--only', 'identities'])).code).toBe(0);
    const text = readFileSync(join(tmp, 'cli-p', 'identities.json'), 'utf8');
    expect(text).not.toContain('fatima.schroder');
    expect(text).toContain('"department":"Executive"');
  });

  it.each([
    [['--out', 'x'], 'snapshot needs --tenant'],
    [['--tenant', 'http://127.0.0.1:1'], 'snapshot needs --out'],
    [['--tenant', 'http://127.0.0.1:1', '--out', 'x', '--pseudonymize'], '--pseudonymize needs --key-file'],
    [['--tenant', 'http://127.0.0.1:1', '--out', 'x', '--only', 'sources,people'], '(not "people")'],
    [['--tenant', 'http://127.0.0.1:1', '--out', 'x', '--rate', '0'], '--rate must be an integer'],
    [['--tenant', 'http://127.0.0.1:1', '--out', 'x', '--colour'], 'unknown option --colour'],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.err).toContain('CLI_USAGE');
    expect(r.err).toContain(message);
  });

  it('exits 1 with SNAPSHOT_KEY when the key file is missing or short', async () => {
    const r = await run(['--tenant', baseUrl, '--out', join(tmp, 'k'), '--pseudonymize', '--key-file', join(tmp, 'no-key')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^SNAPSHOT_KEY cannot read the key file/);
  });

  // /dev/urandom as the key file was read without end, the process growing by gigabytes.
  it('exits 1 with SNAPSHOT_KEY for a key file without end, having read only its bound', async () => {
    const r = await run(['--tenant', baseUrl, '--out', join(tmp, 'k'), '--pseudonymize', '--key-file', '/dev/urandom']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('SNAPSHOT_KEY cannot read the key file /dev/urandom: holds more than 65536 bytes\n');
  });
});
