// checkTransform: passes when the property holds; on failure the message ends with the
// shrunk identity and accounts as a fixture document that loadFixtures accepts and that fails
// the same way when evaluated from a fixtures directory; seed and path replay it.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/engine.js';
import { TransformsError } from '../../src/errors/index.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { loadFixtures } from '../../src/providers/fixtures.js';
import type { TransformDocument } from '../../src/providers/types.js';
import { checkTransform } from '../../src/testing/check.js';
import { COUNTEREXAMPLE_HEADING, TransformPropertyError, type FixtureDocument } from '../../src/testing/counterexample.js';
import { createSampleEngine, SAMPLE_NOW } from '../../src/testing/sample-engine.js';
import { arbitraryTransform } from '../../src/testing/transforms.js';
import { rejectionOf } from './rejection.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const fixtures = loadFixtures(FIXTURES);
const scratch = mkdtempSync(join(tmpdir(), 'check-transform-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
/** One engine for the checks of this file (an engine's start-up is most of a short check's time). */
const sampleEngine = createSampleEngine({ fixtures });

const lowerLast: TransformDocument = { name: 'Lower Last Name', type: 'lower', attributes: { input: { type: 'identityAttribute', attributes: { name: 'lastname' } } } };
/** Fails for any last name with an apostrophe: a property that generated names break. */
const noApostrophe = (value: unknown) => !String(value).includes("'");

const failureOf = (promise: Promise<void>) => rejectionOf(promise, TransformPropertyError);

/** The JSON after the heading: all the message holds from there on. */
function pasted(message: string): FixtureDocument {
  return JSON.parse(message.slice(message.indexOf(COUNTEREXAMPLE_HEADING) + COUNTEREXAMPLE_HEADING.length)) as FixtureDocument;
}

describe('checkTransform', () => {
  it('resolves when the property holds on fixture and generated identities', async () => {
    const seen = new Set<string>();
    await checkTransform(lowerLast, {
      fixtures,
      sampleEngine,
      numRuns: 60,
      property: (value, sample) => {
        seen.add(sample.identity.id.slice(0, 8));
        return value === String(sample.identity.attributes['lastname']).toLowerCase();
      },
    });
    expect([...seen].some((p) => p === '2c9180e1')).toBe(true);
    expect([...seen].some((p) => p !== '2c9180e1')).toBe(true);
  });

  it('reports the shrunk counter-example as a fixture document, last in the message', async () => {
    const error = await failureOf(checkTransform(lowerLast, { fixtures, sampleEngine, property: noApostrophe, seed: 1 }));
    expect(error.message).toContain('the property returned false');
    expect(error.message).toContain(`seed: ${error.seed}, path: ${JSON.stringify(error.path)}`);
    const document = pasted(error.message);
    expect(document).toEqual(error.counterexample);
    expect(String(document.identity.attributes['lastname'])).toContain("'");
    expect(document.accounts.every((a) => a.identityId === document.identity.id)).toBe(true);
  });

  it('gives a document that loadFixtures accepts and that fails again from a fixtures directory', async () => {
    const error = await failureOf(checkTransform(lowerLast, { fixtures, sampleEngine, property: noApostrophe, identities: 'generated', seed: 2 }));
    const document = pasted(error.message);
    const dir = join(scratch, 'pasted');
    const write = (file: string, value: unknown) => writeFileSync(join(dir, file), JSON.stringify(value, null, 2));
    mkdirSync(dir);
    write('sources.json', fixtures.sources);
    write('identities.json', [...fixtures.identities, document.identity]);
    write('accounts.json', [...fixtures.accounts, ...document.accounts]);
    const tenant = loadFixtures(dir);
    const engine = createEngine({ providers: createMemoryProviders(tenant), clock: () => SAMPLE_NOW });
    const value = await engine.evaluate(lowerLast, { identity: document.identity.id });
    expect(noApostrophe(value)).toBe(false);
  });

  it('replays the same counter-example from the reported seed and path', async () => {
    const first = await failureOf(checkTransform(lowerLast, { fixtures, sampleEngine, property: noApostrophe, seed: 5 }));
    const again = await failureOf(checkTransform(lowerLast, { fixtures, sampleEngine, property: noApostrophe, seed: first.seed, path: first.path }));
    expect(again.counterexample).toEqual(first.counterexample);
  });

  it('reports what a throwing property said', async () => {
    const error = await failureOf(
      checkTransform(lowerLast, {
        fixtures,
        sampleEngine,
        property: (value) => {
          expect(value).not.toContain('-');
        },
      }),
    );
    expect(error.failure.kind).toBe('property-threw');
    expect(error.message).toMatch(/the property threw for the value ".*-.*"/);
  });

  it('fails on a coded evaluation error unless it is allowed', async () => {
    const unguarded: TransformDocument = { name: 'Unguarded', type: 'lookup', attributes: { table: { Engineering: 'E' }, input: { type: 'identityAttribute', attributes: { name: 'department' } } } };
    const error = await failureOf(checkTransform(unguarded, { fixtures, sampleEngine, numRuns: 50 }));
    expect(error.failure.kind).toBe('coded');
    expect(error.message).toContain('evaluation failed with EVAL_LOOKUP_NO_MATCH at "/attributes/table"');
    await checkTransform(unguarded, { fixtures, sampleEngine, numRuns: 50, allowErrors: ['EVAL_LOOKUP_NO_MATCH'] });
    await checkTransform(unguarded, { fixtures, sampleEngine, numRuns: 50, allowErrors: true });
  });

  it('takes an arbitrary of transforms and prints the generated one with the counter-example', async () => {
    const transforms = arbitraryTransform({ shape: fixtures, types: ['upper', 'lower', 'identityAttribute'], maxDepth: 1 });
    const error = await failureOf(checkTransform(transforms, { fixtures, sampleEngine, allowErrors: true, property: (value) => value !== 'UNREACHABLE' && typeof value !== 'string' }));
    expect(error.message).toContain(`Transform: ${JSON.stringify(error.transform)}`);
  });

  it('rejects a transform that does not compile with its coded error, at once', async () => {
    const broken = { name: 'Broken', type: 'replace', attributes: { regex: '(', replacement: '' } };
    await expect(checkTransform(broken as TransformDocument, { fixtures, sampleEngine })).rejects.toBeInstanceOf(TransformsError);
  });

  it('rejects unknown and invalid options with coded errors', async () => {
    await expect(checkTransform(lowerLast, { numRun: 5 } as never)).rejects.toMatchObject({ code: 'ENGINE_OPTION_UNKNOWN' });
    await expect(checkTransform(lowerLast, { numRuns: 0 })).rejects.toMatchObject({ code: 'ENGINE_OPTION_INVALID' });
    await expect(checkTransform(lowerLast, { identities: 'fixtures', sampleEngine })).rejects.toMatchObject({ code: 'ENGINE_OPTION_INVALID' });
    await expect(checkTransform(lowerLast, { sampleEngine, engineOptions: {} })).rejects.toMatchObject({ code: 'ENGINE_OPTION_INVALID' });
  });

  it('runs on generated identities of the default shape without fixtures', async () => {
    await checkTransform(lowerLast, { numRuns: 30, property: (value) => typeof value === 'string' && value === value.toLowerCase() });
  });
});
