// docs/ARCHITECTURE.md matches the tree: every room it lists exists, every folder of src/ is a
// room it lists, and every import from one room into another is one its table allows: of the
// whole room, of its types only, or of the files it names.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');
const DOC = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');

/**
 * What one room may import of another, from its cell in the Rooms table: `errors` (anything),
 * `providers (types only)` (type-only imports), `operations (\`index.ts\` only)` (that file),
 * `engine (types; \`trace.ts\`, …)` (type-only imports, and values from those files only).
 */
interface Allowance {
  types: boolean;
  files: string[];
}

/** The Rooms table: room (`errors`, `index`, …) → the rooms it may import, each with its allowance (null: all of it). */
function rooms(): Map<string, Map<string, Allowance | null>> {
  const out = new Map<string, Map<string, Allowance | null>>();
  for (const line of DOC.split('\n')) {
    const m = /^\| `src\/([\w-]+)(?:\/|\.ts)` \| .* \| (.+) \|$/.exec(line);
    if (!m) continue;
    const allowed = new Map<string, Allowance | null>();
    const cell = m[2]!.trim();
    if (cell !== '—') {
      for (const part of cell.match(/[\w-]+(?: \([^)]*\))?/g) ?? []) {
        const [, room, note] = /^([\w-]+)(?: \(([^)]*)\))?$/.exec(part)!;
        allowed.set(room!, note === undefined ? null : { types: /\btypes\b/.test(note), files: [...note.matchAll(/`([^`]+)`/g)].map((f) => f[1]!) });
      }
    }
    out.set(m[1]!, allowed);
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

interface Import {
  spec: string;
  /** `import type`, `export type`, or braces whose every name is marked `type`: nothing exists at run time. */
  typeOnly: boolean;
}

/** Relative imports of a file (static, dynamic, side-effect and re-exports), each saying whether it is type-only. */
function imports(text: string): Import[] {
  const out: Import[] = [];
  for (const m of text.matchAll(/\b(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const clause = m[2]!.trim();
    const names = /^\{([\s\S]*)\}$/.exec(clause)?.[1]?.split(',').map((n) => n.trim()).filter((n) => n !== '');
    out.push({ spec: m[3]!, typeOnly: m[1] !== undefined || (names !== undefined && names.length > 0 && names.every((n) => n.startsWith('type '))) });
  }
  for (const m of text.matchAll(/\bimport\s*(?:\(\s*)?['"](\.{1,2}\/[^'"]+)['"]/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

describe('docs/ARCHITECTURE.md', () => {
  const table = rooms();

  it('lists every room of src/, and only rooms that exist', () => {
    const tree = readdirSync(SRC).map((name) => name.replace(/\.ts$/, ''));
    expect([...table.keys()].sort()).toEqual(tree.sort());
  });

  it('allows every import from one room into another that the code makes, as far as the table allows it', () => {
    const forbidden: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = roomOf(file);
      const allowed = table.get(from)!;
      for (const { spec, typeOnly } of imports(readFileSync(file, 'utf8'))) {
        const target = resolve(dirname(file), spec);
        const to = roomOf(target);
        if (to === from) continue;
        if (!allowed.has(to)) {
          forbidden.push(`${relative(ROOT, file)} imports ${spec} (${from} → ${to})`);
          continue;
        }
        const allowance = allowed.get(to);
        if (allowance === null || allowance === undefined) continue;
        const inRoom = relative(join(SRC, to), target).replace(/\.js$/, '.ts');
        if ((allowance.types && typeOnly) || allowance.files.includes(inRoom)) continue;
        forbidden.push(`${relative(ROOT, file)} imports ${spec} (${from} → ${to}: ${allowance.types ? 'types' : ''}${allowance.files.length > 0 ? ` ${allowance.files.join(', ')}` : ''} only)`);
      }
    }
    expect(forbidden).toEqual([]);
  });

  it('reads the table it checks', () => {
    expect(table.get('errors')).toEqual(new Map());
    expect(table.get('filter')).toEqual(new Map([['errors', null]]));
    expect(table.get('runtime')?.get('providers')).toEqual({ types: true, files: [] });
    expect(table.get('engine')?.get('operations')).toEqual({ types: false, files: ['index.ts'] });
  });

  it('keeps the engine above the operations and the providers below both', () => {
    expect(table.get('engine')?.get('operations')?.files).toEqual(['index.ts']);
    expect([...table.get('providers')!.keys()].sort()).toEqual(['errors', 'filter', 'json']);
  });

  it('names the rooms the command line imports, one by one', () => {
    expect([...table.get('cli')!.keys()].sort()).toEqual(['api', 'engine', 'errors', 'impact', 'json', 'language', 'lsp', 'mcp', 'play', 'providers', 'refresh', 'schema', 'snapshot', 'testing', 'verify']);
  });

  it('sees type-only imports as the compiler erases them', () => {
    expect(imports("import type { A } from './a.js';\nimport { type B, type C } from '../b.js';\nexport type { D } from './d.js';")).toEqual([
      { spec: './a.js', typeOnly: true },
      { spec: '../b.js', typeOnly: true },
      { spec: './d.js', typeOnly: true },
    ]);
    expect(imports("import { type B, c } from '../b.js';\nexport { e } from './e.js';\nimport './side.js';\nconst f = await import('./f.js');")).toEqual([
      { spec: '../b.js', typeOnly: false },
      { spec: './e.js', typeOnly: false },
      { spec: './side.js', typeOnly: false },
      { spec: './f.js', typeOnly: false },
    ]);
  });

  it('keeps the schema below the engine: the engine builds and validates with the schema, never the reverse', () => {
    expect(table.get('schema')).toEqual(new Map([['errors', null]]));
    expect(table.get('engine')?.has('schema')).toBe(true);
  });
});
