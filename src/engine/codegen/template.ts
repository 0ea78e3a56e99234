// Velocity templates of the commonest shape compiled to JavaScript statements for the generated
// code of `static` (operations/static.ts): text, `$name` / `${name}` references to the
// transform's dynamic variables, and #if / #elseif / #else blocks whose conditions compare such
// a reference with a single-quoted string literal by `==` or `!=`. The statements run only when
// every variable the template names is present (not null; "" is a value): each is then a Java
// string, so a reference renders as itself and `==` is String.equals (runtime/velocity/values.ts
// velocityEquals on two strings), exactly what the general renderer gives. When a variable is
// absent (the general renderer prints the reference's text, or reports it with strict
// references), or the output is longer than maxStringLength (a limit error), the generated code
// calls the general renderer instead. Any other node (a method call, a property, `$!`, #set,
// #foreach, a double-quoted string, text with a line break, where Velocity's whitespace rules
// apply) leaves the template to the general renderer, and so does a template longer than
// MAX_INLINED_LENGTH: its statements would make the generated function as long as the template
// (500 mappings of 2 KB templates took V8 seconds to compile), for no gain over the renderer.

import { parseTemplate, type Node } from '../../runtime/velocity/parse.js';

/** The longest template compiled into the generated code (real templates are far shorter). */
const MAX_INLINED_LENGTH = 1_000;
import { literal } from './generator.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REFERENCE_KEYS = new Set(['type', 'id', 'leader', 'prue', 'pos', 'isWraped']);

type Ast = { type: string; [key: string]: unknown };

/**
 * Statements appending the template's output to `out`, given the expression of each variable's
 * string (`strings[i]` for `names[i]`); undefined when the template is not of that shape.
 */
export function simpleTemplate(source: string, names: readonly string[], strings: readonly string[], out: string): string | undefined {
  if (source.length > MAX_INLINED_LENGTH) return undefined;
  let nodes: Node[];
  try {
    nodes = parseTemplate(source);
  } catch {
    return undefined;
  }
  const variable = (ast: unknown): string | undefined => {
    if (typeof ast !== 'object' || ast === null || Array.isArray(ast)) return undefined;
    const a = ast as Ast;
    if (a.type !== 'references' || a.leader !== '$') return undefined;
    for (const key of Object.keys(a)) if (!REFERENCE_KEYS.has(key)) return undefined;
    if (typeof a.id !== 'string' || !NAME.test(a.id)) return undefined;
    const i = names.indexOf(a.id);
    return i < 0 ? undefined : strings[i];
  };
  const condition = (ast: unknown): string | undefined => {
    const a = ast as Ast | undefined;
    if (a?.type !== 'math' || (a.operator !== '==' && a.operator !== '!=') || !Array.isArray(a.expression) || a.expression.length !== 2) return undefined;
    const [x, y] = a.expression as unknown[];
    const text = (e: unknown): string | undefined => {
      const s = e as Ast;
      if (s?.type !== 'string' || typeof s.value !== 'string') return undefined;
      // A double-quoted literal is interpolated (isEval): only single-quoted ones are taken.
      for (const key of Object.keys(s)) if (key !== 'type' && key !== 'value') return undefined;
      return literal(s.value);
    };
    const left = variable(x) ?? text(x);
    const right = variable(y) ?? text(y);
    if (left === undefined || right === undefined) return undefined;
    return `${left} ${a.operator === '==' ? '===' : '!=='} ${right}`;
  };
  const block = (list: readonly Node[]): string | undefined => {
    let code = '';
    for (const node of list) {
      if (typeof node === 'string') {
        if (/[\r\n\u0000]/.test(node)) return undefined;
        code += `${out} += ${literal(node)};\n`;
      } else if (Array.isArray(node)) {
        const head = node[0] as Ast | undefined;
        if (typeof head !== 'object' || head === null || Array.isArray(head) || head.type !== 'if') return undefined;
        const first = condition(head.condition);
        if (first === undefined) return undefined;
        let branch: Node[] = [];
        let code2 = `if (${first}) {\n`;
        let hasElse = false;
        for (const inner of node.slice(1)) {
          const a = inner as Ast;
          if (typeof inner === 'object' && !Array.isArray(inner) && (a.type === 'elseif' || a.type === 'else')) {
            if (hasElse) return undefined;
            const body = block(branch);
            if (body === undefined) return undefined;
            branch = [];
            if (a.type === 'else') {
              hasElse = true;
              code2 += `${body}} else {\n`;
            } else {
              const c = condition(a.condition);
              if (c === undefined) return undefined;
              code2 += `${body}} else if (${c}) {\n`;
            }
          } else {
            branch.push(inner);
          }
        }
        const last = block(branch);
        if (last === undefined) return undefined;
        code += `${code2}${last}}\n`;
      } else {
        const ref = variable(node);
        if (ref === undefined) {
          // Escaped text (`\$x`, `#[[…]]#`) renders as its value.
          const a = node as Ast;
          // (A raw node holding the pre-lexer's marker, U+0000, renders nothing: left to the general renderer.)
          if (a.type === 'raw' && typeof a.value === 'string' && !/[\r\n\u0000]/.test(a.value)) code += `${out} += ${literal(a.value)};\n`;
          else return undefined;
        } else {
          if ((node as Ast).prue !== true) return undefined;
          code += `${out} += ${ref};\n`;
        }
      }
    }
    return code;
  };
  return block(nodes);
}
