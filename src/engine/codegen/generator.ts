// Code generation (the ajv way): a transform compiled to closures (engine/compile.ts) is then
// emitted as the source of JavaScript, built once with `new Function`, which V8 optimises as a
// whole. Each node becomes a local function with the closures' exact contract (explicit input,
// step counting, the clock every 1,024 steps, errors located at the innermost node); operations
// that contribute a code template (OperationSpec.generate) are inlined there, literal inputs and
// static templates without references are folded to constants, and any other operation (a third
// party's, say) is called as its closure from the generated code.
//
// Node functions take a third argument, the evaluation's state of shared reads (`c`): a value a
// template asks for with `once(key, …)` (an account list filtered and sorted, an account read)
// is computed at its first use and then read from a slot of that object, by every node of the
// transform, or of the whole profile (engine/codegen/profile.ts) — the memo the closures keep in
// a Map, without the Map.
//
// Generated code is synchronous. When a value is pending (an asynchronous provider), the
// function throws PENDING and its entry runs the same evaluation through the closures, which
// wait; what the abandoned run memoised (account lists, the identity graph) is reused.
// Hosts that forbid `new Function` (a Content Security Policy without 'unsafe-eval') use the
// closures: the engine option `codegen: false`, or automatically when the constructor throws.

import { needsTemplate } from '../../runtime/velocity/index.js';
import { COMMON_ATTRIBUTES, isTransformNode, type CompiledNode } from '../compile.js';
import { STEPS_PER_TIME_CHECK } from '../compile.js';
import { runtime } from './runtime.js';
import { identityReach } from '../identity-reach.js';
import type { CodeContext, Evaluator, InlinedReference } from '../types.js';
import { pointerJoin } from '../../errors/index.js';

/** The nodes of one compiled transform, as engine/compile.ts recorded them, by JSON Pointer. */
export type RecordedNodes = ReadonlyMap<string, CompiledNode>;

/**
 * Emit and build the function of the transform whose nodes were recorded, `closure` (unreported) its
 * fallback, as a compiled transform's entry (engine/reporting.ts); undefined when the host forbids `new Function`.
 */
export function generateEvaluator(nodes: RecordedNodes, closure: Evaluator): Evaluator | undefined {
  const generator = new Generator();
  const root = generator.node(generator.unit(nodes), '');
  const source = `${generator.prelude()}
return rt.reporting(function generated(input, ev) {
  const before = ev.counter.steps;
  try {
    return ${root}(input, ev, new State());
  } catch (e) {
    if (e !== rt.PENDING) throw e;
    ev.counter.steps = before;
    return closure(input, ev);
  }
});`;
  return build(generator, source, { closure }) as Evaluator | undefined;
}

/** Build generated source with its bound values; undefined when the host forbids `new Function`. */
export function build(generator: Generator, source: string, extra: Record<string, unknown>): unknown {
  const names = Object.keys(extra);
  let factory: (...args: unknown[]) => unknown;
  try {
    factory = new Function('rt', ...names, ...generator.bound.map((_v, i) => `b${i}`), `"use strict";\n${source}`) as typeof factory;
  } catch (error) {
    if (error instanceof EvalError) return undefined;
    throw error;
  }
  return factory(runtime, ...names.map((n) => extra[n]), ...generator.bound);
}

/** One transform's nodes, emitted under a prefix of their own. */
interface Unit {
  readonly id: number;
  readonly nodes: RecordedNodes;
  /** The names of the references entered to reach this unit, outermost first (profile generation). */
  readonly chain: readonly string[];
}

interface Inlined {
  readonly unit: Unit;
  pure: boolean;
  readonly documents: ReadonlyArray<readonly [string, unknown]>;
}

/** Resolves a reference's target at generation time, for inlining (profile generation only). */
export type ReferenceResolver = (name: string) => { document: unknown; nodes: RecordedNodes } | undefined;

export class Generator {
  readonly functions: string[] = [];
  readonly bound: unknown[] = [];
  private locals = 0;
  private units = 0;
  private readonly names = new Map<string, string>();
  private readonly slots = new Map<string, string>();
  private readonly inlined = new Map<string, Inlined>();

  /** `resolve` given: references with a constant name are inlined where their target resolves at once. */
  constructor(private readonly resolve?: ReferenceResolver) {}

  unit(nodes: RecordedNodes, chain: readonly string[] = []): Unit {
    return { id: this.units++, nodes, chain };
  }

  /** The state object's constructor: one slot per shared read, so that its shape is fixed. */
  prelude(): string {
    const slots = [...this.slots.values()].map((s) => `  this.${s} = undefined;`).join('\n');
    return `function State() {\n${slots}\n}\n${this.functions.join('\n')}`;
  }

  bind(value: unknown): string {
    const i = this.bound.indexOf(value);
    if (i >= 0) return `b${i}`;
    this.bound.push(value);
    return `b${this.bound.length - 1}`;
  }

  local(): string {
    return `v${this.locals++}`;
  }

  /** An expression computing `expression` once per evaluation state, read from its slot afterwards (never undefined). */
  once(key: string, expression: string): string {
    const slot = this.slot(key);
    return `(${slot} !== undefined ? ${slot} : (${slot} = ${expression}))`;
  }

