// Attacks on the command line's files and tenant, run against the installed package's bin as a
// user runs it: a directory holding a link to /dev/zero and a FIFO named outright (validate),
// a file far over the 400 KB limit, a private --out file replaced by refresh, names that forge
// GitHub workflow commands in impact --format github, and a tenant URL with a password or a
// token endpoint that redirects the client secret elsewhere (snapshot), a tenant whose listing
// holds a null (verify), a pull request's tree with a link to a file outside it and 2,000 files of
// one name (validate --format sarif). Each ends in a coded error or a bounded, escaped output;
// none is judged by how long it took.

import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executedCommands } from '../errors/workflow-runner.js';
import { hostileTenant, tokenAnswer, type HostileTenant } from '../providers/hostile-tenant.js';
import { installed, type Installed } from './install.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

let pkg: Installed;
let dir: string;
beforeAll(async () => {
  pkg = await installed();
  dir = mkdtempSync(join(tmpdir(), 'idt-hostile-cli-'));
}, 30 * 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The installed bin, run asynchronously (a stub tenant in this process must keep answering). */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    // The timeout only keeps a regression from hanging the suite; no assertion depends on it.
    execFile(pkg.bin, args, { cwd: dir, env: { ...pkg.env, ...env }, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out: stdout, err: stderr });
    });
  });
}

const transform = (name: string) => JSON.stringify({ name, type: 'lower', attributes: {} });

