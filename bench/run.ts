// `npm run bench`: every benchmark, one after the other, each reporting ratios against a
// baseline measured in the same run. `npm run bench -- filter validate` runs a subset.

import { spawnSync } from 'node:child_process';

const ALL = ['validate', 'engine', 'filter', 'runtime', 'runtime-java', 'api', 'api-collections', 'hostile', 'refresh', 'tracing', 'impact', 'verify', 'play'];
const chosen = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = chosen.filter((c) => !ALL.includes(c));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; choose from ${ALL.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const name of chosen.length > 0 ? chosen : ALL) {
  console.log(`\n=== bench/${name}.ts ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}.ts`], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`bench/${name}.ts failed (exit ${r.status})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
