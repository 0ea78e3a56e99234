// Identity profile evaluation: every attribute of identityAttributeConfig for one
// identity. One attribute's error does not stop the others, as in the platform's identity
// preview (previewAttributes[].errorMessages). $oldValue carries the previous value.

import { isCodedFailure, isTransformsError } from '../errors/index.js';
import type { Identity, IdentityProfile } from '../providers/types.js';
import { all, andThen, isPromise, type MaybePromise } from '../providers/maybe.js';
import type { CompiledTransform, Limits, Value } from './types.js';
import type { Budget } from '../runtime/budget.js';
import { toJavaString } from '../runtime/java-string.js';
import type { GeneratedProfile } from './codegen/profile.js';
import { PENDING } from './codegen/runtime.js';

/**
 * What the engine reads of an identity profile: its identityAttributeConfig (a whole profile, or
 * the config alone, as the identity preview endpoint sends it), with definitions not checked yet:
 * a mapping that does not compile is an error of that attribute.
 */
export type ProfileLike = Pick<IdentityProfile<unknown>, 'identityAttributeConfig'>;

export interface ProfileError {
  attribute: string;
  code: string;
  message: string;
  /** JSON Pointer into the profile document. */
  path: string;
}

export interface ProfileResult {
  attributes: Record<string, Value>;
  errors: ProfileError[];
}

export interface ProfileOptions {
  /** The identity's previous attribute values ($oldValue); defaults to identity.attributes. */
  previous?: Readonly<Record<string, unknown>>;
  /**
   * Limits for this call, over the engine's. The attributes of one profile evaluation share one
   * budget (time, iterations, allocation, usernameGenerator candidates); steps stay per attribute.
   */
  limits?: Partial<Limits>;
}

export interface CompiledMapping {
  readonly attribute: string;
  /** The identity attribute evaluated ($oldValue, $attributeDefinition.name): `attribute` unless the mapping says evaluatedAs. */
  readonly name: string;
  readonly pointer: string;
  readonly compiled?: CompiledTransform;
  /** A mapping that failed to compile is reported for every identity. */
  readonly compileError?: ProfileError;
}

export interface ProfileHost {
  compileDefinition(definition: unknown): CompiledTransform;
  run(
    compiled: CompiledTransform,
    identity: Identity,
    variables: Record<string, unknown>,
    limits: Readonly<Limits>,
    budget: Budget,
    shared: Map<string, unknown>,
  ): MaybePromise<Value>;
  /** The engine's limits with the call's over them. */
  limits(given: Partial<Limits> | undefined): Readonly<Limits>;
  /** A budget for one profile evaluation. */
  budget(limits: Readonly<Limits>): Budget;
}

export function compileProfile(host: ProfileHost, profile: ProfileLike): CompiledMapping[] {
  const mappings = profile.identityAttributeConfig?.attributeTransforms ?? [];
  return mappings.map((m, i) => {
    const pointer = `/identityAttributeConfig/attributeTransforms/${i}/transformDefinition`;
    const name = typeof m.evaluatedAs === 'string' ? m.evaluatedAs : m.identityAttributeName;
    try {
      return { attribute: m.identityAttributeName, name, pointer, compiled: host.compileDefinition(m.transformDefinition) };
    } catch (error) {
      if (!isTransformsError(error)) throw error;
      return {
        attribute: m.identityAttributeName,
        name,
        pointer,
        compileError: { attribute: m.identityAttributeName, code: error.code, message: error.message, path: pointer + (error.path ?? '') },
      };
    }
  });
}

