// Generated tenants the benchmarks share, cached under bench/.data/ (git-ignored): generated once
// per size, with the bundled transforms re-copied at every run so that they follow fixtures/.

import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTenant } from '../src/testing/generator/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'fixtures');

export function benchTenant(identities: number): string {
  const dir = join(root, 'bench', '.data', `tenant-${identities}`);
  if (!existsSync(join(dir, 'accounts.json'))) {
    process.stderr.write(`generating ${identities.toLocaleString('en-US')} identities into ${dir} …\n`);
    writeTenant(dir, { identities, seed: 'bench', copyFrom: fixtures });
  }
  rmSync(join(dir, 'transforms'), { recursive: true, force: true });
  cpSync(join(fixtures, 'transforms'), join(dir, 'transforms'), { recursive: true });
  return dir;
}
