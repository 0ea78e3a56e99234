import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { globSync } from 'tinyglobby';
import { listJsonFiles } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

function capture() {
  let out = '';
  let err = '';
  return { io: { out: (t: string) => void (out += t), err: (t: string) => void (err += t) }, get out() { return out; }, get err() { return err; } };
}

async function run(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, out: c.out, err: c.err };
}

let dir: string;
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'idt-validate-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('identity-transforms validate', () => {
  it('exits 0 for a valid file and says so', async () => {
    const f = file('ok.json', JSON.stringify({ name: 'Lower', type: 'lower', attributes: {} }));
    const r = await run('validate', f);
    expect(r.code).toBe(0);
    expect(r.out).toContain('1 file checked: 1 valid, 0 invalid');
  });

  it('reports file:line:column severity code message (pointer) in text format', async () => {
    const f = file('bad.json', '{\n  "name": "Bad",\n  "type": "replace",\n  "attributes": {\n    "regex": "a",\n    "flags": "g",\n    "replacement": "b"\n  }\n}\n');
    const r = await run('validate', f);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${f}:6:5 error SCHEMA_UNKNOWN_PROPERTY unknown attribute "flags" (/attributes/flags)`);
  });

  it('shows a file name holding an escape sequence or a line break escaped in text format, one line per finding', async () => {
    const f = file('bad\u001b[2J\nx.json:1:1 error FORGED.json', '{"name": "Bad", "type": "lower", "attributes": {"x": 1}}');
    const r = await run('validate', f);
    expect(r.code).toBe(1);
    expect(r.out).not.toContain('\u001b');
    expect(r.out).toContain(`${dir}/bad\\u001b[2J\\nx.json:1:1 error FORGED.json:1:`);
    expect(r.out.split('\n').filter((l) => l.startsWith('x.json'))).toHaveLength(0);
  });

  it('reports JSON syntax errors with their line and column', async () => {
    const f = file('syntax.json', '{\n  "name": "x",\n  "type": "lower"\n  "attributes": {}\n}');
    const r = await run('validate', f);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:3 error VALIDATE_JSON_SYNTAX`));
  });

  it('writes GitHub workflow commands', async () => {
    const f = file('gh.json', '{"name":"x","type":"nope","attributes":{}}');
    const r = await run('validate', '--format', 'github', f);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^::error file=.*gh\.json,line=1,col=\d+,title=SCHEMA_ENUM::SCHEMA_ENUM unknown transform type "nope" \(\/type\)$/m);
  });

  it('writes a machine-readable JSON report', async () => {
    const f = file('j.json', '{"name":"x","type":"lookup","attributes":{"table":{"a":"b"}}}');
    const r = await run('validate', '--format', 'json', f);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.summary).toEqual({ files: 1, invalid: 0, errors: 0, warnings: 1 });
    expect(report.files[0].issues[0]).toMatchObject({ code: 'VALIDATE_LOOKUP_NO_DEFAULT', path: '/attributes/table', severity: 'warning' });
  });

  it('fails warnings with --strict', async () => {
    const f = file('w.json', '{"name":"x","type":"lookup","attributes":{"table":{"a":"b"}}}');
    expect((await run('validate', '--strict', f)).code).toBe(1);
  });

  it.each([
    ['an empty file', '', 'VALIDATE_EMPTY_FILE'],
    ['not JSON', 'hello', 'VALIDATE_JSON_SYNTAX'],
    ['JSON that is not an object', '[1,2]', 'SCHEMA_NOT_OBJECT'],
    ['a JSON string', '"lower"', 'SCHEMA_NOT_OBJECT'],
  ])('gives %s a coded message and exit 1', async (_label, content, code) => {
    const f = file(`bad-${code}-${content.length}.json`, content);
    const r = await run('validate', f);
    expect(r.code).toBe(1);
    expect(r.out).toContain(code);
    expect(r.err).toBe('');
  });

  it('handles a 50 MB file without hanging', async () => {
    const f = file('huge.json', JSON.stringify({ name: 'x', type: 'static', attributes: { value: 'a'.repeat(50 * 1024 * 1024) } }));
    const r = await run('validate', f);
    expect(r.code).toBe(1);
    expect(r.out).toContain('VALIDATE_TOO_LARGE');
  });

  it('locates an error in the last entry of the largest lookup table the platform takes', async () => {
    // One entry a line, just under 400 KB (what is larger is VALIDATE_TOO_LARGE unread, as the
    // 50 MB file above); the last entry's value is a transform of an unknown type.
    const lines = Array.from({ length: 9_500 }, (_, i) => `      "key${i}": "value of entry ${i}",`);
    lines.push('      "last": { "type": "statik", "attributes": {} }');
    const text = `{\n  "name": "Big table",\n  "type": "lookup",\n  "attributes": {\n    "table": {\n${lines.join('\n')}\n    }\n  }\n}\n`;
    expect(Buffer.byteLength(text)).toBeLessThan(400 * 1024);
    const r = await run('validate', file('big-table.json', text), '--format', 'json');
    expect(r.code).toBe(1);
    const issues = (JSON.parse(r.out) as { files: { issues: { code: string; path: string; line: number; column: number }[] }[] }).files[0]!.issues;
    expect(issues).toContainEqual(expect.objectContaining({ code: 'SCHEMA_ENUM', path: '/attributes/table/last/type', line: 9_506, column: 17 }));
  });

  it('handles 10,000 levels of nesting', async () => {
    let t = '{"type":"trim","attributes":{}}';
    for (let i = 0; i < 10_000; i++) t = `{"type":"upper","attributes":{"input":${t}}}`;
    const f = file('deep.json', `{"name":"deep",${t.slice(1)}`);
    const r = await run('validate', f);
    expect(r.code).toBe(1);
    expect(r.out).toContain('VALIDATE_TOO_DEEP');
  });

  it('validates a directory of 5,000 files with set checks', async () => {
    const d = join(dir, 'many');
    mkdirSync(d);
    for (let i = 0; i < 5000; i++) {
      writeFileSync(join(d, `t${i}.json`), JSON.stringify({ name: `T${i}`, type: 'reference', attributes: { id: `T${(i + 1) % 5000 === 0 ? 'X' : i + 1}` } }));
    }
    const r = await run('validate', d);
    expect(r.code).toBe(1);
    expect(r.out).toContain('5000 files checked: 4999 valid, 1 invalid');
    expect(r.out).toContain('VALIDATE_UNKNOWN_REFERENCE');
  });

  it('reports findings across files (duplicate names) at the line and column of the name', async () => {
    const d = join(dir, 'dupes');
    mkdirSync(d);
    writeFileSync(join(d, 'a.json'), '{\n  "type": "lower",\n  "name": "Same"\n}\n');
    writeFileSync(join(d, 'b.json'), '{\n  "name": "Same",\n  "type": "upper"\n}\n');
    const r = await run('validate', d);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${join(d, 'a.json')}:3:3 error VALIDATE_DUPLICATE_NAME the name "Same" is also used by ${join(d, 'b.json')} (/name)`);
    expect(r.out).toContain(`${join(d, 'b.json')}:2:3 error VALIDATE_DUPLICATE_NAME the name "Same" is also used by ${join(d, 'a.json')} (/name)`);
  });

  it('lists a directory as the glob **/*.json without dot files does (nested, sorted), links included', async () => {
    const d = join(dir, 'tree');
    for (const sub of ['b', 'a/deep', '.hidden', 'c.json']) mkdirSync(join(d, sub), { recursive: true });
    for (const f of ['z.json', 'a.json', 'b/x.json', 'a/deep/y.json', 'a/readme.txt', '.dot.json', '.hidden/h.json', 'c.json/inner.json', 'b/10.json', 'b/9.json']) {
      writeFileSync(join(d, f), JSON.stringify({ name: f, type: 'lower' }));
    }
    const plain = listJsonFiles(d);
    expect(plain).toEqual(globSync(['**/*.json'], { cwd: d, dot: false }).sort());
    expect(plain).toEqual(['a.json', 'a/deep/y.json', 'b/10.json', 'b/9.json', 'b/x.json', 'c.json/inner.json', 'z.json']);
    expect((await run('validate', d)).out).toContain('7 files checked: 7 valid');
    // A tree with a link is left to the glob library.
    symlinkSync(join(d, 'b'), join(d, 'linked'), 'dir');
    expect(listJsonFiles(d)).toBeUndefined();
    // The files reached through the link are the files of b/: each is validated once, so no
    // name is a duplicate of itself.
    expect(globSync(['**/*.json'], { cwd: d, dot: false })).toContain('linked/x.json');
    const linked = await run('validate', d);
    expect(linked.out).toContain('7 files checked: 7 valid');
    expect(linked.code).toBe(0);
  });

  it('does not read a file that a link in the directory or glob leads to outside it: a pull request\'s link to a runner\'s file would print its values in annotations', async () => {
    const d = join(dir, 'escape');
    mkdirSync(join(d, 'repo', 'transforms'), { recursive: true });
    writeFileSync(join(d, 'secret.json'), JSON.stringify({ name: 'x', type: 'SECRET-VALUE', attributes: {} }));
    writeFileSync(join(d, 'repo', 'transforms', 'ok.json'), JSON.stringify({ name: 'Lower', type: 'lower', attributes: {} }));
    symlinkSync(join(d, 'secret.json'), join(d, 'repo', 'transforms', 'leak.json'));
    for (const argv of [[join(d, 'repo', 'transforms')], [`${join(d, 'repo', 'transforms')}/*.json`]]) {
      const r = await run('validate', '--format', 'json', ...argv);
      expect(r.code).toBe(1);
      expect(r.out).not.toContain('SECRET-VALUE');
      const report = JSON.parse(r.out) as { files: { file: string; issues: { code: string; line: number; column: number; message: string }[] }[] };
      const leak = report.files.find((f) => f.file.endsWith('leak.json'))!;
      expect(leak.issues).toEqual([
        expect.objectContaining({ code: 'VALIDATE_LINK_OUTSIDE', line: 1, column: 1, message: expect.stringContaining('a symbolic link to a file outside') }),
      ]);
      expect(report.files.find((f) => f.file.endsWith('ok.json'))!.issues).toEqual([]);
    }
    // A link to a device is the reader's refusal, unread, as anywhere.
    symlinkSync('/dev/zero', join(d, 'repo', 'transforms', 'zero.json'));
    const device = await run('validate', join(d, 'repo', 'transforms'));
    expect(device.code).toBe(2);
    expect(device.err).toMatch(/^CLI_READ cannot read .*zero\.json: is not a regular file/);
    rmSync(join(d, 'repo', 'transforms', 'zero.json'));
    // Named outright, the file is read: the person running validate chose it.
    expect((await run('validate', join(d, 'repo', 'transforms', 'leak.json'))).out).toContain('SECRET-VALUE');
  });

  it('validates a file named twice (a directory and the file\'s absolute path) once, without a duplicate name', async () => {
    const d = join(dir, 'twice');
    mkdirSync(d);
    writeFileSync(join(d, 'a.json'), '{"name":"Once","type":"lower","attributes":{}}');
    const r = await run('validate', d, join(d, 'a.json'), `${d}/./a.json`);
    expect(r.out).toBe('1 file checked: 1 valid, 0 invalid (0 errors, 0 warnings)\n');
    expect(r.code).toBe(0);
  });

  it('expands globs', async () => {
    const d = join(dir, 'globbed');
    mkdirSync(d);
    writeFileSync(join(d, 'a.json'), '{"name":"a","type":"lower","attributes":{}}');
    writeFileSync(join(d, 'b.txt'), 'not json');
    const r = await run('validate', `${d}/*.json`);
    expect(r.code).toBe(0);
    expect(r.out).toContain('1 file checked');
  });

  it.each([
    [['validate'], 'at least one file'],
    [['validate', '--format', 'xml', 'x.json'], '--format must be'],
    [['validate', '--nope', 'x.json'], 'CLI_USAGE'],
    [['validate', '/does/not/exist.json'], 'no such file'],
    [['frobnicate'], 'unknown command'],
    [['valdate'], 'unknown command "valdate"; did you mean "validate"?'],
    // Past 246 a transform could nest deep enough to exhaust the stack (engine/options.ts MAX_DEPTH_LIMIT).
    [['validate', '--max-depth', '99999999999999999999', 'x.json'], 'CLI_USAGE --max-depth must be an integer from 1 to 246, not "99999999999999999999"'],
    [['validate', '--max-depth', '1e3', 'x.json'], 'CLI_USAGE --max-depth must be an integer from 1 to 246, not "1e3"'],
    [['validate', '--max-depth', '0', 'x.json'], 'CLI_USAGE --max-depth must be an integer from 1 to 246, not "0"'],
  ])('exits 2 on usage error %j', async (argv, message) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  describe('identity profiles and create profiles', () => {
    const profileText = (definition: unknown) =>
      JSON.stringify(
        {
          name: 'Employees',
          authoritativeSource: { type: 'SOURCE', id: 'src-1', name: 'HR' },
          identityAttributeConfig: {
            enabled: true,
            attributeTransforms: [
              { identityAttributeName: 'email', transformDefinition: { type: 'lower', attributes: { input: 'a' } } },
              { identityAttributeName: 'uid', transformDefinition: definition },
            ],
          },
        },
        null,
        2,
      ) + '\n';

    it('validates the transforms inside an identity profile, located by pointer and line:column in the profile', async () => {
      const f = file('profile-bad.json', profileText({ type: 'replace', attributes: { regex: 'a', flags: 'g', replacement: 'b' } }));
      const r = await run('validate', f);
      expect(r.code).toBe(1);
      const lines = profileText({ type: 'replace', attributes: { regex: 'a', flags: 'g', replacement: 'b' } }).split('\n');
      const line = lines.findIndex((l) => l.includes('"flags"'));
      expect(r.out).toContain(
        `${f}:${line + 1}:${lines[line]!.indexOf('"flags"') + 1} error SCHEMA_UNKNOWN_PROPERTY unknown attribute "flags" (/identityAttributeConfig/attributeTransforms/1/transformDefinition/attributes/flags)`,
      );
      expect(r.out).toContain('1 file checked: 0 valid, 1 invalid (1 error, 0 warnings)');
    });

    it('accepts a valid profile and checks its references against the transforms validated with it', async () => {
      const d = join(dir, 'profile-set');
      mkdirSync(join(d, 'transforms'), { recursive: true });
      mkdirSync(join(d, 'profiles'));
      writeFileSync(join(d, 'transforms', 'lower.json'), JSON.stringify({ name: 'Lower It', type: 'lower', attributes: { input: 'x' } }));
      writeFileSync(join(d, 'profiles', 'ok.json'), profileText({ type: 'reference', attributes: { id: 'Lower It' } }));
      writeFileSync(join(d, 'profiles', 'dangling.json'), profileText({ type: 'reference', attributes: { id: 'Nowhere' } }));
      const r = await run('validate', join(d, 'transforms'), `${d}/profiles/**/*.json`, '--format', 'json');
      expect(r.code).toBe(1);
      const report = JSON.parse(r.out) as { files: { file: string; kind: string; valid: boolean; issues: { code: string; path: string }[] }[] };
      const byName = Object.fromEntries(report.files.map((x) => [x.file.split('/').pop(), x]));
      expect(byName['ok.json']).toMatchObject({ kind: 'identity-profile', valid: true, issues: [] });
      expect(byName['lower.json']).toMatchObject({ kind: 'transform', valid: true });
      expect(byName['dangling.json']!.issues).toEqual([
        expect.objectContaining({ code: 'VALIDATE_UNKNOWN_REFERENCE', path: '/identityAttributeConfig/attributeTransforms/1/transformDefinition/attributes/id' }),
      ]);
    });

    it('reports a mapping without transformDefinition or attribute name at its pointer', async () => {
      const f = file('profile-shape.json', JSON.stringify({ name: 'P', identityAttributeConfig: { attributeTransforms: [{ transformDefinition: { type: 'lower', attributes: {} } }, { identityAttributeName: 'x' }] } }));
      const r = await run('validate', f, '--format', 'json');
      expect(r.code).toBe(1);
      const issues = (JSON.parse(r.out) as { files: { issues: { code: string; path: string }[] }[] }).files[0]!.issues.map((i) => [i.code, i.path]);
      expect(issues).toEqual([
        ['SCHEMA_REQUIRED', '/identityAttributeConfig/attributeTransforms/0/identityAttributeName'],
        ['SCHEMA_REQUIRED', '/identityAttributeConfig/attributeTransforms/1'],
      ]);
    });

    it('validates the field transforms of a source create profile', async () => {
      const f = file(
        'create-profile.json',
        JSON.stringify({
          name: 'Account',
          usageType: 'CREATE',
          fields: [
            { name: 'mail', transform: { type: 'identityAttribute', attributes: { name: 'email' } }, attributes: {}, isRequired: false, type: 'string' },
            { name: 'cn', transform: { type: 'substring', attributes: { begin: 'x' } } },
            { name: 'plain', attributes: { value: 'constant' } },
          ],
        }),
      );
      const r = await run('validate', f, '--format', 'json');
      expect(r.code).toBe(1);
      const report = JSON.parse(r.out) as { files: { kind: string; issues: { code: string; path: string }[] }[] };
      expect(report.files[0]!.kind).toBe('create-profile');
      expect(report.files[0]!.issues.map((i) => i.path)).toEqual(['/fields/1/transform/attributes/begin']);
    });

    it('says what a document is not when it is neither a transform nor a profile', async () => {
      const f = file('accounts-like.json', '{\n  "id": "a1",\n  "nativeIdentity": "x"\n}\n');
      const r = await run('validate', f);
      expect(r.code).toBe(1);
      expect(r.out).toContain(
        `${f}:1:1 error VALIDATE_UNKNOWN_DOCUMENT the document is not a transform (no "type"), not an identity profile (no "identityAttributeConfig") and not a source create profile (no "fields" array)`,
      );
    });

    it('validates the bundled identity profile and transforms together (the README headline layout)', async () => {
      const fixtures = new URL('../../fixtures/', import.meta.url).pathname;
      const r = await run('validate', join(fixtures, 'transforms'), `${fixtures}identity-profiles/**/*.json`, '--format', 'github');
      expect(r.err).toBe('');
      expect(r.out).not.toContain('::error');
      expect(r.code).toBe(0);
    });
  });

  it('accepts a file that starts with a UTF-8 byte-order mark', async () => {
    const f = file('bom.json', '\uFEFF{"name":"Bom","type":"lower","attributes":{}}');
    const r = await run('validate', f);
    expect(r.code).toBe(0);
  });

  it('says "trailing comma" in plain words, never the parser\'s codes', async () => {
    const f = file('trailing.json', '{\n  "name": "x",\n  "type": "lower",\n  "attributes": {},\n}\n');
    const r = await run('validate', f);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${f}:5:1 error VALIDATE_JSON_SYNTAX invalid JSON: a trailing comma is not allowed before "}"`);
    expect(r.out).not.toMatch(/PropertyNameExpected|ValueExpected/);
  });

  it.each([
    ['an empty directory', () => (mkdirSync(join(dir, 'empty-dir'), { recursive: true }), join(dir, 'empty-dir')), 'no files matched: the directory'],
    ['a glob that matches nothing', () => join(dir, 'nothing-here-*.json'), 'no files matched: nothing matches'],
  ])('exits 2 with "no files matched" for %s', async (_label, arg, message) => {
    const r = await run('validate', arg());
    expect(r.code).toBe(2);
    expect(r.err).toContain(`CLI_USAGE ${message}`);
  });
});
