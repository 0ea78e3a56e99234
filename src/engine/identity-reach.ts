// What of the identity graph a template reads through $identity (engine/identity-graph.ts loads
// those parts only). The first step after `$identity` decides: the manager
// (`.manager`, `.getManager()`: a manager's own links and manager are never loaded, runtime/velocity/identity.ts),
// the links (`.links`, `.getLinks()`, `.getLinksByAppIdOrName(…)`: the accounts and their
// sources, and the manager too, since a link's getIdentity() leads back to the identity), or
// neither (the identity's own name, id and attributes). Whatever the walk cannot follow reaches
// the whole graph: `$identity` alone (set to a variable, passed to a method or a macro), an index,
// a mention inside a string literal or a comment.

import type { CompiledTemplate } from '../runtime/velocity/index.js';
import { parseTemplate } from '../runtime/velocity/parse.js';

/** The parts of the identity graph something reads: the manager, the links (the accounts and their sources). */
export interface IdentityReach {
  readonly manager: boolean;
  readonly links: boolean;
}

export const WHOLE_GRAPH: IdentityReach = Object.freeze({ manager: true, links: true });
export const MANAGER_ONLY: IdentityReach = Object.freeze({ manager: true, links: false });
export const IDENTITY_ONLY: IdentityReach = Object.freeze({ manager: false, links: false });
const LINKS_ONLY: IdentityReach = Object.freeze({ manager: false, links: true });

const known = new WeakMap<CompiledTemplate, IdentityReach>();

/** The parts of the identity graph `template` can read (computed once per template). */
export function identityReach(template: CompiledTemplate): IdentityReach {
  if (!template.usesIdentity) return IDENTITY_ONLY;
  let reach = known.get(template);
  if (reach === undefined) {
    reach = analyse(template.source);
    known.set(template, reach);
  }
  return reach;
}

/** The union of two reaches. */
export function unionReach(a: IdentityReach, b: IdentityReach): IdentityReach {
  return reachOf(a.manager || b.manager, a.links || b.links);
}

function reachOf(manager: boolean, links: boolean): IdentityReach {
  if (manager) return links ? WHOLE_GRAPH : MANAGER_ONLY;
  return links ? LINKS_ONLY : IDENTITY_ONLY;
}

type Step = { readonly type?: unknown; readonly id?: unknown };

function analyse(source: string): IdentityReach {
  let nodes: unknown;
  try {
    nodes = parseTemplate(source);
  } catch {
    return WHOLE_GRAPH;
  }
  let manager = false;
  let found = 0;
  let whole = false;
  const visit = (value: unknown): void => {
    if (whole || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const node = value as { type?: unknown; id?: unknown; path?: unknown };
    if (node.type === 'references' && node.id === 'identity') {
      found++;
      const first = Array.isArray(node.path) ? (node.path[0] as Step | undefined) : undefined;
      const part = first === undefined ? 'whole' : stepReach(first);
      if (part === 'whole') whole = true;
      else if (part === 'manager') manager = true;
    }
    for (const key of Object.keys(node)) visit((node as Record<string, unknown>)[key]);
  };
  visit(nodes);
  // A mention the parsed nodes do not show ($identity in a string literal, rendered later, or in a comment).
  if (whole || found !== (source.match(/identity/g)?.length ?? 0)) return WHOLE_GRAPH;
  return manager ? MANAGER_ONLY : IDENTITY_ONLY;
}

/** What one step after `$identity` reaches: a property `x` is read as getX(), getx() or isX() (runtime/velocity/methods.ts). */
function stepReach(step: Step): 'own' | 'manager' | 'whole' {
  if ((step.type !== 'property' && step.type !== 'method') || typeof step.id !== 'string') return 'whole';
  const name = step.id.toLowerCase();
  if (name.includes('manager')) return 'manager';
  if (name.includes('link')) return 'whole';
  return 'own';
}
