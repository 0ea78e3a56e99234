// Number literals in directive and method arguments that velocityjs's grammar cannot read the
// way Velocity 1.7 does, rewritten by ./escapes.ts into text that means the same value.

/**
 * Velocity's floating-point literals may have an exponent (`1e3`, `2.5E-3`: a Double, `1000.0`);
 * velocityjs's grammar has none, so inside directive and method arguments such a literal is
 * written out as the plain decimal of the same double (Double.parseDouble and Number read both
 * alike). Columns after it are mapped back like those after an escape.
 */
export const EXPONENT_LITERAL = /^(?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+(?![\w.])/;
export const EXPONENT_ANYWHERE = /[\d.][eE][+-]?\d/;
/** 1.7's floating-point literals without digits on one side of the point (`.5`, `5.`): velocityjs reads neither. */
const POINT_LITERAL = /^(?:\.\d+|\d+\.)(?![\w.])/;
export const POINT_LITERAL_ANYWHERE = /(?:^|[^\w.$])(?:\.\d|\d+\.(?![\w.]))/;

/**
 * A number literal at `at` (a directive's or a call's arguments) that velocityjs cannot read
 * (`1e3`, `.5`, `5.`), as the plain decimal of the same Double, and the index after it; undefined
 * for any other text, or a literal that continues a word, a number or a reference (what was
 * rewritten before it ends with `before`).
 */
export function decimalLiteralAt(source: string, at: number, before: string): { text: string; next: number } | undefined {
  if (/[\w.$]/.test(before.slice(-1) || ' ')) return undefined;
  const tail = source.slice(at, at + 400);
  const m = EXPONENT_LITERAL.exec(tail) ?? POINT_LITERAL.exec(tail);
  return m ? { text: plainDecimal(m[0]), next: at + m[0].length } : undefined;
}
export const LONG_NEGATIVE_ANYWHERE = /-\d{16}/;

/**
 * velocityjs reads a negative integer literal into a JavaScript number, which loses digits
 * beyond 2^53 (`-9223372036854775808`). Such a literal is written `(-1 - 9223372036854775807)`,
 * which Velocity's MathUtils computes exactly and in the literal's own class (Long, or BigInteger
 * beyond Long's range); positive literals reach us as text.
 */
export const NEGATIVE_INTEGER = /^-(\d+)(?![\w.])/;
export const UNARY_BEFORE = /(?:^|[(,=+\-*/%<>!&|])\s*$/;
/** A list literal takes literals only (no parenthesised expression): there the literal stays as it is. */
export const INSIDE_LIST = /\[[^\]()]*$/;

export function negativeLiteral(digits: string): string {
  return `(-1 - ${(BigInt(digits) - 1n).toString()})`;
}

export function plainDecimal(literal: string): string {
  const value = Number(literal);
  if (!Number.isFinite(value)) return literal;
  const [mantissa, exp = '0'] = String(value).split('e') as [string, string?];
  const [whole, fraction = ''] = mantissa.split('.') as [string, string?];
  const digits = whole + fraction;
  const point = whole.length + Number(exp);
  let text: string;
  if (point <= 0) text = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) text = `${digits}${'0'.repeat(point - digits.length)}.0`;
  else text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return text;
}
