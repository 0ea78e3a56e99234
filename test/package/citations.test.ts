// The repository stands on its own: no comment, doc or test cites a file that is not in it (a
// reference document beside the checkout, an issue tracker's numbers, a style guide elsewhere),
// and no section sign cites a document the reader cannot open. Citations name the platform's
// public documentation by URL, an RFC, or this repository's own docs. In docs/api.md's statement
// table, and in the files that say they cite its rows, `§` numbers are that table's.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SELF = relative(ROOT, import.meta.filename);
/** Third-party data kept verbatim (its own `docPath`s and texts); SOURCES.md names its origins. */
const VERBATIM = /^test\/conformance\/data\//;
const TEXT = /\.(?:ts|js|cjs|mjs|md|json|yml|yaml|sh)$/;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...files(path));
    else if (TEXT.test(name) && path !== SELF && !VERBATIM.test(path)) out.push(path);
  }
  return out;
}

const TREE = [...['src', 'test', 'docs', 'bench', 'fixtures', 'bin', 'cjs'].flatMap(files), 'README.md'];

/** Patterns that cite what is not in the repository, each with what it catches. */
const OUTSIDE: readonly [RegExp, string][] = [
  [/shared\//, 'a path beside the checkout'],
  [/\b[Ii]ssue \d/, 'an issue number'],
  [/platform-(?:api)\.md|\breference\/[\w-]+\.md|\btransforms\.md\b/, 'a reference document that is not in the repository'],
  [/\([Rr]eference §|\b[Rr]eference §\d|\bReference: /, 'a section of a reference document'],
  [/\bSTYLE(?:\.md)?\b(?: §| practice|:|\))/, 'a style guide that is not in the repository'],
  [/\b[Pp]art [12]\b(?! of)|[Rr]equested changes/, 'how the work was split'],
];

/** A section sign after an RFC, a CSP level or a BCP (or later in its list of sections) cites a public specification. */
const PUBLIC_SECTION = /(?:RFC \d+|CSP3|CSP Level 3|BCP)(?: §[\d.]+(?:,| \/| and)?)* $/;
/** Files that cite docs/api.md's statement table by its `§` numbers, and say so (or are its tests). */
const CITES_STATEMENT_TABLE = /statement table/;
const STATEMENT_TESTS = /^test\/api\/reference\//;

/** What is wrong with one line: each outside citation, and each section sign citing no public document. */
function problems(line: string, citesStatementTable: boolean): string[] {
  const found = OUTSIDE.filter(([pattern]) => pattern.test(line)).map(([, what]) => what);
  if (!citesStatementTable) {
    for (let at = line.indexOf('§'); at >= 0; at = line.indexOf('§', at + 1)) {
      if (!PUBLIC_SECTION.test(line.slice(0, at))) found.push('a section sign citing no public document');
    }
  }
  return found;
}

function hits(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const table = STATEMENT_TESTS.test(file) || CITES_STATEMENT_TABLE.test(text);
  return text.split('\n').flatMap((line, i) => problems(line, table).map((what) => `${file}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`));
}

describe('the repository stands on its own', () => {
  it('walks the tree it checks', () => {
    expect(TREE).toContain('src/filter/search/parse.ts');
    expect(TREE).toContain('docs/decisions.md');
    expect(TREE.length).toBeGreaterThan(300);
  });

  it('cites no file beside the checkout, no issue number and no section of a document it does not have', () => {
    expect(TREE.flatMap(hits)).toEqual([]);
  });

  it.each([
    // Split so that a grep of the repository for these citations does not find this file.
    ['// see ../shar' + 'ed/reference/transforms.md', 'a path beside the checkout'],
    ['// Refresh (iss' + 'ue 6): NDJSON', 'an issue number'],
    ['// Search (platform-' + 'api.md §4.7)', 'a reference document'],
    ['// lookup (reference §5.4)', 'a section of a reference document'],
    ['## Platform API part 2', 'how the work was split'],
    ['// the pushed filter (§4.8): a superset', 'a section sign citing no public document'],
    ['| A7 | … | §4.1 "upper case in one place" |', 'a section sign citing no public document'],
  ])('catches %j', (line, what) => {
    expect(problems(line, false).join()).toContain(what);
  });

  it.each(['RFC 6902 §4', 'RFC 6749 §4.1.3, §4.4, §6', 'CSP3 §6.7.2.8', 'https://developer.sailpoint.com/docs/api/v3/search-post', 'part 1 of the pair'])(
    'accepts %j',
    (line) => {
      expect(problems(line, false)).toEqual([]);
    },
  );

  it("accepts a row number of docs/api.md's statement table in a file that says it cites the table", () => {
    expect(problems('| A7 | … | §4.1 "upper case in one place" |', true)).toEqual([]);
  });
});
