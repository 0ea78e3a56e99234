// usernameGenerator — patterns tried in order against the uniqueness provider; a pattern
// with ${uniqueCounter} (the last one) counts up until a candidate is unique or
// cloudMaxUniqueChecks is exhausted (IllegalStateException); every candidate of one evaluation counts
// against limits.maxUsernameCandidates
// (https://developer.sailpoint.com/docs/extensibility/transforms/operations/username-generator).

import { codedError } from '../errors/index.js';
import { toJavaString } from '../runtime/java-string.js';
import { templateGlobals } from '../engine/globals.js';
import { identityReach, IDENTITY_ONLY, unionReach } from '../engine/identity-reach.js';
import { all, andThen, isPromise, type MaybePromise } from '../providers/maybe.js';
import type { Value } from '../engine/types.js';
import type { CompiledTemplate } from '../runtime/velocity/index.js';
import { attributesSchema, defineOperation, ref } from './spec.js';

const RESERVED = ['patterns', 'sourceCheck', 'cloudMaxSize', 'cloudMaxUniqueChecks', 'cloudRequired'] as const;
const COUNTER = 'uniqueCounter';
/** The documented maximum of cloudMaxUniqueChecks, also its default here. */
const MAX_UNIQUE_CHECKS = 50;

interface Pattern {
  readonly template: CompiledTemplate;
  readonly counter: boolean;
  /** Dynamic variables the pattern needs (a null or empty one makes the pattern unusable). */
  readonly needs: readonly string[];
}

/** cloudMaxSize cuts the base, never the counter, so that successive candidates stay distinct. */
function fit(base: string, counter: string, maxSize: number | undefined): string {
  if (maxSize === undefined || base.length + counter.length <= maxSize) return base + counter;
  return base.slice(0, Math.max(0, maxSize - counter.length)) + counter;
}

export const usernameGenerator = defineOperation({
  type: 'usernameGenerator',
  doc: 'usernameGenerator — patterns tried in order with ${uniqueCounter}',
  attributesRequired: false,
  attributesSchema: attributesSchema({
    properties: {
      patterns: { type: 'array', items: ref.string, minItems: 1 },
      sourceCheck: ref.boolean,
      cloudMaxSize: ref.integer,
      cloudMaxUniqueChecks: ref.integer,
      cloudRequired: ref.boolean,
    },
    required: ['patterns'],
    dynamicVariables: true,
  }),
  compile(ctx) {
    const raw = ctx.attributes.patterns;
    if (!Array.isArray(raw) || raw.length === 0) {
      throw ctx.error('SCHEMA_TYPE', 'patterns must be a non-empty array of strings', { attribute: 'patterns' });
    }
    const variables = ctx.dynamicVariables(RESERVED);
    const known = new Set(variables.map(([name]) => name));
    const patterns: Pattern[] = raw.map((p, i) => {
      if (typeof p !== 'string') throw ctx.error('SCHEMA_TYPE', 'a pattern must be a string', { attribute: ['patterns', i] });
      const template = ctx.template(p, ctx.at('patterns', i));
      const counter = template.references.has(COUNTER);
      // "The uniqueCounter must always be last in the pattern list" (the docs).
      if (counter && i !== raw.length - 1) {
        throw ctx.error('COMPILE_INVALID_ATTRIBUTE', 'only the last pattern may use ${uniqueCounter}', { attribute: ['patterns', i] });
      }
      return { template, counter, needs: [...template.references].filter((r) => known.has(r)) };
    });
    const maxChecks = ctx.constantInteger('cloudMaxUniqueChecks', { default: MAX_UNIQUE_CHECKS, min: 1, max: MAX_UNIQUE_CHECKS })!;
    const maxSize = ctx.constantInteger('cloudMaxSize', { min: 1 });
    const sourceCheck = ctx.boolean('sourceCheck', false);
    ctx.boolean('cloudRequired', true);
    const used = variables.filter(([name]) => patterns.some((p) => p.needs.includes(name)));
    const pointer = ctx.pointer;
    const reach = patterns.reduce((r, p) => unionReach(r, identityReach(p.template)), IDENTITY_ONLY);

    return (input, ev) => {
      const uniqueness = ev.providers.uniqueness;
      if (uniqueness === undefined) {
        throw codedError('EVAL_PROVIDER_MISSING', 'usernameGenerator needs a uniqueness provider (providers.uniqueness)', { path: pointer });
      }
      const attribute = (ev.variables.attributeDefinition as { name?: unknown } | undefined)?.name;
      const context = {
        sourceCheck,
        ...(ev.identity ? { identityId: ev.identity.id } : {}),
        ...(typeof attribute === 'string' ? { attribute } : {}),
      };
      const values = all(used.map(([, evaluate]) => evaluate(input, ev)));
      const graph = patterns.some((p) => p.template.usesIdentity) ? ev.identityGraph(reach) : null;
      return andThen(values, (vals) =>
        andThen(graph, (identity) => {
          const vars: Record<string, string> = {};
          used.forEach(([name], i) => {
            const v = vals[i];
            if (v !== null && v !== undefined && v !== '') vars[name] = toJavaString(v);
          });
          const globals = templateGlobals(ev, identity);
          // One budget for the whole evaluation: every render shares its loop iterations, and
          // every candidate counts against maxUsernameCandidates (and reads the clock).
          const budget = ev.budget;
          const render = (p: Pattern, counter: string): string =>
            p.template.render(p.counter ? { ...vars, [COUNTER]: counter } : vars, globals, ev);

          // The candidates in order, built one at a time: a loop, not a recursion, so that
          // thousands of patterns cannot exhaust the stack.
          let index = 0;
          let k = 0;
          let base = '';
          const nextCandidate = (): string => {
            while (index < patterns.length) {
              const p = patterns[index]!;
              // A pattern whose variables are null or empty cannot be built: try the next one.
              if (p.needs.some((name) => !(name in vars))) {
                index++;
                continue;
              }
              if (!p.counter) {
                index++;
                budget.candidate();
                return fit(render(p, ''), '', maxSize);
              }
              // The first try has an empty counter: jdoe, jdoe1, jdoe2 … maxChecks candidates in all.
              if (k >= maxChecks) {
                throw codedError('EVAL_ILLEGAL_STATE', `usernameGenerator: no unique value within cloudMaxUniqueChecks (${maxChecks})`, {
                  path: pointer,
                  details: { checks: maxChecks },
                });
              }
              budget.candidate();
              const counter = k === 0 ? '' : String(k);
              k++;
              const rendered = render(p, counter);
              if (counter === '') base = rendered;
              // When the counter ends the pattern, cloudMaxSize trims the part before it.
              return rendered === base + counter ? fit(base, counter, maxSize) : fit(rendered, '', maxSize);
            }
            throw codedError('EVAL_ILLEGAL_STATE', 'usernameGenerator: no pattern produced a unique value', { path: pointer });
          };
          const search = (): MaybePromise<Value> => {
            for (;;) {
              const candidate = nextCandidate();
              const unique = uniqueness.isUnique(candidate, context);
              if (isPromise<boolean>(unique)) return unique.then((u) => (u ? candidate : search()));
              if (unique) return candidate;
            }
          };
          return search();
        }),
      );
    };
  },
});

