// Numbers: Velocity arithmetic (`#set($r = …)$r`, rendered by Velocity 1.7 in Java and by our
// renderer) over Integer, Long, BigInteger and Double operands — integer division, remainder
// signs, widening on overflow, division by zero, scientific literals — and Double.toString of
// any double (`11.0`, `1.0E10`, `1.0E-4`, subnormals).

import fc from 'fast-check';
import { compileJavaRegex } from '../../../../src/runtime/regex/index.js';
import { compileTemplate } from '../../../../src/runtime/velocity/index.js';
import { javaDoubleToString } from '../../../../src/runtime/velocity/values.js';
import { capture, type Kind } from '../harness.js';
import type { JavaOutcome } from '../oracle.js';

const intLiteral = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: -20, max: 100 }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom('2147483647', '2147483646', '-2147483648', '46341', '65536', '9223372036854775807', '-9223372036854775808', '4294967296', '99999999999999999999', '0') },
);
const decimalLiteral = fc.oneof(
  fc.constantFrom('1.5', '0.1', '0.2', '2.0', '-0.5', '3.14159', '100.0', '1e3', '1.5E-3', '2.5e10', '1E0', '0.0', '-0.0', '1.0e-7', '12345678.9'),
  fc.tuple(fc.integer({ min: -999, max: 999 }), fc.integer({ min: 0, max: 999 })).map(([a, b]) => `${a}.${b}`),
);
const variable = fc.constantFrom('$i', '$j', '$l', '$d', '$z');
const VARS = { i: 7, j: -3, l: 4_000_000_000, d: 2.5, z: 0 };

const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string; term: string }>((tie) => ({
  term: fc.oneof(
    { depthSize: 'small' },
    { weight: 4, arbitrary: intLiteral },
    { weight: 2, arbitrary: decimalLiteral },
    { weight: 2, arbitrary: variable },
    { weight: 1, arbitrary: tie('expr').map((e) => `(${e})`) },
  ),
  expr: fc
    .tuple(tie('term'), fc.array(fc.tuple(fc.constantFrom(' + ', ' - ', ' * ', ' / ', ' % ', '+', '*'), tie('term')), { maxLength: 2 }))
    .map(([first, rest]) => first + rest.map(([op, t]) => op + t).join('')),
})).expr;

export interface ArithmeticCase {
  expression: string;
}

const options = { maxLength: 10_000, regex: compileJavaRegex };
const templateOf = (c: ArithmeticCase): string => `#set($r = ${c.expression})$r`;

export const arithmeticKind: Kind<ArithmeticCase> = {
  name: 'arithmetic',
  arbitrary: expression.map((e) => ({ expression: e })),
  java: (oracle, c) => oracle.ask('velocity', { template: templateOf(c), vars: VARS }),
  ours: (c) => capture(() => compileTemplate(templateOf(c), options).render(VARS, { identity: null })),
  sameError: (javaClass, _cause, ours) =>
    javaClass === 'org.apache.velocity.exception.ParseErrorException' ? ours.error === 'TEMPLATE_SYNTAX' : ours.error === 'TEMPLATE_RENDER',
  known: (c, java, ours) => bigDecimal(c, java) ?? ('ok' in ours && /E|\./.test(ours.ok) ? sameDouble(java, Number(ours.ok)) : undefined),
  unitTest: (c, java) =>
    'ok' in java
      ? `expect(render(${JSON.stringify(templateOf(c))}, ${JSON.stringify(VARS)})).toBe(${JSON.stringify(java.ok)});`
      : `// Java: ${JSON.stringify(java)}\nexpect(() => render(${JSON.stringify(templateOf(c))}, ${JSON.stringify(VARS)})).toThrow();`,
};

/**
 * JDK 19 changed Double.toString to the shortest decimal that reads back as the same double
 * (JDK-4511638); JDK 17, the oracle, sometimes prints more digits (2.52302529406876512E17,
 * 9.999999999999999E22 for 1.0E23, 4.9E-324). We print what JDK 19+ prints (docs/decisions.md
 * X10): a known difference exactly when Java's text reads back as the same double.
 */
function sameDouble(java: JavaOutcome, value: number): string | undefined {
  return 'ok' in java && Number(java.ok) === value ? 'X10' : undefined;
}

/**
 * Velocity's MathUtils computes a BigInteger (an integer beyond Long's range, or the result of
 * one, even when it fits a Long) with a Double in java.math.BigDecimal (exact binary expansion of
 * the double; `%` throws), and `%` with BigInteger.mod (a negative modulus throws); our runtime
 * keeps such values exact but not their class (docs/decisions.md, V20). Explains a case whose
 * expression has an integer that is, or can grow, beyond Long's range, and a decimal or a Java
 * ArithmeticException.
 */
function bigDecimal(c: ArithmeticCase, java: JavaOutcome): string | undefined {
  const decimal = /\d\.\d|\d[eE]|\$d/.test(c.expression);
  const huge = /\d{19}|4294967296|\$l|2147483647|46341|65536/.test(c.expression);
  if (!huge) return undefined;
  return decimal || 'error' in java ? 'V20' : undefined;
}

export interface DoubleCase {
  value: number;
}

const interesting = fc.constantFrom(
  0, -0, 1, 11, 0.1, 1e7, 9999999.999, 1e-3, 0.00099999, 1e21, 1e-7, 123456789012, 2 ** 53, 5e-324, 1.7976931348623157e308,
  2.2250738585072014e-308, 4.9e-324, 1 / 3, 2 / 3, 100, 1e16, 1.0e23, 8.41e21, 2e-3, 9.999999999999999e22,
);

export const doubleKind: Kind<DoubleCase> = {
  name: 'double toString',
  arbitrary: fc
    .oneof(
      { weight: 3, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
      { weight: 2, arbitrary: fc.integer({ min: -1e9, max: 1e9 }).chain((n) => fc.integer({ min: -12, max: 12 }).map((e) => n * 10 ** e)) },
      { weight: 1, arbitrary: interesting },
    )
    .filter((v) => Number.isFinite(v))
    .map((value) => ({ value })),
  // As text: JSON would turn -0 into 0.
  java: (oracle, c) => oracle.ask('double', { value: Object.is(c.value, -0) ? '-0.0' : String(c.value) }),
  ours: (c) => capture(() => javaDoubleToString(c.value)),
  sameError: () => false,
  known: (c, java) => sameDouble(java, c.value),
  unitTest: (c, java) => `expect(javaDoubleToString(${Object.is(c.value, -0) ? '-0' : String(c.value)})).toBe(${JSON.stringify('ok' in java ? java.ok : java)});`,
};
