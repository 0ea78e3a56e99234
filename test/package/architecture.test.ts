// docs/ARCHITECTURE.md matches the tree: every room it lists exists, every folder of src/ is a
// room it lists, and every import from one room into another is one its table allows.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const DOC = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');

/** The Rooms table: room (`errors`, `index`, …) → the rooms it may import. */
function rooms(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const line of DOC.split('\n')) {
    const m = /^\| `src\/([\w-]+)(?:\/|\.ts)` \| .* \| (.+) \|$/.exec(line);
    if (!m) continue;
    const allowed = m[2]!.trim();
    const names = allowed === 'every room' ? ['*'] : allowed === '—' ? [] : allowed.split(',').map((part) => part.trim().split(' ')[0]!);
    out.set(m[1]!, new Set(names));
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** The room a source path belongs to: its first folder under src/, or the file's name. */
const roomOf = (path: string) => relative(SRC, path).split('/')[0]!.replace(/\.ts$/, '');

/** Relative import specifiers of a file (static, dynamic and re-exports). */
function imports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
}

describe('docs/ARCHITECTURE.md', () => {
  const table = rooms();

  it('lists every room of src/, and only rooms that exist', () => {
    const tree = readdirSync(SRC).map((name) => name.replace(/\.ts$/, ''));
    expect([...table.keys()].sort()).toEqual(tree.sort());
  });

  it('allows every import from one room into another that the code makes', () => {
    const forbidden: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = roomOf(file);
      const allowed = table.get(from);
      for (const spec of imports(readFileSync(file, 'utf8'))) {
        const to = roomOf(resolve(dirname(file), spec));
        if (to === from || allowed?.has('*') || allowed?.has(to)) continue;
        forbidden.push(`${relative(ROOT, file)} imports ${spec} (${from} → ${to})`);
      }
    }
    expect(forbidden).toEqual([]);
  });

  it('reads the table it checks', () => {
    expect(table.get('errors')).toEqual(new Set());
    expect(table.get('filter')).toEqual(new Set(['errors']));
    expect(table.get('cli')).toEqual(new Set(['*']));
  });

  it('keeps the schema below the engine: the engine builds and validates with the schema, never the reverse', () => {
    expect(table.get('schema')).toEqual(new Set(['errors']));
    expect(table.get('engine')?.has('schema')).toBe(true);
  });
});
