// docs/decisions.md names, for every decision, the test that holds it (the conventions are written at
// the top of that document). A renamed or moved test file must not leave a decision pointing at
// nothing: every test file the document names exists.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DECISIONS = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8');
const LINES = DECISIONS.split('\n');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(ROOT, path)];
  });
}
const TEST_FILES = walk(join(ROOT, 'test'));

/** Whether a repository path exists; `*` stands for any characters but `/`. */
function exists(path: string): boolean {
  if (!path.includes('*')) return existsSync(join(ROOT, path));
  const pattern = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return TEST_FILES.some((file) => pattern.test(file));
}

/** A tag: a path under test/ in lower case, without spaces. */
const TAG = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9._-]+)*$/;

/**
 * The test files of the bracketed list at the end of a table row: `[a/b; c/d: what pins it, e]` —
 * entries separated by `;` or `,`, each a path under test/ without `.test.ts` (or ending in `.ts`),
 * optionally followed by `: ` and free text, which runs on (over `;` too) until a group starts
 * with a tag again.
 */
function bracketTags(line: string): string[] {
  const tail = /\[([^\]]*)\] \|\s*$/.exec(line);
  if (!line.startsWith('|') || !tail) return [];
  const tags: string[] = [];
  for (const group of tail[1]!.split(';')) {
    const colon = group.indexOf(':');
    const names = (colon < 0 ? group : group.slice(0, colon)).split(',').map((name) => name.trim());
    if (names.every((name) => TAG.test(name))) tags.push(...names);
  }
  return tags;
}

describe('docs/decisions.md names only test files that exist', () => {
  it('every bracketed tag at the end of a row is test/<tag>.test.ts', () => {
    const tags = LINES.flatMap((line, i) => bracketTags(line).map((tag) => ({ line: i + 1, tag })));
    // The document pins its API, provider, filter, snapshot and package decisions this way.
    expect(tags.length).toBeGreaterThan(100);
    const missing = tags.filter(({ tag }) => !exists(`test/${tag}${tag.endsWith('.ts') ? '' : '.test.ts'}`));
    expect(missing).toEqual([]);
  });

  it('every test path in backticks exists (a path without test/ is relative to its section\'s folder)', () => {
    const paths = [...DECISIONS.matchAll(/`([^`\s]*(?:\.test\.ts|\/))`/g)]
      .map((m) => m[1]!)
      .filter((path) => (path.startsWith('test/') || path.endsWith('.test.ts')) && !path.includes('<') && path !== '.test.ts');
    expect(paths.length).toBeGreaterThan(40);
    const missing = paths.filter((path) =>
      path.startsWith('test/') ? !exists(path) : !TEST_FILES.some((file) => file.endsWith(`/${path}`)),
    );
    expect(missing).toEqual([]);
  });

  it('the operations table names test/operations/<name>.test.ts', () => {
    const rows = LINES.filter((line) => /^\| O\d+ \|/.test(line));
    expect(rows.length).toBeGreaterThan(20);
    const names = rows.flatMap((row) => {
      const cells = row.split(/(?<!\\)\|/);
      const test = cells[cells.length - 2]!.replace(/"[^"]*"/g, '');
      return test.split(',').map((name) => name.trim()).filter((name) => name !== '' && name !== 'every operation test');
    });
    const missing = names.filter((name) => !existsSync(join(ROOT, 'test/operations', `${name}.test.ts`)));
    expect(missing).toEqual([]);
  });
});
