// Explaining an evaluation (engine.explain, `evaluate --explain`): the tree of transform nodes
// an evaluation ran, each with its type, JSON Pointer, input and value or coded error, and the
// decisions that produced it (accountAttribute's candidate accounts, lookup's key, …).
//
// Tracing costs nothing when not asked for: a transform is compiled a second time, by a host
// that says `trace`, into closures that record; the ordinary closures never look for a trace.
// An explained evaluation runs with a host of its own (engine.ts), through which a reference
// resolves to its transform compiled traced: the ordinary path reads no flag. The recorder lives
// in the evaluation's memo under a key no operation uses. bench/tracing.ts measures the refresh
// before tracing existed and after (docs/bench-tracing.md).

import { isPromise, type MaybePromise } from '../providers/maybe.js';
import type { Evaluation, Evaluator, Value } from './types.js';

/** One node of an explained evaluation. */
export interface TraceNode {
  type: string;
  /** JSON Pointer of the node in its transform document. */
  pointer: string;
  /** The referenced transform whose document `pointer` points into, when not the explained one. */
  transform?: string;
  input: Value;
  value?: Value;
  error?: { code: string; message: string; path?: string };
  /** What the operation decided, in its own terms. */
  decisions?: Record<string, unknown>;
  children: TraceNode[];
}

export const TRACE_KEY = '\u0000trace';

export class TraceRecorder {
  readonly roots: TraceNode[] = [];
  private readonly stack: TraceNode[] = [];
  /** Set when a provider answered asynchronously: the tree would not be reliable. */
  asynchronous = false;

  open(type: string, pointer: string, input: Value, transform: string | undefined): TraceNode {
    const node: TraceNode = { type, pointer, ...(transform !== undefined ? { transform } : {}), input, children: [] };
    const parent = this.stack[this.stack.length - 1];
    (parent ? parent.children : this.roots).push(node);
    this.stack.push(node);
    return node;
  }

  close(node: TraceNode): void {
    const i = this.stack.lastIndexOf(node);
    if (i >= 0) this.stack.length = i;
  }

  /** Attach decisions to the node being evaluated. */
  decide(decisions: Record<string, unknown>): void {
    const node = this.stack[this.stack.length - 1];
    if (node) node.decisions = { ...(node.decisions ?? {}), ...decisions };
  }
}

/** The recorder of a traced evaluation, or undefined. Only traced closures call it. */
export function recorderOf(ev: Evaluation): TraceRecorder | undefined {
  return ev.memo.get(TRACE_KEY) as TraceRecorder | undefined;
}

/** Record decisions for the node being evaluated, when the evaluation is traced. */
export function decide(ev: Evaluation, decisions: Record<string, unknown>): void {
  recorderOf(ev)?.decide(decisions);
}

function errorOf(error: unknown): TraceNode['error'] {
  const e = error as { code?: unknown; message?: unknown; path?: unknown };
  return {
    code: typeof e?.code === 'string' ? e.code : 'EVAL_INTERNAL',
    message: typeof e?.message === 'string' ? e.message : String(error),
    ...(typeof e?.path === 'string' ? { path: e.path } : {}),
  };
}

/** A node's closure that records itself (compiled only by a tracing host). */
export function traceNode(inner: Evaluator, type: string, pointer: string): Evaluator {
  return (input, ev) => {
    const recorder = recorderOf(ev);
    if (!recorder) return inner(input, ev);
    const stack = ev.referenceStack;
    const node = recorder.open(type, pointer, input, stack.length > 0 ? stack[stack.length - 1] : undefined);
    let out: MaybePromise<Value>;
    try {
      out = inner(input, ev);
    } catch (error) {
      node.error = errorOf(error);
      recorder.close(node);
      throw error;
    }
    if (isPromise<Value>(out)) {
      recorder.asynchronous = true;
      recorder.close(node);
      return out.then(
        (value) => {
          node.value = value;
          return value;
        },
        (error: unknown) => {
          node.error = errorOf(error);
          throw error;
        },
      );
    }
    node.value = out;
    recorder.close(node);
    return out;
  };
}
