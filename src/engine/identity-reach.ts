// What of the identity graph a template reads through $identity (engine/identity-graph.ts loads
// those parts only), from what the Velocity compiler recorded of each `$identity` reference
// (CompiledTemplate.identityReads). Its first step decides: the manager (`.manager`,
// `.getManager()`: a manager's own links and manager are never loaded, runtime/velocity/identity.ts),
// the links (`.links`, `.getLinks()`, `.getLinksByAppIdOrName(…)`: the accounts and their
// sources, and the manager too, since a link's getIdentity() leads back to the identity), or
// neither (the identity's own name, id and attributes). Whatever cannot be followed reaches the
// whole graph: `$identity` alone (set to a variable, passed to a method or a macro, iterated), an
// index, and a mention of `identity` the compiler did not record as a reference of it (in a
// comment; a macro parameter or loop variable of that name, which reads the identity when unset).

import type { CompiledTemplate, IdentityRead } from '../runtime/velocity/index.js';

/** The parts of the identity graph something reads: the manager, the links (the accounts and their sources). */
export interface IdentityReach {
  readonly manager: boolean;
  readonly links: boolean;
}

export const WHOLE_GRAPH: IdentityReach = Object.freeze({ manager: true, links: true });
export const MANAGER_ONLY: IdentityReach = Object.freeze({ manager: true, links: false });
export const IDENTITY_ONLY: IdentityReach = Object.freeze({ manager: false, links: false });
const LINKS_ONLY: IdentityReach = Object.freeze({ manager: false, links: true });

/** The parts of the identity graph `template` can read. */
export function identityReach(template: CompiledTemplate): IdentityReach {
  if (!template.usesIdentity) return IDENTITY_ONLY;
  const reads = template.identityReads;
  let manager = false;
  for (const read of reads) {
    const part = readReach(read);
    if (part === 'whole') return WHOLE_GRAPH;
    if (part === 'manager') manager = true;
  }
  if (reads.length !== (template.source.match(/identity/g)?.length ?? 0)) return WHOLE_GRAPH;
  return manager ? MANAGER_ONLY : IDENTITY_ONLY;
}

/** The union of two reaches. */
export function unionReach(a: IdentityReach, b: IdentityReach): IdentityReach {
  return reachOf(a.manager || b.manager, a.links || b.links);
}

function reachOf(manager: boolean, links: boolean): IdentityReach {
  if (manager) return links ? WHOLE_GRAPH : MANAGER_ONLY;
  return links ? LINKS_ONLY : IDENTITY_ONLY;
}

/** What one first step after `$identity` reaches: a property `x` is read as getX(), getx() or isX() (runtime/velocity/methods.ts). */
function readReach(read: IdentityRead): 'own' | 'manager' | 'whole' {
  if (read.step !== 'property' && read.step !== 'method') return 'whole';
  const name = read.name.toLowerCase();
  if (name.includes('manager')) return 'manager';
  if (name.includes('link')) return 'whole';
  return 'own';
}
