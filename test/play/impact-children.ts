// The playground's impact processes a process has running (impact-process.ts forks them), read
// from Linux's /proc: a cancelled or budgeted run must leave none behind; and the pasted
// profiles that attack the playground's impact.

import { readdirSync, readFileSync } from 'node:fs';

/** A process's /proc/<pid>/status: empty once it is gone (a zombie's says `State: Z`). */
export const readProc = (pid: number): string => read(`/proc/${pid}/status`);

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The process ids of the children of a process (default: this one) that run impact-child. */
export function impactChildren(parent = process.pid): number[] {
  const tasks = readdirSync(`/proc/${parent}/task`);
  const children = tasks.flatMap((task) => read(`/proc/${parent}/task/${task}/children`).split(' ').filter(Boolean).map(Number));
  return children.filter((pid) => read(`/proc/${pid}/cmdline`).includes('impact-child'));
}

/** The profile of the bundled tenant with its mappings replaced: a pasted profile. */
export function pastedProfile(defaultProfile: string, mappings: unknown[]): string {
  const profile = JSON.parse(defaultProfile) as { identityAttributeConfig: { attributeTransforms: unknown[] } };
  profile.identityAttributeConfig.attributeTransforms = mappings;
  return JSON.stringify(profile);
}

/** Counts to the iteration limit's edge: about an evaluation's budget for every identity. */
export const HEAVY = { type: 'static', attributes: { value: '#set($n=0)#foreach($i in [1..99990])#set($n=$n+1)#end$n' } };

/** A string of 65,536 characters (under the server's 100,000), another for every identity. */
export const WIDE = { type: 'static', attributes: { value: '#set($s="$identity.id")#foreach($i in [1..11])#set($s="$s$s")#end$s' } };
