// Benchmark of validation (issue 2): 10,000 transform files through our CLI and through
// `ajv-cli validate` with the same generated schema, in one run, start-up included; and
// in-process validateTransform calls per second for a typical nested transform (goal ≥ 100,000/s).
// Run: npx tsx bench/validate.ts [--files N] [--runs N] [--no-write]. Writes docs/bench-validate.md.
// Needs the built package (npm ci runs `prepare`): it times dist/cli/main.js as users run it.
// The two CLIs run alternately (--runs times each, default 5) and the medians are compared, so
// that a burst of load on a shared machine does not land on one side only.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../src/engine/engine.js';
import { validateTransform } from '../src/schema/validate.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback);
const FILES = option('--files', 10_000);
const RUNS = option('--runs', 5);
const WRITE = !args.includes('--no-write');
const root = new URL('..', import.meta.url).pathname;

const typical = {
  name: 'Username',
  type: 'firstValid',
  attributes: {
    ignoreErrors: 'true',
    values: [
      { type: 'accountAttribute', attributes: { sourceName: 'Active Directory', attributeName: 'sAMAccountName', accountFilter: '!(displayName.startsWith("SVC-"))' } },
      { type: 'lower', attributes: { input: { type: 'replace', attributes: { regex: '[^a-zA-Z]', replacement: '', input: { type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'LastName' } } } } } },
      { type: 'static', attributes: { fn: { type: 'accountAttribute', attributes: { sourceName: 'HR Source', attributeName: 'FirstName' } }, value: '#if($fn)$fn#{else}unknown#end' } },
    ],
  },
};

function time(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const dir = join(tmpdir(), `idt-bench-validate-${process.pid}`);
mkdirSync(dir, { recursive: true });
for (let i = 0; i < FILES; i++) writeFileSync(join(dir, `t${i}.json`), JSON.stringify({ ...typical, name: `Username ${i}` }));
const schema = join(root, 'schemas/transform.schema.json');
const cli = join(root, 'dist/cli/main.js');
const ajv = join(root, 'node_modules/ajv-cli/dist/index.js');
if (!existsSync(cli)) throw new Error('build the package first (npm run build)');

const runOurs = () => time(() => execFileSync(process.execPath, [cli, 'validate', dir], { stdio: 'ignore' }));
const runTheirs = () =>
  time(() => {
    try {
      execFileSync(process.execPath, [ajv, 'validate', '-s', schema, '-d', `${dir}/*.json`, '--strict=false', '--all-errors'], { stdio: 'ignore' });
    } catch {
      // ajv-cli exits non-zero for invalid data; the files are valid, so this is a failure worth seeing.
      throw new Error('ajv-cli rejected the generated files');
    }
  });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const oursRuns: number[] = [];
const theirRuns: number[] = [];
runOurs(); // one untimed run of each: the page cache holds the files and both packages
runTheirs();
for (let r = 0; r < RUNS; r++) {
  // Alternate which goes first, so that neither always follows the other.
  if (r % 2 === 0) {
    oursRuns.push(runOurs());
    theirRuns.push(runTheirs());
  } else {
    theirRuns.push(runTheirs());
    oursRuns.push(runOurs());
  }
}
const ours = median(oursRuns);
const theirs = median(theirRuns);
const ratios = oursRuns.map((o, i) => o / theirRuns[i]!);
rmSync(dir, { recursive: true, force: true });

const engine = createEngine();
for (let i = 0; i < 2000; i++) validateTransform(typical, { engine });
const n = 100_000;
const inProcess = time(() => {
  for (let i = 0; i < n; i++) engine.validateSchema(typical);
});
const full = time(() => {
  for (let i = 0; i < 20_000; i++) validateTransform(typical, { engine });
});

const rows = [
  `| ${FILES.toLocaleString('en')} files, CLI end to end (start-up included), median of ${RUNS} | ${ours.toFixed(0)} ms | ajv-cli: ${theirs.toFixed(0)} ms | **${(ours / theirs).toFixed(2)}×** ajv-cli's time (runs: ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}×) |`,
  `| in-process schema validations of a typical nested transform | ${Math.round(n / (inProcess / 1000)).toLocaleString('en')}/s | goal 100,000/s | |`,
  `| in-process validateTransform (schema + compile, closures not kept) | ${Math.round(20_000 / (full / 1000)).toLocaleString('en')}/s | | |`,
];
const doc = `# Validation benchmark (issue 2)\n\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}. Command: \`npx tsx bench/validate.ts\`.\n\n| measure | ours | baseline | ratio |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n`;
console.log(doc);
if (WRITE) writeFileSync(new URL('../docs/bench-validate.md', import.meta.url), doc);