describe('validate reads only regular files, within 400 KB', () => {
  it('refuses a directory holding a link to /dev/zero as unreadable input, without reading it', async () => {
    const tree = join(dir, 'zero-tree');
    mkdirSync(tree);
    writeFileSync(join(tree, 'ok.json'), transform('Lower'));
    symlinkSync('/dev/zero', join(tree, 'zero.json'));
    const r = await cli(['validate', 'zero-tree']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('CLI_READ cannot read zero-tree/zero.json: is not a regular file (a device, a FIFO or a socket)\n');
  });

  it('refuses a FIFO named outright instead of waiting for a writer', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    const r = await cli(['validate', 'pipe.json']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('CLI_READ cannot read pipe.json: is not a regular file (a device, a FIFO or a socket)\n');
  });

  it('reports a 50 MB file as VALIDATE_TOO_LARGE from its size, unread', async () => {
    writeFileSync(join(dir, 'huge.json'), JSON.stringify({ name: 'Huge', type: 'static', attributes: { value: 'a'.repeat(50 * 1024 * 1024) } }));
    const r = await cli(['validate', 'huge.json', '--format', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as { files: { issues: { code: string; message: string }[] }[] };
    expect(report.files[0]!.issues).toEqual([expect.objectContaining({ code: 'VALIDATE_TOO_LARGE', message: expect.stringMatching(/^the file is 524\d{5} bytes; .*, so it is not read$/) })]);
  });

  it('does not evaluate a transform over 400 KB', async () => {
    const r = await cli(['evaluate', 'huge.json', '--fixtures', FIXTURES, '--identity', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^VALIDATE_TOO_LARGE the file is \d+ bytes; /);
  });
});

describe('refresh --out keeps the mode of the file it replaces', () => {
  it('leaves a 0600 output 0600, written directly or through a link', async () => {
    writeFileSync(join(dir, 'private.ndjson'), 'old\n');
    chmodSync(join(dir, 'private.ndjson'), 0o600);
    symlinkSync(join(dir, 'private.ndjson'), join(dir, 'private-link.ndjson'));
    for (const out of ['private.ndjson', 'private-link.ndjson']) {
      const r = await cli(['refresh', '--fixtures', FIXTURES, '--out', out, '--workers', '0']);
      expect(r.code).toBe(0);
      expect(statSync(join(dir, 'private.ndjson')).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, 'private.ndjson'), 'utf8')).toMatch(/^\{"identityId":/);
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });
});

describe('impact --format github: names cannot run workflow commands', () => {
  it('validate --format github keeps a file name holding a newline and a command inside its one annotation', async () => {
    mkdirSync(join(dir, 'names'));
    writeFileSync(join(dir, 'names', 'bad\n::stop-commands::x.json'), '{"name": "Bad", "type": "lower", "attributes": {"flags": 1}}');
    const r = await cli(['validate', 'names', '--format', 'github']);
    expect(r.code).toBe(1);
    expect(executedCommands(r.out)).toEqual([expect.stringMatching(/^::error file=names\/bad%0A%3A%3Astop-commands%3A%3Ax\.json,line=1,col=\d+,title=SCHEMA_UNKNOWN_PROPERTY::SCHEMA_UNKNOWN_PROPERTY /)]);
  });

  it('keeps an attribute name holding newlines and commands inside its annotation and the fenced report', async () => {
    const evil = 'region\n::error file=evil.json::forged\n::stop-commands::pwned\n::add-mask::x';
    const base = join(dir, 'base');
    const head = join(dir, 'head');
    for (const version of [base, head]) {
      cpSync(join(FIXTURES, 'transforms'), join(version, 'transforms'), { recursive: true });
      cpSync(join(FIXTURES, 'identity-profiles'), join(version, 'identity-profiles'), { recursive: true });
    }
    const profileFile = join(head, 'identity-profiles', 'default.json');
    const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as { identityAttributeConfig: { attributeTransforms: { identityAttributeName: string }[] } };
    profile.identityAttributeConfig.attributeTransforms.find((m) => m.identityAttributeName === 'department')!.identityAttributeName = evil;
    writeFileSync(profileFile, JSON.stringify(profile, null, 2));
    const r = await cli(['impact', '--base', 'base', '--head', 'head', '--fixtures', FIXTURES, '--format', 'github', '--fail-on', 'none', '--workers', '0', '--no-progress']);
    expect(r.code).toBe(0);
    const commands = executedCommands(r.out);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(command).toMatch(/^::(notice|warning) file=head\/identity-profiles\/default\.json,title=[^\n]*::/);
    expect(commands.some((c) => c.includes('title=impact on region%0A%3A%3Aerror file=evil.json%3A%3Aforged%0A'))).toBe(true);
    // The report, fenced, shows the name on one line, its line breaks escaped (errors/terminal.ts).
    expect(r.out).toContain(`  ${JSON.stringify(evil).slice(1, -1)}: 203 of 209 identities change`);
    expect(r.out).not.toContain(evil);
  });
});

describe('snapshot --tenant: credentials stay where they belong', () => {
  const tenants: HostileTenant[] = [];
  afterAll(async () => {
    await Promise.all(tenants.map((t) => t.close()));
  });

  it('refuses a URL with user:password@, prints no password and saves no checkpoint', async () => {
    const r = await cli(['snapshot', '--tenant', 'http://admin:hunter2@127.0.0.1:9', '--out', 'snap-creds'], { IDT_CLIENT_ID: 'c', IDT_CLIENT_SECRET: 's' });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^CLI_USAGE --tenant: baseUrl must not hold credentials \(user:password@\)/);
    expect(r.err + r.out).not.toContain('hunter2');
    expect(existsSync(join(dir, '.snap-creds.snapshot-partial'))).toBe(false);
  });

  it('refuses a token endpoint that redirects: the other host never receives the client secret', async () => {
    const elsewhere = await hostileTenant((_request, response) => tokenAnswer(response, 'stolen'));
    tenants.push(elsewhere);
    const tenant = await hostileTenant((_request, response) => {
      response.writeHead(307, { location: `${elsewhere.url}/oauth/token` });
      response.end();
    });
    tenants.push(tenant);
    const r = await cli(['snapshot', '--tenant', tenant.url, '--out', 'snap-redirect'], { IDT_CLIENT_ID: 'client-1', IDT_CLIENT_SECRET: 'secret-of-client-1' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^TENANT_REDIRECT /m);
    expect(elsewhere.received).toEqual([]);
    expect(existsSync(join(dir, 'snap-redirect'))).toBe(false);
  });
});

describe('verify --tenant: a tenant whose listings hold what is not a record', () => {
  const tenants: HostileTenant[] = [];
  afterAll(async () => {
    await Promise.all(tenants.map((t) => t.close()));
  });

  it.each([
    ['null', null],
    ['a number', 5],
  ])('says TENANT_RESPONSE with the index of %s among the identity profiles, not an internal error', async (what, element) => {
    const tenant = await hostileTenant((request, response) => {
      if (request.path === '/oauth/token') return tokenAnswer(response);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify([element]));
    });
    tenants.push(tenant);
    const r = await cli(['verify', '--tenant', tenant.url, '--no-progress'], { IDT_CLIENT_ID: 'client-1', IDT_CLIENT_SECRET: 'secret-of-client-1' });
    expect(r.code).toBe(1);
    expect(r.err).toBe(`TENANT_RESPONSE /v3/identity-profiles answered ${what} at /0 where a record (a JSON object) was expected\n`);
  });
});

describe('validate over a pull request\'s tree', () => {
  it('reads no file a link leads to outside the tree, and names five duplicates of a name shared by 2,000 files', async () => {
    const tree = join(dir, 'pr', 'transforms');
    mkdirSync(tree, { recursive: true });
    writeFileSync(join(dir, 'pr', 'runner-secret.json'), JSON.stringify({ name: 'x', type: 'RUNNER-SECRET', attributes: {} }));
    symlinkSync(join(dir, 'pr', 'runner-secret.json'), join(tree, 'link.json'));
    for (let i = 0; i < 2000; i++) writeFileSync(join(tree, `t${i}.json`), transform('Same'));
    const r = await cli(['validate', '--format', 'sarif', tree]);
    expect(r.code).toBe(1);
    expect(r.out).not.toContain('RUNNER-SECRET');
    const results = (JSON.parse(r.out) as { runs: { results: { ruleId: string; message: { text: string } }[] }[] }).runs[0]!.results;
    expect(results.filter((x) => x.ruleId === 'VALIDATE_LINK_OUTSIDE')).toHaveLength(1);
    const duplicates = results.filter((x) => x.ruleId === 'VALIDATE_DUPLICATE_NAME');
    expect(duplicates).toHaveLength(2000);
    for (const d of duplicates) expect(d.message.text).toMatch(/^the name "Same" is also used by (\S+\.json, ){4}\S+\.json and 1994 more files \(\/name\)$/);
  }, 120_000);
});

describe('the command line\'s error report: no escape sequence of the input reaches the terminal', () => {
  it('shows an identity id that sets the window title and clears the screen as its JSON escapes, on the one line of CLI_FIXTURES', async () => {
    const tenant = join(dir, 'escape-ids');
    cpSync(FIXTURES, tenant, { recursive: true });
    const file = join(tenant, 'identities.json');
    const identities = JSON.parse(readFileSync(file, 'utf8')) as { id: string }[];
    identities[0]!.id = identities[1]!.id = '\u001b]0;pwned\u0007\u001b[2J\ndone';
    writeFileSync(file, JSON.stringify(identities));
    const r = await cli(['refresh', '--fixtures', 'escape-ids', '--workers', '0']);
    expect(r.code).toBe(2);
    // identities.json is one line: identity 1 starts after '[', identity 0 and the comma.
    const second = 3 + JSON.stringify(identities[0]).length;
    expect(r.err).toBe(`CLI_FIXTURES ${file}:1:${second}: identity 1 has the id "\\u001b]0;pwned\\u0007\\u001b[2J\\ndone" of identity 0 (${file}:1:2): every identity in identities.json needs an id of its own\n`);
    expect(r.err).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(r.err.split('\n')).toHaveLength(2);
  });

  it('shows a command name and a profile name typed with escape sequences as their JSON escapes', async () => {
    const command = await cli(['\u001b[2Jvalidate']);
    expect(command.code).toBe(2);
    expect(command.err).toMatch(/^CLI_USAGE unknown command "\\u001b\[2Jvalidate"; did you mean "validate"\?\n/);
    const profile = await cli(['refresh', '--fixtures', FIXTURES, '--profile', '\u001b[31mEvil\u001b[0m', '--workers', '0']);
    expect(profile.code).toBe(2);
    expect(profile.err).toMatch(/^CLI_USAGE --profile "\\u001b\[31mEvil\\u001b\[0m" is neither a file nor a profile of /);
    expect(profile.err).not.toContain('\u001b');
  });
});