  /** The slot of the evaluation state holding the value shared under `key` (undefined until set). */
  slot(key: string): string {
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = `s${this.slots.size}`;
      this.slots.set(key, slot);
    }
    return `c.${slot}`;
  }

  /** The name of the local function evaluating the node at `pointer` of `unit` (emitted once). */
  node(unit: Unit, pointer: string): string {
    const id = `${unit.id}:${pointer}`;
    const known = this.names.get(id);
    if (known !== undefined) return known;
    const node = unit.nodes.get(pointer);
    if (node === undefined) throw new Error(`code generation: no compiled node at "${pointer}"`);
    const name = `n${this.names.size}`;
    this.names.set(id, name);
    const p = JSON.stringify(pointer);
    const body = this.body(unit, node, pointer);
    if (body === undefined) {
      // No template: the node's own closure (input rule, steps and location included).
      this.functions.push(`function ${name}(input, ev) {\n  return rt.sync(${this.bind(node.evaluator)}(input, ev));\n}`);
      return name;
    }
    const attributes = node.ctx.attributes;
    const explicit = Object.prototype.hasOwnProperty.call(attributes, 'input') && attributes.input !== undefined
      ? `  input = ${this.value(unit, node, attributes.input, ['input'])};\n`
      : '';
    this.functions.push(`function ${name}(input, ev, c) {
  const steps = ++ev.counter.steps;
  if (steps > ev.limits.maxSteps) throw rt.stepLimit(ev, ${p});
  if ((steps & ${STEPS_PER_TIME_CHECK}) === 0) rt.checkTime(ev, ${p});
${explicit}  try {
${indent(body, 4)}
  } catch (e) {
    throw rt.locate(e, ${p}, ev);
  }
}`);
    return name;
  }

  /**
   * A reference to `name` from `unit`, inlined: its target's nodes are emitted as a unit of their
   * own (once per chain of references), unless the name is already on the chain (a cycle, left to
   * the closure, which reports it) or the target does not resolve at once.
   */
  private reference(unit: Unit, name: string): InlinedReference | undefined {
    if (this.resolve === undefined || unit.chain.includes(name)) return undefined;
    const chain = [...unit.chain, name];
    const key = JSON.stringify(chain);
    let known = this.inlined.get(key);
    if (known === undefined) {
      const target = this.resolve(name);
      if (target === undefined) return undefined;
      known = { unit: this.unit(target.nodes, chain), pure: false, documents: [[name, target.document]] };
      this.inlined.set(key, known);
      this.settle(known);
    }
    const entry = known;
    return {
      documents: entry.documents,
      depth: chain.length,
      pure: entry.pure,
      call: (input, ev) => `${this.node(entry.unit, '')}(${input}, ${ev}, c)`,
    };
  }

  /**
   * An inlined target is pure when it holds no reference at all: then nothing in it (generated
   * or closure) reads the reference stack, and the generated code does not build one. Otherwise
   * it is entered as the closure enters it (cycle and depth checks included).
   */
  private settle(entry: Inlined): void {
    entry.pure = ![...entry.unit.nodes.values()].some((node) => node.spec.type === 'reference');
  }

  private body(unit: Unit, node: CompiledNode, pointer: string): string | undefined {
    const generate = node.spec.generate;
    if (generate === undefined) return undefined;
    const context: CodeContext = {
      compile: node.ctx,
      closure: node.body,
      input: 'input',
      ev: 'ev',
      rt: 'rt',
      value: (name) => {
        const attributes = node.ctx.attributes;
        if (!Object.prototype.hasOwnProperty.call(attributes, name) || attributes[name] === undefined) return undefined;
        return this.value(unit, node, attributes[name], [name]);
      },
      valueAt: (value, ...tokens) => this.value(unit, node, value, tokens),
      list: (name) => {
        const raw = node.ctx.attributes[name];
        if (raw === undefined || raw === null) return [];
        if (!Array.isArray(raw)) throw new Error(`code generation: "${name}" at ${pointer} is not an array`);
        return raw.map((item, i) => this.value(unit, node, item, [name, i]));
      },
      dynamicVariableNames: (reserved) => {
        const skip = new Set<string>([...reserved, ...COMMON_ATTRIBUTES]);
        return Object.keys(node.ctx.attributes).filter((key) => !skip.has(key) && node.ctx.attributes[key] !== undefined);
      },
      bind: (value) => this.bind(value),
      render: (template, names, values) => `rt.render(${this.bind(template)}, ${this.bind(identityReach(template))}, ${this.bind(names)}, [${values.join(', ')}], ev)`,
      literal,
      local: () => this.local(),
      sync: (expression) => `rt.sync(${expression})`,
      once: (key, expression) => this.once(key, expression),
      slot: (key) => this.slot(key),
      reference: (name) => this.reference(unit, name),
    };
    return generate(context);
  }

  /** An expression for an attribute value, as CompileContext.valueAt compiles it. */
  private value(unit: Unit, node: CompiledNode, value: unknown, tokens: (string | number)[]): string {
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return literal(value);
    if (typeof value === 'string') {
      if (!needsTemplate(value)) return literal(value);
      const template = node.ctx.template(value, node.ctx.at(...tokens));
      if (template.isConstant) return literal(value);
    } else if (isTransformNode(value)) {
      return `${this.node(unit, pointerJoin(node.ctx.pointer, 'attributes', ...tokens))}(input, ev, c)`;
    }
    // A rendered template, a list or an object literal: its closure, compiled again (at compile
    // time only) by the same context.
    return `rt.sync(${this.bind(node.ctx.valueAt(value, ...tokens))}(input, ev))`;
  }
}

/** A JavaScript literal (JSON is one, U+2028 and U+2029 included since ES2019). */
export function literal(value: string | number | boolean | null): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  return JSON.stringify(value);
}

export function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => (line.length > 0 ? pad + line : line))
    .join('\n');
}
