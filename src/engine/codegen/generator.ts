// Code generation (the ajv way): a transform compiled to closures (engine/compile.ts) is then
// emitted as the source of one JavaScript function, built once with `new Function`, which V8
// optimises as a whole. Each node becomes a local function with the closures' exact contract
// (explicit input, step counting, the clock every 1,024 steps, errors located at the innermost
// node); operations that contribute a code template (OperationSpec.generate) are inlined there,
// literal inputs and static templates without references are folded to constants, and any other
// operation (a third party's, say) is called as its closure from the generated code.
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
import type { CodeContext, Evaluator } from '../types.js';
import { pointerJoin } from '../../errors/index.js';

/** Emit and build the function of the transform whose nodes were recorded; undefined when the host forbids `new Function`. */
export function generateEvaluator(nodes: ReadonlyMap<string, CompiledNode>, closure: Evaluator): Evaluator | undefined {
  const generator = new Generator(nodes);
  const root = generator.node('');
  const source = `${generator.functions.join('\n')}
return function generated(input, ev) {
  const before = ev.counter.steps;
  try {
    return ${root}(input, ev);
  } catch (e) {
    if (e !== rt.PENDING) throw e;
    ev.counter.steps = before;
    return closure(input, ev);
  }
};`;
  let factory: (...args: unknown[]) => Evaluator;
  try {
    factory = new Function('rt', 'closure', ...generator.bound.map((_v, i) => `b${i}`), `"use strict";\n${source}`) as typeof factory;
  } catch (error) {
    if (error instanceof EvalError) return undefined;
    throw error;
  }
  return factory(runtime, closure, ...generator.bound);
}

class Generator {
  readonly functions: string[] = [];
  readonly bound: unknown[] = [];
  private locals = 0;
  private readonly names = new Map<string, string>();

  constructor(private readonly nodes: ReadonlyMap<string, CompiledNode>) {}

  bind(value: unknown): string {
    const i = this.bound.indexOf(value);
    if (i >= 0) return `b${i}`;
    this.bound.push(value);
    return `b${this.bound.length - 1}`;
  }

  local(): string {
    return `v${this.locals++}`;
  }

  /** The name of the local function evaluating the node at `pointer` (emitted once). */
  node(pointer: string): string {
    const known = this.names.get(pointer);
    if (known !== undefined) return known;
    const node = this.nodes.get(pointer);
    if (node === undefined) throw new Error(`code generation: no compiled node at "${pointer}"`);
    const name = `n${this.names.size}`;
    this.names.set(pointer, name);
    const p = JSON.stringify(pointer);
    const body = this.body(node, pointer);
    if (body === undefined) {
      // No template: the node's own closure (input rule, steps and location included).
      this.functions.push(`function ${name}(input, ev) {\n  return rt.sync(${this.bind(node.evaluator)}(input, ev));\n}`);
      return name;
    }
    const attributes = node.ctx.attributes;
    const explicit = Object.prototype.hasOwnProperty.call(attributes, 'input') && attributes.input !== undefined
      ? `  input = ${this.value(node, attributes.input, ['input'])};\n`
      : '';
    this.functions.push(`function ${name}(input, ev) {
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

  private body(node: CompiledNode, pointer: string): string | undefined {
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
        return this.value(node, attributes[name], [name]);
      },
      valueAt: (value, ...tokens) => this.value(node, value, tokens),
      list: (name) => {
        const raw = node.ctx.attributes[name];
        if (raw === undefined || raw === null) return [];
        if (!Array.isArray(raw)) throw new Error(`code generation: "${name}" at ${pointer} is not an array`);
        return raw.map((item, i) => this.value(node, item, [name, i]));
      },
      dynamicVariableNames: (reserved) => {
        const skip = new Set<string>([...reserved, ...COMMON_ATTRIBUTES]);
        return Object.keys(node.ctx.attributes).filter((key) => !skip.has(key) && node.ctx.attributes[key] !== undefined);
      },
      bind: (value) => this.bind(value),
      literal,
      local: () => this.local(),
      sync: (expression) => `rt.sync(${expression})`,
    };
    return generate(context);
  }

  /** An expression for an attribute value, as CompileContext.valueAt compiles it. */
  private value(node: CompiledNode, value: unknown, tokens: (string | number)[]): string {
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return literal(value);
    if (typeof value === 'string') {
      if (!needsTemplate(value)) return literal(value);
      const template = node.ctx.template(value, node.ctx.at(...tokens));
      if (template.isConstant) return literal(value);
    } else if (isTransformNode(value)) {
      return `${this.node(pointerJoin(node.ctx.pointer, 'attributes', ...tokens))}(input, ev)`;
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

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => (line.length > 0 ? pad + line : line))
    .join('\n');
}
