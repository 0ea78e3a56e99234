// Fuzzing evaluate under the server's limits (docs/limits.md): random valid transforms, hostile
// templates (huge repeat, nested loops, lists that grow, BigInt squaring, macros that double,
// deep nesting, big splits), and valid transforms mutated to carry them. Whatever the transform,
// evaluate ends in a value or a catalogued coded error — never an uncoded error or EVAL_INTERNAL
// — and the evaluation stops within its maxTime (with generous slack: this is a property of the
// limit, not a benchmark). The seed is fixed; FUZZ_RUNS (and FUZZ_SEED) make the nightly run
// longer, e.g. `FUZZ_RUNS=20000 npx vitest run test/engine/limits.fuzz.test.ts`.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVER_EVALUATION_LIMITS } from '../../src/api/evaluation-limits.js';
import { createEngine } from '../../src/engine/engine.js';
import { isErrorCode, isTransformsError } from '../../src/errors/index.js';
import { createMemoryProviders } from '../../src/providers/memory.js';
import { arbitraryTransform } from '../../src/testing/transforms.js';
import { fixtures } from '../properties/fixtures.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_125);
const limits = { ...SERVER_EVALUATION_LIMITS, maxTime: 100 };
/** What may pass between two clock reads: one native call on a value within the size limits, GC, a loaded CI machine. */
const SLACK_MS = 1_500;

const taken = new Set(fixtures.identities.map((i) => i.name.toLowerCase()));
const engine = createEngine({
  providers: { ...createMemoryProviders(fixtures), uniqueness: { isUnique: (candidate: string) => !taken.has(candidate.toLowerCase()) } },
  limits,
});

const big = fc.constantFrom(10, 1_000, 99_999, 1_000_000, 500_000_000, 2_147_483_647);
const small = fc.integer({ min: 0, max: 300 });

/** Template fragments that cost memory or time when they run unbounded. */
const hostileTemplate: fc.Arbitrary<string> = fc.oneof(
  big.map((n) => `#set($s = "ab")$s.repeat(${n})`),
  fc.tuple(big, big).map(([a, b]) => `#foreach($i in [1..${a}])#foreach($j in [1..${b}])x#end#end`),
  fc.tuple(big, big).map(([a, n]) => `#set($l = [])#set($x = "x")#set($s = $x.repeat(${Math.min(n, 100_000)}))#foreach($i in [1..${a}])#set($ok = $l.add("$s$i"))#end$l.size()`),
  big.map((n) => `#set($n = 3)#foreach($i in [1..${n}])#set($n = $n * $n)#end$n`),
  small.map((n) => `#macro(f $d)#if($d.length() < ${n})#f("\${d}x")#f("\${d}x")#end#end#f("")`),
  small.map((n) => `#set($a = ["x"])#foreach($i in [1..${n}])#set($a = [$a, $a])#end$a`),
  small.map((n) => `#set($x = ${'('.repeat(n)}1${')'.repeat(n)})$x`),
  small.map((n) => `${'#if(true)'.repeat(n)}x${'#end'.repeat(n)}`),
  big.map((n) => `#set($x = "a,")#set($s = $x.repeat(${Math.min(n, 50_000)}))$s.split(",").size()$s.split("").size()`),
  big.map((n) => `#set($x = "ab")#set($s = $x.repeat(${Math.min(n, 50_000)}))$s.replaceAll("(a)", "$1$1$1$1").length()$s.replace("b", "bbbbbbbbbb").length()`),
  big.map((n) => `#set($m = {})#foreach($i in [1..${n}])#set($m["k$i"] = $i)#end$m.size()`),
  fc.string({ maxLength: 40 }),
);

function nested(levels: number, leaf: unknown): Record<string, unknown> {
  let t: Record<string, unknown> = { type: 'static', attributes: { value: leaf } };
  for (let i = 0; i < levels; i++) t = { type: 'upper', attributes: { input: t } };
  return t;
}

const valid = arbitraryTransform({ shape: fixtures, maxDepth: 3 });

/** Random, hostile and mutated transforms. */
const transforms: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: valid },
  { weight: 3, arbitrary: hostileTemplate.map((value) => ({ name: 'Hostile', type: 'static', attributes: { value } })) },
  // A valid transform with a hostile static beside it.
  { weight: 2, arbitrary: fc.tuple(valid, hostileTemplate).map(([t, value]) => ({ name: 'Mutated', type: 'concat', attributes: { values: [{ ...t, name: undefined }, { type: 'static', attributes: { value } }] } })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(5, 60, 70, 300, 5_000), hostileTemplate).map(([levels, leaf]) => ({ name: 'Deep', ...nested(levels, leaf) })) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 5_000 }), fc.boolean(), hostileTemplate).map(([count, loop, body]) => ({
      name: 'Usernames',
      type: 'usernameGenerator',
      attributes: { first: 'x', patterns: Array.from({ length: count }, (_, i) => (loop ? `${body}\${first}${i}` : fixtures.identities[0]!.name)) },
    })),
  },
);

/**
 * Some operations build tables once per process on first use (rfc5646's locale data takes
 * seconds on a loaded machine): not evaluation work, so each type runs a few times first.
 */
async function warmUp(): Promise<void> {
  const identity = fixtures.identities[0]!;
  for (const spec of engine.registry.values()) {
    for (const t of fc.sample(arbitraryTransform({ shape: fixtures, maxDepth: 1, types: [spec.type] }), { numRuns: 3, seed: SEED })) {
      await engine.evaluate(t, { identity }).catch(() => undefined);
      await engine.evaluate(t, { identity, input: 'en-US' }).catch(() => undefined);
    }
  }
}

describe('evaluate under the server limits (fuzz)', () => {
  it(`ends in a value or a coded error within maxTime (${RUNS} transforms, seed ${SEED})`, async () => {
    await warmUp();
    let tried = 0;
    const codes = new Map<string, number>();
    const identity = fixtures.identities[0]!;
    await fc.assert(
      fc.asyncProperty(transforms, async (transform) => {
        tried++;
        // Compiling is bounded by the document's size, not by the budget: it is done first.
        let compiled;
        try {
          compiled = engine.compile(transform);
        } catch (error) {
          expect(isTransformsError(error), String(error)).toBe(true);
          return;
        }
        const started = performance.now();
        let code = 'value';
        try {
          await engine.evaluate(compiled, { identity });
        } catch (error) {
          if (!isTransformsError(error)) throw error;
          code = error.code;
          expect(isErrorCode(code), code).toBe(true);
          expect(code, error.message).not.toBe('EVAL_INTERNAL');
        }
        const elapsed = performance.now() - started;
        expect(elapsed, `${code} after ${Math.round(elapsed)} ms`).toBeLessThan(limits.maxTime + SLACK_MS);
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    console.log(`limits fuzz: ${tried} transforms tried (seed ${SEED}); outcomes ${JSON.stringify(Object.fromEntries([...codes].sort()))}`);
    expect(tried).toBe(RUNS);
  }, 600_000);
});
