// A user's repository of tenant configuration, as the CI tests use it: the bundled tenant's
// transforms/ and identity-profiles/ at the root and the whole tenant under fixtures/, committed
// on main ("tenant as saved"); and the change the tests make on top of it, London's region.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './install.js';

/** git in `dir`, with an author, its output as text. */
export function gitIn(dir: string): (...args: string[]) => string {
  return (...args) => execFileSync('git', ['-c', 'user.name=CI', '-c', 'user.email=ci@example.com', ...args], { cwd: dir, encoding: 'utf8' });
}

/** Write the repository into `dir` (with `extra` files beside the tenant) and commit it on main. */
export function createTenantRepository(dir: string, extra: Record<string, string> = {}): void {
  cpSync(join(ROOT, 'fixtures/transforms'), join(dir, 'transforms'), { recursive: true });
  cpSync(join(ROOT, 'fixtures/identity-profiles'), join(dir, 'identity-profiles'), { recursive: true });
  cpSync(join(ROOT, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
  const git = gitIn(dir);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'tenant as saved');
}

/** London gets its own region: transforms/location-region.json's table maps LON to UK. */
export function changeLondonRegion(dir: string): void {
  const file = join(dir, 'transforms/location-region.json');
  const transform = JSON.parse(readFileSync(file, 'utf8')) as { attributes: { table: Record<string, string> } };
  transform.attributes.table.LON = 'UK';
  writeFileSync(file, JSON.stringify(transform, null, 2) + '\n');
}
