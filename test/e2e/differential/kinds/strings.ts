// java.lang.String methods and Commons Lang StringUtils pads, two ways: as a template calls
// them (`$s.substring(1, 3)` rendered by Velocity 1.7 in Java and by our renderer — argument
// strings passed as variables, ints as literals), and as the string operations call them
// (src/runtime/java-string.ts, against the method invoked directly in Java). Inputs carry
// surrogate pairs, combining marks and special casing (ß, İ, final sigma); indexes run one past
// each end, so StringIndexOutOfBoundsException is compared as well.

import fc from 'fast-check';
import { compileJavaRegex } from '../../../../src/runtime/regex/index.js';
import { compileTemplate } from '../../../../src/runtime/velocity/index.js';
import {
  javaIndexOf, javaLastIndexOf, javaLowerCase, javaSubstring, javaTrim, javaUpperCase, leftPad, rightPad,
} from '../../../../src/runtime/java-string.js';
import { capture, type Kind } from '../harness.js';
import { needle, text } from './text.js';

type Arg = { kind: 'int'; value: number } | { kind: 'str'; value: string };

export interface StringCase {
  route: 'template' | 'operation';
  input: string;
  method: string;
  args: Arg[];
}

/** Method name → argument shapes ('i' int, 's' string). */
const TEMPLATE_METHODS: ReadonlyArray<[string, string]> = [
  ['length', ''], ['isEmpty', ''], ['isBlank', ''], ['charAt', 'i'], ['codePointAt', 'i'], ['substring', 'i'], ['substring', 'ii'],
  ['indexOf', 's'], ['indexOf', 'si'], ['lastIndexOf', 's'], ['lastIndexOf', 'si'], ['contains', 's'], ['startsWith', 's'],
  ['startsWith', 'si'], ['endsWith', 's'], ['equals', 's'], ['equalsIgnoreCase', 's'], ['compareTo', 's'], ['compareToIgnoreCase', 's'],
  ['toUpperCase', ''], ['toLowerCase', ''], ['trim', ''], ['strip', ''], ['concat', 's'], ['replace', 'ss'], ['repeat', 'i'],
  ['hashCode', ''], ['toString', ''],
];
const OPERATIONS: ReadonlyArray<[string, string]> = [
  ['trim', ''], ['substring', 'i'], ['substring', 'ii'], ['indexOf', 's'], ['lastIndexOf', 's'], ['toUpperCase', ''], ['toLowerCase', ''],
  ['leftPad', 'i'], ['leftPad', 'is'], ['rightPad', 'i'], ['rightPad', 'is'],
];

function argsFor(input: string, shape: string): fc.Arbitrary<Arg[]> {
  return fc.tuple(
    ...[...shape].map((k): fc.Arbitrary<Arg> =>
      k === 'i'
        ? fc.integer({ min: -1, max: input.length + 2 }).map((value) => ({ kind: 'int', value }))
        : needle(input).map((value) => ({ kind: 'str', value })),
    ),
  );
}

const stringCase: fc.Arbitrary<StringCase> = fc
  .tuple(fc.constantFrom<'template' | 'operation'>('template', 'template', 'operation'), text)
  .chain(([route, input]) =>
    fc.constantFrom(...(route === 'template' ? TEMPLATE_METHODS : OPERATIONS)).chain(([method, shape]) =>
      argsFor(input, method === 'repeat' ? 'i' : shape).map((args) => ({
        route,
        input,
        method,
        args: method === 'repeat' ? args.map((a) => ({ kind: 'int' as const, value: Math.min(3, Number(a.value)) })) : args,
      })),
    ),
  );

/** `$s.method(…)`: string arguments as variables $a0, $a1 (Velocity 1.7 has no escape for quotes in literals). */
function template(c: StringCase): { source: string; vars: Record<string, string> } {
  const vars: Record<string, string> = { s: c.input };
  const args = c.args.map((a, i) => {
    if (a.kind === 'int') return String(a.value);
    vars[`a${i}`] = a.value;
    return `$a${i}`;
  });
  return { source: `$s.${c.method}(${args.join(', ')})`, vars };
}

const options = { maxLength: 10_000, regex: compileJavaRegex };

function operation(c: StringCase): string {
  const [a, b] = c.args.map((x) => x.value);
  switch (c.method) {
    case 'trim': return javaTrim(c.input);
    case 'substring': return javaSubstring(c.input, a as number, b as number | undefined);
    case 'indexOf': return String(javaIndexOf(c.input, a as string));
    case 'lastIndexOf': return String(javaLastIndexOf(c.input, a as string));
    case 'toUpperCase': return javaUpperCase(c.input);
    case 'toLowerCase': return javaLowerCase(c.input);
    case 'leftPad': return leftPad(c.input, a as number, b as string | undefined)!;
    case 'rightPad': return rightPad(c.input, a as number, b as string | undefined)!;
    default: throw new Error(`no operation ${c.method}`);
  }
}

export const stringKind: Kind<StringCase> = {
  name: 'string methods',
  arbitrary: stringCase,
  java: (oracle, c) => {
    if (c.route === 'template') {
      const { source, vars } = template(c);
      return oracle.ask('velocity', { template: source, vars });
    }
    return oracle.ask('string', { input: c.input, method: c.method, args: c.args.map((a) => a.value) });
  },
  ours: (c) =>
    capture(() => {
      if (c.route === 'operation') return operation(c);
      const { source, vars } = template(c);
      return compileTemplate(source, options).render(vars, { identity: null });
    }),
  sameError: (javaClass, javaCause, ours) => {
    if (ours.error === 'EVAL_INDEX_OUT_OF_BOUNDS') return javaClass === 'java.lang.StringIndexOutOfBoundsException';
    if (ours.error !== 'TEMPLATE_RENDER') return false;
    // A Java exception inside the method: the same class on both sides.
    return javaClass === 'org.apache.velocity.exception.MethodInvocationException' && javaCause === ours.cause;
  },
  unitTest: (c, java) => {
    if (c.route === 'operation') return `// ${c.method}(${JSON.stringify(c.input)}, ${c.args.map((a) => JSON.stringify(a.value)).join(', ')}) — Java: ${JSON.stringify(java)}`;
    const { source, vars } = template(c);
    return 'ok' in java
      ? `expect(render(${JSON.stringify(source)}, ${JSON.stringify(vars)})).toBe(${JSON.stringify(java.ok)});`
      : `// Java: ${JSON.stringify(java)}\nexpect(() => render(${JSON.stringify(source)}, ${JSON.stringify(vars)})).toThrow();`;
  },
};
