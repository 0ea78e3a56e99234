import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const split = (attributes: Record<string, unknown>) => ({ name: 's', type: 'split', attributes });

describe('split (Java String.split)', () => {
  it.each([
    [{ delimiter: ':', index: 1 }, 'abc:123', '123'], // split#2
    [{ delimiter: ' ', index: 3, throws: true }, 'The quick brown fox jumped over 10 lazy dogs', 'fox'], // split#3
    [{ delimiter: '-', index: '1' }, '2020-12-12', '12'], // temporary-password guide: index as a string
    [{ delimiter: ',', index: 0 }, ',a', ''], // a leading empty string is kept
    [{ delimiter: '\\.', index: 2 }, 'a.b.c', 'c'],
    [{ delimiter: '[,;]', index: 1 }, 'a;b,c', 'b'], // the delimiter is a regex
    [{ delimiter: '\\|', index: 1 }, 'x|y', 'y'],
  ])('%j on %j → %j', (attributes, input, expected) => {
    expect(engine.evaluateSync(split(attributes), { input })).toBe(expected);
  });

  it('drops trailing empty strings, so an index into them is out of bounds', () => {
    const error = codedErrorOf(() => engine.evaluateSync(split({ delimiter: ',', index: 1 }), { input: 'a,,' }));
    expect(error.code).toBe('EVAL_INDEX_OUT_OF_BOUNDS');
    expect(error.details).toMatchObject({ index: 1, length: 1 });
  });

  it('a lone "." splits on every character (regex semantics), leaving nothing', () => {
    expect(codedErrorOf(() => engine.evaluateSync(split({ delimiter: '.', index: 0 }), { input: 'a.b' })).code).toBe('EVAL_INDEX_OUT_OF_BOUNDS');
  });

  it('throws defaults to true, as the docs say (the OpenAPI says false); throws:false gives null', () => {
    const error = codedErrorOf(() => engine.evaluateSync(split({ delimiter: ':', index: 5 }), { input: 'a:b' }));
    expect(error.code).toBe('EVAL_INDEX_OUT_OF_BOUNDS');
    expect(error.path).toBe('/attributes/index');
    expect(engine.evaluateSync(split({ delimiter: ':', index: 5, throws: false }), { input: 'a:b' })).toBeNull();
    expect(engine.evaluateSync(split({ delimiter: ':', index: -1, throws: 'false' }), { input: 'a:b' })).toBeNull();
  });

  it('null input gives null', () => {
    expect(engine.evaluateSync(split({ delimiter: ':', index: 0 }), { input: null })).toBeNull();
  });

  it('an index computed by a nested transform', () => {
    const index = { type: 'static', attributes: { value: '2' } };
    expect(engine.evaluateSync(split({ delimiter: '/', index }), { input: 'a/b/c' })).toBe('c');
  });

  returnsValueOrCodedError('split', ['input', 'delimiter', 'index', 'throws']);
});
