// arbitraryTransform: valid transforms of every operation type, drawn from the
// registry's attribute schemas (the same specs src/schema/build.ts turns into the JSON Schema)
// with curated values where compiling asks more than the schema, nested up to a depth. Every
// one passes validateTransform; test/testing/transforms.test.ts holds that as a property.

import fc from './fast-check.js';
import { codedError } from '../errors/index.js';
import type { OperationSpec } from '../engine/types.js';
import { builtinOperations } from '../operations/index.js';
import type { TransformDocument } from '../providers/types.js';
import { resolveShape, type ShapeInput } from './shape.js';
import { fromSchema, looseBoolean, orNested, safeText, type NestedArbitrary } from './transform-schema.js';
import { SEMANTICS, type SemanticsContext } from './transform-semantics.js';

export interface TransformArbitraryOptions {
  /** Sources and attribute keys to address: a TenantShape, a fixture tenant, or nothing (the default shape). */
  shape?: ShapeInput;
  /** Levels of nested transforms below the root (default 2; 0 gives literals only). */
  maxDepth?: number;
  /** Operation types to draw from, at every level (default: every registered type). */
  types?: readonly string[];
  /** Names `reference` may use (default: the names of the shape's transforms, else "Identity UID"). */
  referenceNames?: readonly string[];
  /** Rules registered on the engine that `rule` may call, besides the built-in utility. */
  ruleNames?: readonly string[];
  /** The registry to draw from (default: the built-in operations). User specs get their schema only. */
  operations?: readonly OperationSpec[];
  /** Give the root a name (default true; false gives a nested definition, as in an identity profile). */
  named?: boolean;
}

/** Attributes every transform may carry (src/operations/spec.ts), and how to draw them. */
function commonAttributes(nested: NestedArbitrary): Record<string, fc.Arbitrary<unknown>> {
  // The input is how transforms nest most often: nested twice as often as other attributes.
  return { input: orNested(safeText, nested, 6), requiresPeriodicRefresh: looseBoolean, internal: looseBoolean };
}

/** The attributes of one operation, or null/absent where the operation allows it. */
function attributesOf(spec: OperationSpec, ctx: SemanticsContext): fc.Arbitrary<Record<string, unknown> | null | undefined> {
  const semantics = SEMANTICS[spec.type]?.(ctx) ?? {};
  const together = semantics.together;
  const skip = new Set(together?.keys ?? []);
  const properties = spec.attributesSchema.properties ?? {};
  const common = commonAttributes(ctx.nested);
  const arbitraries: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, schema] of Object.entries(properties)) {
    // `id` inside attributes is the platform's read-only id everywhere but in reference.
    if (skip.has(key) || (key === 'id' && spec.type !== 'reference')) continue;
    arbitraries[key] = semantics.attributes?.[key] ?? common[key] ?? fromSchema(schema, ctx.nested);
  }
  const required = (spec.attributesSchema.required ?? []).filter((k) => !skip.has(k));
  const own = fc.record(arbitraries, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
  const all = together === undefined ? own : fc.tuple(own, together.arbitrary).map(([a, b]) => ({ ...a, ...b }));
  const needsObject = spec.attributesRequired || (spec.attributesSchema.required?.length ?? 0) > 0;
  return needsObject ? all : fc.oneof({ weight: 6, arbitrary: all }, fc.constant(null), fc.constant(undefined));
}

function nodeOf(spec: OperationSpec, ctx: SemanticsContext): fc.Arbitrary<Record<string, unknown>> {
  return attributesOf(spec, ctx).map((attributes) => (attributes === undefined ? { type: spec.type } : { type: spec.type, attributes }));
}

/**
 * Valid transforms: a root of any of the types, whose attributes nest transforms up to
 * `maxDepth` levels. Sources, attribute names and referenced names come from the shape, so the
 * transforms also evaluate to something on identities of that shape.
 */
export function arbitraryTransform(options: TransformArbitraryOptions = {}): fc.Arbitrary<TransformDocument> {
  const operations = options.operations ?? builtinOperations;
  const types = options.types ?? operations.map((s) => s.type);
  const specs = types.map((type) => {
    const spec = operations.find((s) => s.type === type);
    if (spec === undefined) throw codedError('ENGINE_OPTION_INVALID', `arbitraryTransform: no operation "${type}" in the registry`);
    return spec;
  });
  const shapeInput = options.shape;
  const shape = resolveShape(shapeInput);
  const fixtureTransforms = shapeInput !== undefined && 'transforms' in shapeInput ? (shapeInput.transforms ?? []) : [];
  const fixtureNames = fixtureTransforms.map((t) => t.name).filter((n): n is string => typeof n === 'string');
  const referenceNames = options.referenceNames ?? (fixtureNames.length > 0 ? fixtureNames : ['Identity UID']);
  const base = { shape, referenceNames, ruleNames: options.ruleNames ?? [] };

  // Built from the deepest level up: level d nests level d + 1; the last level nests nothing.
  let nested: NestedArbitrary = null;
  const maxDepth = options.maxDepth ?? 2;
  for (let depth = maxDepth; depth >= 1; depth--) {
    const ctx: SemanticsContext = { ...base, nested };
    nested = fc.oneof(...specs.map((spec) => nodeOf(spec, ctx)));
  }
  const root = fc.oneof(...specs.map((spec) => nodeOf(spec, { ...base, nested })));
  if (options.named === false) return root as fc.Arbitrary<TransformDocument>;
  const name = fc.stringMatching(/^[A-Z][A-Za-z0-9 ._-]{0,30}$/);
  return fc.tuple(name, root).map(([n, node]) => ({ name: n, ...node }) as TransformDocument);
}
