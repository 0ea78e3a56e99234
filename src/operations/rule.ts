// rule — the Cloud Services Deployment Utility operations (generateRandomString,
// getEndOfString, getReferenceIdentityAttribute) built in; any other rule name is a JavaScript
// function registered on the engine (https://developer.sailpoint.com/docs/extensibility/transforms/operations/rule).

import { codedError, isTransformsError } from '../errors/index.js';
import { thrownMessage } from '../errors/thrown.js';
import { all, attempt, andThen, type MaybePromise } from '../providers/maybe.js';
import type { CompileContext, Evaluation, Evaluator, StringAttribute, Value } from '../engine/types.js';
import type { Identity } from '../providers/types.js';
import { MANAGER_ONLY } from '../engine/identity-reach.js';
import { generateRandomString } from '../runtime/random.js';
import { asValue, foreignValue } from './support/rule-value.js';
import { textOf } from './support/text.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

export const CLOUD_SERVICES_DEPLOYMENT_UTILITY = 'Cloud Services Deployment Utility';

function randomString(ctx: CompileContext): Evaluator {
  // The docs write these as strings ("true"); the OpenAPI as booleans: both accepted.
  const includeNumbers = ctx.boolean('includeNumbers', false);
  const includeSpecialChars = ctx.boolean('includeSpecialChars', false);
  const length = ctx.integer('length', { required: true, min: 1, max: 450 })!;
  return (input, ev) => andThen(length(input, ev), (n) => generateRandomString(n as number, { includeNumbers, includeSpecialChars }, ev.random));
}

function endOfString(ctx: CompileContext): Evaluator {
  const numChars = ctx.integer('numChars', { required: true, min: 0 })!;
  return (input, ev) => {
    const text = textOf(input);
    if (text === null) return null;
    // More characters asked than there are: null (the docs' "This is a test." / 16 example).
    return andThen(numChars(input, ev), (n) => ((n as number) > text.length ? null : text.slice(text.length - (n as number))));
  };
}

function referenceIdentityAttribute(ctx: CompileContext): Evaluator {
  const uid = ctx.string('uid', { required: true })!;
  const attributeName = ctx.string('attributeName', { required: true })!;
  const pointer = ctx.pointer;
  const find = (name: string, ev: Evaluation): MaybePromise<Identity | null> => {
    if (name === 'manager') {
      // The keyword: the manager of the identity being evaluated.
      if (ev.identity === null) throw codedError('EVAL_NO_IDENTITY', 'uid "manager" needs the identity in the context', { path: pointer });
      return andThen(ev.identityGraph(MANAGER_ONLY), (graph) => graph?.manager ?? null);
    }
    const identities = ev.providers.identities;
    if (identities?.findIdentityByName === undefined) {
      throw codedError('EVAL_PROVIDER_MISSING', 'getReferenceIdentityAttribute needs an identity provider that can find identities by name', { path: pointer });
    }
    return identities.findIdentityByName(name);
  };
  const text = (attribute: StringAttribute, input: Value, ev: Evaluation): MaybePromise<Value> =>
    attribute.kind === 'constant' ? attribute.value : attribute.evaluate(input, ev);
  return (input, ev) =>
    andThen(text(uid, input, ev), (name) =>
      andThen(text(attributeName, input, ev), (attr) =>
        name === null || attr === null
          ? null
          : andThen(find(String(name), ev), (identity) => {
              const v = identity?.attributes[String(attr)];
              return v === undefined || v === null ? null : (v as Value);
            }),
      ),
    );
}

function utility(ctx: CompileContext): Evaluator {
  const operation = ctx.attributes.operation;
  switch (operation) {
    case 'generateRandomString':
      return randomString(ctx);
    case 'getEndOfString':
      return endOfString(ctx);
    case 'getReferenceIdentityAttribute':
      return referenceIdentityAttribute(ctx);
    default:
      throw ctx.error(
        'COMPILE_INVALID_ATTRIBUTE',
        `the ${CLOUD_SERVICES_DEPLOYMENT_UTILITY} has no operation ${JSON.stringify(operation)} (generateRandomString, getEndOfString, getReferenceIdentityAttribute)`,
        { attribute: 'operation' },
      );
  }
}

/** A rule registered on the engine: every other attribute, evaluated, is passed to it. */
function registered(ctx: CompileContext, name: string): Evaluator {
  const variables = ctx.dynamicVariables(['name']);
  const pointer = ctx.at('name');
  return (input, ev) => {
    const fn = ev.rule(name);
    if (fn === undefined) {
      throw codedError('EVAL_UNKNOWN_RULE', `rule ${JSON.stringify(name)} is neither built in nor registered on the engine`, {
        path: pointer,
        details: { rule: name },
      });
    }
    return andThen(all(variables.map(([, evaluate]) => evaluate(input, ev))), (values) => {
      const attributes: Record<string, Value> = {};
      variables.forEach(([key], i) => (attributes[key] = values[i] ?? null));
      const failed = (error: unknown): never => {
        throw codedError('EVAL_RULE_FAILED', `rule ${JSON.stringify(name)} failed: ${thrownMessage(error)}`, {
          path: pointer,
          cause: error,
          details: { rule: name, ...(isTransformsError(error) ? { code: error.code } : {}) },
        });
      };
      const checked = (value: unknown): Value => {
        const foreign = foreignValue(value, ev.limits.maxOutputLength);
        if (foreign === null) return asValue(value);
        throw codedError('EVAL_RULE_FAILED', `rule ${JSON.stringify(name)} returned ${foreign.what}${foreign.at === '' ? '' : ` at ${foreign.at}`}: a transform's value is a string, a finite number, a boolean, null, a list or a map of these`, {
          path: pointer,
          details: { rule: name, at: foreign.at },
        });
      };
      return andThen(attempt(() => fn({ input, attributes, identity: ev.identity, now: ev.now, random: ev.random }) as MaybePromise<unknown>, failed), checked);
    });
  };
}

export const rule = defineOperation({
  type: 'rule',
  doc: 'rule — Cloud Services Deployment Utility operations and registered rules',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      name: ref.string,
      operation: ref.string,
    },
    required: ['name'],
    dynamicVariables: true,
  }),
  compile(ctx) {
    const name = ctx.attributes.name;
    if (typeof name !== 'string' || name === '') {
      throw ctx.error('SCHEMA_TYPE', 'name must be the rule name', { attribute: 'name' });
    }
    return name === CLOUD_SERVICES_DEPLOYMENT_UTILITY ? utility(ctx) : registered(ctx, name);
  },
});
