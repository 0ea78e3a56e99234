import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';

const engine = createEngine();
const rp = (regex: string, replacement: string, extra: Record<string, unknown> = {}) => ({ name: 'r', type: 'replace', attributes: { regex, replacement, ...extra } });

describe('replace', () => {
  it.each([
    ['Working with IIQ is fun', 'IIQ', 'Identity Security Cloud', 'Working with Identity Security Cloud is fun'],
    ['The quick brown fox jumped over 10 lazy dogs', '[^a-zA-Z]', '', 'Thequickbrownfoxjumpedoverlazydogs'],
    ['aaa', 'a', 'b', 'bbb'],
    ['John Smith', '(\\w+) (\\w+)', '$2, $1', 'Smith, John'],
    ['price', 'price', '\\$5', '$5'],
    ['a.b.c', '\\.', '-', 'a-b-c'],
    ['ÁÉ', '\\p{InCombiningDiacriticalMarks}', '', 'ÁÉ'],
  ])('replaces every match: %s / %s / %s → %s', (input, regex, replacement, out) => {
    expect(engine.evaluateSync(rp(regex, replacement), { input })).toBe(out);
  });

  it('uses an explicit input', () => {
    expect(engine.evaluateSync(rp('o', '0', { input: 'foo' }))).toBe('f00');
  });

  it('returns null for a null input', () => {
    expect(engine.evaluateSync(rp('a', 'b'), { input: null })).toBeNull();
  });

  it('rejects what RE2 cannot run, at compile time, with a pointer', () => {
    const error = codedErrorOf(() => engine.compile(rp('(a)\\1', 'x')));
    expect(error.code).toBe('REGEX_UNSUPPORTED');
    expect(error.path).toBe('/attributes/regex');
  });

  it('rejects an illegal group reference as Java does', () => {
    expect(codedErrorOf(() => engine.evaluateSync(rp('a', '$2'), { input: 'a' })).code).toBe('REGEX_REPLACEMENT');
  });
});
