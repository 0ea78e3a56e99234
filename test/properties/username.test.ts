// The README's "Property tests" example, run as it is printed, so that the example cannot rot:
// every identity — the fixture's, and generated ones with accents, apostrophes and hyphens — gets
// a unique, lower-case, ASCII username. The last test holds the README block and this file's
// region between the README markers to the same text.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadFixtures } from '../../src/providers/fixtures.js';
import type { TransformDocument } from '../../src/providers/types.js';
import { checkTransform, forEachFixtureIdentity } from '../../src/testing/index.js';

// README: begin
const fixtures = loadFixtures('fixtures');

/** A name part: accents dropped, the letters NFKD keeps (ø, ł, ß…) folded, anything but a-z removed. */
const part = (name: string) => ({
  type: 'replace',
  attributes: {
    regex: '[^a-z]',
    replacement: '',
    input: {
      type: 'replaceAll',
      attributes: {
        table: { ø: 'o', ł: 'l', ß: 'ss', æ: 'ae', þ: 'th', ð: 'd', đ: 'd', ı: 'i', œ: 'oe' },
        input: { type: 'lower', attributes: { input: { type: 'decomposeDiacriticalMarks', attributes: { input: { type: 'identityAttribute', attributes: { name } } } } } },
      },
    },
  },
});
const username: TransformDocument = {
  name: 'Username',
  type: 'usernameGenerator',
  attributes: { patterns: ['$fn.$ln', '$fn.$ln${uniqueCounter}'], fn: part('firstname'), ln: part('lastname') },
};
const USERNAME = /^[a-z]+\.[a-z]+[0-9]*$/;

it('every fixture identity gets a unique, lower-case, ASCII username', async () => {
  const issued = new Set<unknown>();
  await forEachFixtureIdentity(fixtures, async ({ evaluate }) => {
    const value = await evaluate(username);
    expect(value).toMatch(USERNAME);
    expect(issued.has(value)).toBe(false);
    issued.add(value);
  });
});

it('so does any identity shaped like them (accents, apostrophes, hyphens, nulls)', async () => {
  await checkTransform(username, { fixtures, property: (value) => USERNAME.test(String(value)) });
});
// README: end

it('is the example the README prints, word for word', () => {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Property tests'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const body = (text: string) => text.split('\n').filter((line) => !line.startsWith('import ')).join('\n').trim();
  const self = readFileSync(import.meta.filename, 'utf8');
  const region = self.slice(self.indexOf('// README: begin\n') + '// README: begin\n'.length, self.indexOf('// README: end'));
  expect(body(block)).toBe(region.trim());
  expect(block).toContain("from 'identity-transforms/testing'");
});
