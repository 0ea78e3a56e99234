// Templates that are one `$identity` reference reading the identity or its manager — the
// identity-context examples of https://developer.sailpoint.com/docs/extensibility/transforms/operations/static
// (`$identity.getManager().getName()`, `$identity.manager.attributes.networkDn`) — compiled to
// JavaScript reading the identity graph directly, for the generated code of `static`
// (operations/static.ts). The shapes taken:
//
//   $identity[.manager | .getManager()](.name | .getName() | (.attributes | .getAttributes()).key)
//
// with `$` or `${…}` and nothing around the reference. The code reads the same graph the
// renderer reads (the parts it would load, by ev.identityGraph(), so a provider failure is the same error) and
// returns the value when it is a string no longer than maxStringLength, which is then exactly
// what the renderer gives: Identity.getManager() and getName() as in runtime/velocity/identity.ts,
// getAttributes() as a map over the host's attributes whose `.key` is get("key"), a string
// rendered as itself, and the one budget charge the renderer makes (a method returning a new
// string: getName()). Two failures that depend on the template alone are thrown as the renderer
// throws them, its error taken once, at generation, from the renderer itself: no manager (a
// method or property called on null) and an attribute absent or null (a null reference, with
// strict references). Anything else — no identity, a name that is not a string, a value that is
// not a string, an attributes object that is not a plain object, a value too long — goes to the
// general renderer, which gives the value or the coded error it always gave.

import { isTransformsError, type ErrorCode } from '../../errors/index.js';
import type { Identity, IdentityGraph } from '../../providers/types.js';
import type { CompiledTemplate } from '../../runtime/velocity/index.js';
import { parseTemplate } from '../../runtime/velocity/parse.js';
import { isForbiddenName } from '../../runtime/velocity/methods.js';
import { literal } from './generator.js';
import { identityReach } from '../identity-reach.js';

/** A coded error as the renderer raised it, to raise again. */
export interface RenderFailure {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: Record<string, unknown> | undefined;
}

/** What `template` raises over an identity graph whose manager is `manager`; undefined when it raises no coded error. */
function failure(template: CompiledTemplate, manager: Identity | null): RenderFailure | undefined {
  const identity: Identity = { id: '', name: '', attributes: {} };
  const graph: IdentityGraph = { identity, accounts: [], sources: new Map(), manager };
  try {
    template.render({}, { identity: graph });
  } catch (error) {
    if (isTransformsError(error) && error.code === 'TEMPLATE_RENDER') return { code: error.code, message: error.message, details: error.details };
  }
  return undefined;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REFERENCE_KEYS = new Set(['type', 'id', 'path', 'leader', 'prue', 'pos', 'isWraped']);

type Step = { type?: unknown; id?: unknown; args?: unknown; [key: string]: unknown };

/** The step, when it is `.name` or `.getName()` style access to `property` (getter `getter`). */
function isAccess(step: Step | undefined, property: string, getter: string): 'property' | 'method' | undefined {
  if (step === undefined) return undefined;
  for (const key of Object.keys(step)) if (key !== 'type' && key !== 'id' && key !== 'args') return undefined;
  if (step.type === 'property' && step.id === property && step.args === undefined) return 'property';
  if (step.type === 'method' && step.id === getter && (step.args === false || (Array.isArray(step.args) && step.args.length === 0))) return 'method';
  return undefined;
}

/** What the generated code needs of its generator. */
export interface IdentityCode {
  readonly ev: string;
  readonly rt: string;
  bind(value: unknown): string;
}

/**
 * Statements returning the template's value when it is known without the renderer, given the
 * identifiers of the evaluation and of the runtime, and `general`, the statement that renders
 * it otherwise; undefined when the template is not of the shapes above.
 */
export function identityTemplate(template: CompiledTemplate, code: IdentityCode, general: string): string | undefined {
  const { ev, rt } = code;
  let nodes;
  try {
    nodes = parseTemplate(template.source);
  } catch {
    return undefined;
  }
  if (nodes.length !== 1) return undefined;
  const ref = nodes[0] as unknown as Step;
  if (typeof ref !== 'object' || ref === null || Array.isArray(ref) || ref.type !== 'references' || ref.id !== 'identity' || ref.leader !== '$') return undefined;
  for (const key of Object.keys(ref)) if (!REFERENCE_KEYS.has(key)) return undefined;
  const path = ref.path;
  if (!Array.isArray(path)) return undefined;
  const steps = path as Step[];
  let at = 0;
  // The graph's identity, or (after .manager / .getManager()) its manager: the renderer's
  // JavaIdentity wraps a truthy graph.manager, and a null manager fails the next step.
  let target = `g.identity`;
  let noManager = '';
  if (isAccess(steps[at], 'manager', 'getManager') !== undefined) {
    target = `g.manager`;
    at++;
    const error = failure(template, null);
    if (error !== undefined) noManager = `if (g !== null && g !== undefined && !g.manager) throw ${rt}.renderFailure(${code.bind(error)});\n`;
  }
  let read: string;
  const name = isAccess(steps[at], 'name', 'getName');
  if (name !== undefined && at + 1 === steps.length) {
    // A method returning a new string is charged to the budget (runtime/velocity/references.ts).
    read = `const v = t.name;
if (typeof v === 'string' && v.length <= ${ev}.limits.maxStringLength) {
  ${name === 'method' ? `${ev}.budget.string(v);\n  ` : ''}return v;
}`;
  } else if (isAccess(steps[at], 'attributes', 'getAttributes') !== undefined && at + 2 === steps.length) {
    const last = steps[at + 1]!;
    for (const key of Object.keys(last)) if (key !== 'type' && key !== 'id') return undefined;
    if (last.type !== 'property' || typeof last.id !== 'string' || !NAME.test(last.id) || isForbiddenName(last.id)) return undefined;
    const key = literal(last.id);
    // An attribute absent or null (or no attributes at all) is a null reference: the renderer's
    // error over an identity whose attributes are empty.
    const absent = failure(template, target === 'g.manager' ? { id: '', name: '', attributes: {} } : null);
    // getAttributes() is a map over a plain attributes object (runtime/velocity/identity.ts attributeMap).
    read = `const a = t.attributes;
if (a === undefined || a === null || (typeof a === 'object' && ${rt}.plainObject(a))) {
  const v = a !== undefined && a !== null && Object.prototype.hasOwnProperty.call(a, ${key}) ? a[${key}] : undefined;
  if (typeof v === 'string' && v.length <= ${ev}.limits.maxStringLength) return v;${absent === undefined ? '' : `\n  if (v === undefined || v === null) throw ${rt}.renderFailure(${code.bind(absent)});`}
}`;
  } else return undefined;
  // The parts of the graph the renderer would load for this template, and no others.
  return `const g = ${rt}.identityGraph(${ev}, ${code.bind(identityReach(template))});
${noManager}if (g !== null && g !== undefined && ${target}) {
  const t = ${target};
${read.replace(/^/gm, '  ')}
}
${general}`;
}
