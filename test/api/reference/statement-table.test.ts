// The statement table of docs/api.md ("Traceability") is held to the tests, so that neither can
// drift: every row names a test or says why none can exist, every file and test title it names
// exists (titles as written in the source, `%s` and all), and every § test of this directory is
// in the table under its file.

import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));
const API_TESTS = join(HERE, '..');
const DOC = join(HERE, '..', '..', '..', 'docs', 'api.md');

interface Row {
  readonly section: string;
  readonly statement: string;
  /** file (under test/api/) → the titles named for it. */
  readonly tests: ReadonlyMap<string, readonly string[]>;
  readonly untestable: boolean;
}

function tableRows(markdown: string): Row[] {
  const start = markdown.indexOf('## Traceability:');
  if (start < 0) throw new Error('docs/api.md has no Traceability section');
  const next = markdown.indexOf('\n## ', start + 3);
  const lines = markdown.slice(start, next < 0 ? undefined : next).split('\n');
  const rows: Row[] = [];
  // The section has two tables: the topics' public pages, then the statements (read here).
  let inStatements = false;
  for (const line of lines) {
    if (line.startsWith('| § | Statement | Test |')) inStatements = true;
    if (!inStatements || !line.startsWith('| ') || line.startsWith('| § |') || line.startsWith('| ---')) continue;
    const cells = line.slice(1, -1).split(' | ').map((c) => c.trim());
    if (cells.length !== 3) throw new Error(`a row of three cells expected: ${line}`);
    const [section, statement, cell] = cells as [string, string, string];
    const tests = new Map<string, string[]>();
    let file: string | undefined;
    for (const m of cell.matchAll(/`([^`\s]+\.test\.ts)`|\*([^*]+)\*/g)) {
      if (m[1] !== undefined) {
        file = m[1];
        if (!tests.has(file)) tests.set(file, []);
      } else {
        if (file === undefined) throw new Error(`a test title before any file in row ${section}: ${m[2]}`);
        tests.get(file)!.push(m[2]!);
      }
    }
    rows.push({ section, statement, tests, untestable: cell.startsWith('Not testable') });
  }
  return rows;
}

/** Every string literal of a source file, unescaped as JavaScript reads it. */
function literals(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
    out.add((m[1] ?? m[2] ?? m[3]!).replace(/\\(.)/g, '$1'));
  }
  return out;
}

/** The titles of it()/test()/it.each()() in a file that start with §, with the file they are in. */
function sectionTests(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/(\w+(?:\.\w+)*)?(\([^()]*\))?\(\s*'(§(?:[^'\\\n]|\\.)*)'/g)) {
    const before = source.slice(Math.max(0, m.index! - 200), m.index!);
    // describe('§…') and describe.each(…)('§…') name groups, not tests.
    if (/describe(\.each\([^]*\))?$/.test(before + (m[1] ?? '')) || m[1] === 'describe') continue;
    out.push(m[3]!.replace(/\\(.)/g, '$1'));
  }
  return out;
}

const rows = tableRows(readFileSync(DOC, 'utf8'));
const SECTIONS = new Set(rows.map((r) => r.section));
const referenceFiles = readdirSync(HERE).filter((f) => f.endsWith('.test.ts') && f !== basename(fileURLToPath(import.meta.url)));

describe('the statement table of docs/api.md', () => {
  it('numbers every row by a section of the table and names a test, or says why none can exist', () => {
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) {
      expect(row.section, row.statement).toMatch(/^\d+(\.\d+)?$/);
      expect(row.tests.size > 0 || row.untestable, `§${row.section} ${row.statement}: no test and no reason`).toBe(true);
    }
  });

  it('names files that exist and test titles that are in them', () => {
    const problems: string[] = [];
    for (const row of rows) {
      for (const [file, titles] of row.tests) {
        let source: string;
        try {
          source = readFileSync(join(API_TESTS, file), 'utf8');
        } catch {
          problems.push(`§${row.section}: no file test/api/${file}`);
          continue;
        }
        const inFile = literals(source);
        for (const title of titles) if (!inFile.has(title)) problems.push(`§${row.section}: test/api/${file} has no test "${title}"`);
        if (titles.length === 0) problems.push(`§${row.section}: test/api/${file} is named without a test title`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('has a row for the § of every statement test title it names', () => {
    const problems: string[] = [];
    for (const row of rows) {
      for (const titles of row.tests.values()) {
        for (const title of titles) {
          const section = /^§(\d+(?:\.\d+)?) /.exec(title)?.[1];
          if (section !== undefined && !SECTIONS.has(section)) problems.push(`"${title}" (row §${row.section}): no row for §${section}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists every § test of test/api/reference/ under its file, in files named by a section', () => {
    expect(referenceFiles.length).toBeGreaterThan(10);
    const listed = new Set(rows.flatMap((r) => [...r.tests].flatMap(([file, titles]) => titles.map((t) => `${file} › ${t}`))));
    const problems: string[] = [];
    let found = 0;
    for (const file of referenceFiles) {
      const section = /^(\d+(?:\.\d+)?)-[\w-]+\.test\.ts$/.exec(file)?.[1];
      if (section === undefined || ![...SECTIONS].some((s) => s === section || s.startsWith(`${section}.`))) problems.push(`${file}: not named <§>-<topic>.test.ts after a section of the table`);
      const tests = sectionTests(readFileSync(join(HERE, file), 'utf8'));
      if (tests.length === 0) problems.push(`${file}: no § test`);
      found += tests.length;
      for (const title of tests) if (!listed.has(`reference/${file} › ${title}`)) problems.push(`reference/${file} › "${title}" is not in the table`);
    }
    expect(problems).toEqual([]);
    expect(found).toBeGreaterThan(70);
  });
});

describe('the reading of the table', () => {
  it('parses a row into files and titles, and extracts titles as the source writes them', () => {
    const [row] = tableRows("## Traceability: the reference's statements and their tests\n\n| § | Statement | Test |\n| --- | --- | --- |\n| 4.6 | s | `a.test.ts`: *§4.6 one `x` %s*, *two*; `b.test.ts`: *three* |\n");
    expect(row).toMatchObject({ section: '4.6', untestable: false });
    expect([...row!.tests]).toEqual([['a.test.ts', ['§4.6 one `x` %s', 'two']], ['b.test.ts', ['three']]]);
    const source = "describe('§1 group', () => {\n  it('§2.1 a PAT\\'s secret', () => {});\n  it.each([1])('§8 %s', () => {});\n});";
    expect(sectionTests(source)).toEqual(["§2.1 a PAT's secret", '§8 %s']);
    expect(literals(source).has("§2.1 a PAT's secret")).toBe(true);
  });
});
