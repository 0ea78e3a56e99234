// Rules from a module (the command line's --rules <module>, a refresh's worker threads): an ES
// module whose default export, or export named `rules`, is an object of rule functions by rule
// name, as createEngine({ rules }) takes them.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { codedError } from '../errors/index.js';
import { thrownMessage } from '../errors/thrown.js';
import { isPromise } from '../providers/maybe.js';
import type { RuleFunction } from './types.js';

function invalid(file: string, message: string, cause?: unknown): never {
  throw codedError('RULES_MODULE_INVALID', `${file}: ${message}`, { ...(cause === undefined ? {} : { cause }), details: { file } });
}

/** The absolute file URL of a rules module given as a path (relative to the working directory). */
export function rulesModuleUrl(path: string): string {
  const file = resolve(path);
  if (!existsSync(file)) invalid(path, 'the rules module does not exist');
  return pathToFileURL(file).href;
}

/** Import a rules module and check its shape; RULES_MODULE_INVALID when it is missing or malformed. */
export async function loadRulesModule(path: string): Promise<Record<string, RuleFunction>> {
  const url = path.startsWith('file:') ? path : rulesModuleUrl(path);
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    return invalid(path, `the rules module cannot be loaded: ${thrownMessage(error)}`, error);
  }
  const rules = module.rules ?? module.default;
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) {
    return invalid(path, 'a rules module must export its rules as the default export or as "rules": an object of functions by rule name');
  }
  const out: Record<string, RuleFunction> = {};
  for (const [name, fn] of Object.entries(rules as Record<string, unknown>)) {
    if (typeof fn !== 'function') invalid(path, `rule "${name}" must be a function, not ${fn === null ? 'null' : typeof fn}`);
    out[name] = fn as RuleFunction;
  }
  return out;
}

/**
 * Rules for an engine that evaluates synchronously (a refresh evaluates each identity with
 * evaluateProfileSync): a rule that answers with a promise fails its own attribute, as
 * EVAL_RULE_FAILED saying so, instead of the whole run failing with ENGINE_ASYNC_PROVIDER, which
 * names an API the person running the command never called. The promise is left to settle
 * unobserved.
 */
export function synchronousRules(rules: Record<string, RuleFunction>): Record<string, RuleFunction> {
  const out: Record<string, RuleFunction> = {};
  for (const [name, fn] of Object.entries(rules)) {
    out[name] = (args) => {
      const value: unknown = fn(args);
      if (isPromise(value)) {
        value.then(undefined, () => undefined);
        throw new Error('it answered with a promise; a refresh evaluates each identity synchronously, so a rule must return its value');
      }
      return value as ReturnType<RuleFunction>;
    };
  }
  return out;
}
