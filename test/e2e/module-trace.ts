// Which modules a child process resolves: a module hook, registered with `--import`, appends
// every resolved URL to a file — so that a test can say what a command never loads.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ModuleTrace {
  /** The file to pass to `node --import`. */
  register: string;
  /** The URLs resolved so far. */
  urls(): string[];
}

/** A hook writing into `dir` (resolved.txt, register.mjs). */
export function moduleTrace(dir: string): ModuleTrace {
  const trace = join(dir, 'resolved.txt');
  writeFileSync(trace, '');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(trace)}, resolved.url + '\\n');
  return resolved;
}`;
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
  return { register, urls: () => readFileSync(trace, 'utf8').split('\n').filter(Boolean) };
}
