// What the docs promise about the package itself: links that stay inside the repository, shell
// blocks whose readme-test directives parse (test/e2e/readme.test.ts runs them against the
// installed package), and memory figures that agree with the measurement wherever they appear.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFRESH_HELP } from '../../src/cli/refresh.js';
import { shellBlocks } from '../e2e/markdown-blocks.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MARKDOWN = ['README.md', 'fixtures/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const SHIPPED = (JSON.parse(read('package.json')) as { files: string[] }).files;

describe.each(MARKDOWN)('%s', (file) => {
  it('links only to files of the repository that the package ships', () => {
    // Fenced blocks and inline code spans hold no links (`$l[0](x` is text).
    const text = read(file).replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    const outside: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      const path = resolve(ROOT, dirname(file), target!.split('#')[0]!);
      const inRepo = relative(ROOT, path);
      const shipped = SHIPPED.some((entry) => inRepo === entry || inRepo.startsWith(`${entry}/`));
      if (inRepo.startsWith('..') || !existsSync(path) || !shipped) outside.push(target!);
    }
    expect(outside).toEqual([]);
  });

  it('has shell blocks whose readme-test directives parse', () => {
    expect(() => shellBlocks(file, read(file))).not.toThrow();
  });
});

describe('peak memory of a refresh at 1,000,000 identities', () => {
  // The measured figures: the goals table of docs/bench-refresh.md.
  const row = read('docs/bench-refresh.md').split('\n').find((line) => line.startsWith('| peak RSS < 300 MB'))!;
  const measured = [...row.matchAll(/(\d+(?:–\d+)?) MiB/g)].map((m) => `${m[1]} MiB`);

  it('is measured for the main thread, --low-memory and 2 workers', () => {
    expect(measured).toHaveLength(3);
  });

  it.each([
    ['README.md', read('README.md')],
    ['docs/refresh.md', read('docs/refresh.md')],
    ['refresh --help', REFRESH_HELP.replace(/(\d+)-(\d+) MiB/g, '$1–$2 MiB').replace(/\s+/g, ' ')],
  ])('is given as measured, default included, in %s', (_, text) => {
    for (const figure of measured) expect(text).toContain(figure);
  });
});