export function runProfile(host: ProfileHost, mappings: readonly CompiledMapping[], identity: Identity, options: ProfileOptions = {}): MaybePromise<ProfileResult> {
  const previous = options.previous ?? identity.attributes ?? {};
  const attributes: Record<string, Value> = {};
  const errors: ProfileError[] = [];
  const limits = host.limits(options.limits);
  const budget = host.budget(limits);
  // What the attributes read alike (an account list, filtered and sorted) is computed once.
  const shared = new Map<string, unknown>();
  // The attributes run one after the other; as long as every one answers at once (synchronous
  // providers: a refresh), no closure and no promise is made per attribute.
  let outcomes: MaybePromise<void>[] | undefined;
  for (let i = 0; i < mappings.length; i++) {
    const m = mappings[i]!;
    if (m.compileError) {
      errors.push(m.compileError);
      continue;
    }
    const failed = (error: unknown): void => attributeFailed(error, m, attributes, errors);
    let out: MaybePromise<Value>;
    try {
      out = host.run(m.compiled!, identity, attributeVariables(m.name, previous), limits, budget, shared);
    } catch (error) {
      failed(error);
      continue;
    }
    if (isPromise<Value>(out)) {
      // Keep the key where the attribute's order puts it; the value comes later.
      attributes[m.attribute] = null;
      (outcomes ??= []).push(
        out.then((value) => {
          attributes[m.attribute] = value;
        }, failed),
      );
    } else attributes[m.attribute] = out;
  }
  if (outcomes === undefined) {
    if (errors.length > 1) sortErrors(errors, mappings);
    return { attributes, errors };
  }
  return andThen(all(outcomes), () => {
    // Keep the profile's attribute order whatever order asynchronous results arrived in.
    const ordered: Record<string, Value> = {};
    for (const m of mappings) if (Object.prototype.hasOwnProperty.call(attributes, m.attribute)) ordered[m.attribute] = attributes[m.attribute]!;
    sortErrors(errors, mappings);
    return { attributes: ordered, errors };
  });
}

/** The template variables of one attribute: $attributeDefinition, and $oldValue when it has one. */
export function attributeVariables(name: string, previous: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const oldValue = Object.prototype.hasOwnProperty.call(previous, name) ? previous[name] : undefined;
  const variables: Record<string, unknown> = { attributeDefinition: { name } };
  if (oldValue !== undefined && oldValue !== null) variables.oldValue = oldValue;
  return variables;
}

/** An attribute's coded error: its value is null and the error is located in the profile; anything else is re-thrown. */
export function attributeFailed(error: unknown, m: CompiledMapping, attributes: Record<string, Value>, errors: ProfileError[]): void {
  // A failure not built yet (errors/index.ts Failure) is reported by its code, message and path alone.
  if (!isCodedFailure(error)) throw error;
  attributes[m.attribute] = null;
  errors.push({ attribute: m.attribute, code: error.code, message: error.message, path: m.pointer + (error.path ?? '') });
}

/**
 * The profile through its generated function (engine/codegen/profile.ts), or, when a provider
 * answers asynchronously, through runProfile again; the same result either way.
 */
export function runGeneratedProfile(
  host: ProfileHost,
  generated: GeneratedProfile,
  mappings: readonly CompiledMapping[],
  identity: Identity,
  options: ProfileOptions = {},
): MaybePromise<ProfileResult> {
  const previous = options.previous ?? identity.attributes ?? {};
  const limits = host.limits(options.limits);
  let result: ProfileResult;
  try {
    result = generated(identity, previous, limits, host.budget(limits), new Map());
  } catch (error) {
    if (error !== PENDING) throw error;
    return runProfile(host, mappings, identity, options);
  }
  if (result.errors.length > 1) sortErrors(result.errors, mappings);
  return result;
}

/** Errors in the profile's attribute order, whatever order asynchronous results arrived in. */
function sortErrors(errors: ProfileError[], mappings: readonly CompiledMapping[]): void {
  const order = new Map(mappings.map((m, i) => [m.attribute, i]));
  errors.sort((a, b) => (order.get(a.attribute) ?? 0) - (order.get(b.attribute) ?? 0));
}

/**
 * An identity attribute value as the platform stores it: identity attributes are strings
 * (https://developer.sailpoint.com/docs/api/v3/get-identity, `attributes`), so a computed number
 * or boolean is kept as Java's String.valueOf prints it, a list or map as Java's toString
 * (`[a, b]`, `{k=v}`), and null stays null (docs/verify.md "Equality"). Applied to both sides of
 * a comparison, it also reads what a tenant answered: absent and null are the same.
 */
export function storedAttributeValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return toJavaString(value);
}
