import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { codedErrorOf } from '../helpers.js';
import { returnsValueOrCodedError } from './_robustness.js';

const engine = createEngine();
const iso = (attributes: Record<string, unknown> = {}) => ({ name: 'i', type: 'iso3166', attributes });

describe('iso3166', () => {
  it.each([
    [{}, 'United States of America', 'US'], // iso-3166#2
    [{ format: 'numeric' }, 'ES', '724'], // iso-3166#3
    [{ format: 'alpha3' }, 'España', 'ESP'], // native name
    [{ format: 'alpha2' }, 'DEU', 'DE'],
    [{ format: 'numeric' }, 'Andorra', '020'], // always three digits
    [{ format: 'alpha3' }, '840', 'USA'],
  ])('%j: %j → %j', (attributes, input, expected) => {
    expect(engine.evaluateSync(iso(attributes), { input })).toBe(expected);
  });

  it.each([['Atlantis'], ['XX'], [''], [null]])('%j is not a country → null', (input) => {
    expect(engine.evaluateSync(iso(), { input })).toBeNull();
  });

  it('rejects an unknown format before evaluation', () => {
    const error = codedErrorOf(() => engine.compile(iso({ format: 'alpha4' })));
    expect({ code: error.code, path: error.path }).toEqual({ code: 'SCHEMA_ENUM', path: '/attributes/format' });
  });

  returnsValueOrCodedError('iso3166', ['input', 'format']);
});
