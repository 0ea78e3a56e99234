// The variables every template sees besides its transform's dynamic variables
// (the template context of https://developer.sailpoint.com/docs/extensibility/transforms/): $identity, and what the caller put in the evaluation
// context ($oldValue, $attributeDefinition, …).

import type { TemplateGlobals } from '../runtime/velocity/index.js';
import type { IdentityGraph } from '../providers/types.js';
import { toJavaString } from '../runtime/java-string.js';
import type { Evaluation, Value } from './types.js';

/** The context variables of an evaluation whose caller gave none. */
export const NO_VARIABLES: Readonly<Record<string, unknown>> = Object.freeze({});

/** The globals of such an evaluation when the template does not use $identity (frozen: templates only read them). */
const NO_GLOBALS: TemplateGlobals = Object.freeze({ identity: null });

export function templateGlobals(ev: Evaluation, identity: IdentityGraph | null): TemplateGlobals {
  // Most evaluations have neither: one object fewer per render.
  if (identity === null && ev.variables === NO_VARIABLES) return NO_GLOBALS;
  // A loop rather than a spread: the variables of a profile's attributes come in several shapes,
  // and V8's object spread is slow over them (a tenth of a refresh's evaluation).
  const globals: TemplateGlobals = { identity };
  const variables = ev.variables;
  for (const key in variables) if (key !== 'identity') globals[key] = variables[key];
  return globals;
}

/**
 * A template's dynamic variables as its Velocity context: a null value is left out, so that
 * referencing it fails as an undefined reference (`$!x` too); `""` is a value (`a$!x b` renders
 * `a b`); the others are rendered to Java strings first. Decisions E6 and V4, both observed on a
 * tenant.
 */
export function templateVariables(names: readonly string[], values: readonly Value[]): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    vars[names[i]!] = toJavaString(v);
  }
  return vars;
}
