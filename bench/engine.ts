// Benchmark of the evaluator, each against a baseline measured in the same run:
// a static template evaluated through the engine vs raw velocityjs rendering of the same
// template (goal ≤ 1.3×); replace through the engine vs a raw RE2 replace; accountAttribute with
// sort and both filters over 5 accounts per identity vs a hand-written function.
// Run: npx tsx bench/engine.ts [--no-write]. Writes docs/bench-engine.md.

import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import RE2 from 're2';
import velocity from 'velocityjs';
import { createEngine } from '../src/engine/engine.js';
import { createMemoryProviders } from '../src/providers/memory.js';
import type { Account, Identity } from '../src/providers/types.js';
import { benchArgs, flag } from './args.js';

const { write: WRITE } = benchArgs({ write: flag(true) });

interface Pair {
  /** Median ns per call of ours and of the baseline. */
  ours: number;
  theirs: number;
  /** Median of the per-pass ratios ours / baseline. */
  ratio: number;
}

/**
 * Ours and the baseline measured in alternating passes (7 each, after a warm-up of both), so that
 * a change of load on the shared machine moves both sides of a ratio alike.
 */
function paired(ours: (i: number) => unknown, theirs: (i: number) => unknown, iterations: number): Pair {
  const pass = (fn: (i: number) => unknown): number => {
    const t = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn(i);
    return Number(process.hrtime.bigint() - t) / iterations;
  };
  pass(ours);
  pass(theirs);
  const o: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  for (let k = 0; k < 7; k++) {
    o.push(pass(ours));
    b.push(pass(theirs));
    r.push(o[k]! / b[k]!);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[3]!;
  return { ours: median(o), theirs: median(b), ratio: median(r) };
}

// 1. static: "#if($workerType=='Employee')Full-Time#{else}Contingent#end" with a dynamic variable.
const identities: Identity[] = Array.from({ length: 1000 }, (_, i) => ({ id: `i${i}`, name: `user${i}`, attributes: {} }));
const accounts: Account[] = [];
for (const identity of identities) {
  for (let k = 0; k < 5; k++) {
    const n = Number(identity.id.slice(1));
    accounts.push({
      id: `${identity.id}-${k}`,
      identityId: identity.id,
      sourceId: 'hr',
      nativeIdentity: k === 0 ? `SVC-${identity.id}` : `${identity.id}-${k}`,
      name: k === 0 ? `SVC-${identity.name}` : identity.name,
      created: new Date(Date.UTC(2020, 0, 1 + ((n * 7 + k * 13) % 365))).toISOString(),
      hasEntitlements: k % 2 === 0,
      attributes: { empType: (n + k) % 3 === 0 ? 'Employee' : 'Contractor', status: k === 3 ? 'terminated' : 'active', department: `D${(n + k) % 5}` },
    });
  }
}
const engine = createEngine({ providers: createMemoryProviders({ sources: [{ id: 'hr', name: 'HR' }], identities, accounts }) });

const template = "#if($workerType=='Employee')Full-Time#{else}Contingent#end";
const staticT = engine.compile({ name: 's', type: 'static', attributes: { workerType: { type: 'lookup', attributes: { table: { E: 'Employee', default: 'Contractor' } } }, value: template } });
const compiledVelocity = new velocity.Compile(velocity.parse(template));
const inputs = ['E', 'C'];
const renderVelocityjs = (i: number) => compiledVelocity.render({ workerType: i & 1 ? 'Contractor' : 'Employee' });
const staticPair = paired((i) => engine.evaluateSync(staticT, { input: inputs[i & 1]! }), renderVelocityjs, 200_000);
const literalT = engine.compile({ name: 's2', type: 'static', attributes: { workerType: 'Employee', value: template } });
const literalPair = paired(() => engine.evaluateSync(literalT), renderVelocityjs, 200_000);

// 2. replace [^a-zA-Z] → "" (the doc example).
const text = 'The quick brown fox jumped over 10 lazy dogs';
const replaceT = engine.compile({ name: 'r', type: 'replace', attributes: { regex: '[^a-zA-Z]', replacement: '' } });
const re2 = new RE2('[^a-zA-Z]', 'g');
const replacePair = paired(() => engine.evaluateSync(replaceT, { input: text }), () => text.replace(re2 as unknown as RegExp, ''), 200_000);

// 3. accountAttribute: newest active, non-service account's department.
const aaT = engine.compile({
  name: 'a',
  type: 'accountAttribute',
  attributes: {
    sourceName: 'HR',
    attributeName: 'department',
    accountSortAttribute: 'created',
    accountSortDescending: true,
    accountFilter: '!(nativeIdentity.startsWith("SVC-"))',
    accountPropertyFilter: '(status == "active")',
  },
});
const byIdentity = new Map<string, Account[]>();
for (const a of accounts) (byIdentity.get(a.identityId) ?? byIdentity.set(a.identityId, []).get(a.identityId)!).push(a);
const handWritten = (identity: Identity): unknown => {
  const list = (byIdentity.get(identity.id) ?? []).filter((a) => a.sourceId === 'hr' && !a.nativeIdentity.startsWith('SVC-') && a.attributes.status === 'active');
  list.sort((a, b) => Date.parse(b.created) - Date.parse(a.created));
  for (const a of list) if (a.attributes.department != null) return a.attributes.department;
  return null;
};
for (const identity of identities) {
  if (engine.evaluateSync(aaT, { identity }) !== handWritten(identity)) throw new Error(`accountAttribute differs for ${identity.id}`);
}
const aaPair = paired(
  (i) => engine.evaluateSync(aaT, { identity: identities[i % identities.length]! }),
  (i) => handWritten(identities[i % identities.length]!),
  100_000,
);

const row = (label: string, baseline: string, p: Pair, goal = '') =>
  `| ${label} | ${(p.ours / 1000).toFixed(2)} µs | ${baseline} | ${(p.theirs / 1000).toFixed(2)} µs | **${p.ratio.toFixed(2)}×** | ${goal} |`;
const doc = `# Evaluator benchmark

Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}. Command: \`npx tsx bench/engine.ts\`.
Each row alternates 7 passes of ours with 7 passes of its baseline after a warm-up of both; the
times are the medians of each side, the ratio the median of the per-pass ratios.
Our figures are whole evaluations: \`engine.evaluateSync(compiled, context)\` with the transform compiled
once by \`engine.compile\` (the loop a library user writes; a document passed instead is found by
identity first), each a fresh evaluation state, the step counter, input rules and error location.
The baselines are the bare library call.

| Case | Ours (per evaluation) | Baseline | Baseline (per call) | Ratio | Goal |
| --- | ---: | --- | ---: | ---: | --- |
${row('static #if/#{else} over a dynamic variable (lookup)', 'velocityjs Compile(parse(template)) reused, render()', staticPair, '≤ 1.3×')}
${row('the same static over a literal dynamic variable', 'the same', literalPair, '≤ 1.3×')}
${row('replace [^a-zA-Z] → "" (doc example)', 'RE2 replace, compiled once', replacePair)}
${row('accountAttribute, sort + accountFilter + accountPropertyFilter, 5 accounts', 'hand-written filter/sort/pick', aaPair)}

## Notes

- What one static evaluation does: \`evaluateSync\` allocates the evaluation state (one object:
  the step counter, memo, identity graph and clock reading live on it and are created on first
  use), the node wrapper counts a step and runs the operation inside its error-locating
  \`try\`, the renderer evaluates the variables the template mentions (the lookup is a second
  node: a step, a table hit), builds the Velocity context object and renders (one scope object
  and its locals map, the \`#if\` condition, the text). No promise or closure is created unless a
  provider answers asynchronously. The template render itself is about half of the time.
- Until the overhead was cut the static rows measured 2.2–3.0× with this command (replace
  1.4–1.5×, accountAttribute 2.1–2.6×). Most of that was not the engine's work but how tsx runs
  TypeScript: it compiles with esbuild's \`keepNames\`, which turns every named function created
  at run time (\`const start = () => …\`, \`{ wrapIdentity: () => … }\`) into
  \`__name(fn, "start")\`, an \`Object.defineProperty\` per call, about 0.5 µs each. The built
  library (\`tsc\`, \`dist/\`) has no such wrapper: there the same old code measured 0.52–0.66× on
  the static rows, and the current code 0.20–0.25× (this file bundled without keepNames against
  \`dist/\`, run with plain node). The evaluation path now creates no named function per call, so
  the two agree.
- accountAttribute's remaining distance to the hand-written loop is in the operation, not the
  engine: a typed sort key per account (each value tested against the ISO date and number
  patterns, a fifth of the time; the hand-written loop knows \`created\` is a date) and a
  searchable view per account for accountFilter.
`;
console.log(doc);
if (WRITE) writeFileSync(new URL('../docs/bench-engine.md', import.meta.url), doc);
