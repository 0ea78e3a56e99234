// The language server's figures with a 100,000-identity snapshot configured: diagnostics of a
// typical transform file after an edit (the document parsed again and checked, as on every
// keystroke), completion of source and attribute names and of types, and the process's RSS with
// the tenant model and the identity loaded. Goals: diagnostics ≤ 50 ms p95, completion ≤ 30 ms
// p95, RSS ≤ 300 MB. Run with `npx tsx bench/language.ts [identities]`; the figures are only
// meaningful on a quiet machine.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { doComplete, doHover, doValidation } from '../src/language/index.js';
import { WorkspaceHost } from '../src/language/workspace-host.js';
import { benchTenant } from './tenants.js';

const identities = Number(process.argv[2] ?? 100_000);
const RUNS = 300;

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

function measure(run: (i: number) => void): { p50: number; p95: number } {
  for (let i = 0; i < 20; i++) run(i);
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    run(i);
    samples.push(performance.now() - start);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)]!, p95: p95(samples) };
}

const dir = benchTenant(identities);
const host = new WorkspaceHost();
const started = performance.now();
host.configure({ fixtures: dir, identity: JSON.parse(readFileSync(join(dir, 'identities.json'), 'utf8').split('\n')[1]!.replace(/,$/, '')).name });
await host.addFolder(join(dir, 'transforms'));
await host.settled();
const loaded = performance.now() - started;
if (host.problems.length > 0) throw new Error(host.problems.join('\n'));

// A typical transform file: a firstValid over account attributes, a lookup and a template.
const file = join(dir, 'transforms', 'typical.json');
const uri = pathToFileURL(file).href;
const typical = JSON.stringify(
  {
    name: 'Typical',
    type: 'firstValid',
    attributes: {
      values: [
        { type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'PREFERRED_NAME' } },
        { type: 'lookup', attributes: { input: { type: 'accountAttribute', attributes: { sourceName: 'Workday', attributeName: 'COUNTRY' } }, table: { CZ: 'Czechia', default: 'elsewhere' } } },
        { type: 'static', attributes: { first: { type: 'identityAttribute', attributes: { name: 'firstname' } }, value: '$first.toLowerCase()' } },
      ],
    },
  },
  null,
  2,
);
const edits = ['PREFERRED_NAME', 'PREFERRED_NAM', 'PREFERRED_N', 'PREFERRED_NAME'];

const diagnostics = measure((i) => {
  const doc = host.setText(uri, typical.replace('PREFERRED_NAME', edits[i % edits.length]!));
  doValidation(doc, host.workspace());
});
const completeAt = (needle: string) => {
  const doc = host.setText(uri, typical);
  const offset = typical.indexOf(needle) + 1;
  return measure(() => doComplete(doc, offset, host.workspace()));
};
const sources = completeAt('"Workday"');
const attributes = completeAt('"COUNTRY"');
const types = completeAt('"lookup"');
const hover = measure(() => doHover(host.document(uri)!, typical.indexOf('"COUNTRY"') + 2, host.workspace()));
const rss = process.memoryUsage().rss / 2 ** 20;

const row = (name: string, m: { p50: number; p95: number }, goal: string) => `| ${name} | ${m.p50.toFixed(2)} | ${m.p95.toFixed(2)} | ${goal} |`;
process.stdout.write(
  [
    `${identities.toLocaleString('en-US')} identities; model and identity loaded in ${(loaded / 1000).toFixed(1)} s (in the background); RSS ${rss.toFixed(0)} MB (goal ≤ 300 MB)`,
    '',
    '| Request | p50 ms | p95 ms | Goal (p95) |',
    '| --- | ---: | ---: | ---: |',
    row('diagnostics after an edit', diagnostics, '≤ 50 ms'),
    row('completion: source names', sources, '≤ 30 ms'),
    row('completion: attribute names', attributes, '≤ 30 ms'),
    row('completion: operation types', types, '≤ 30 ms'),
    row('hover with the value', hover, '—'),
    '',
  ].join('\n'),
);
