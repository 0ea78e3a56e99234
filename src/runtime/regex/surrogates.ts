// Lone surrogates in Java strings, matched over RE2 (Java regex semantics,
// https://developer.sailpoint.com/docs/extensibility/transforms/operations/replace). A Java String
// may hold half of a surrogate pair, which java.util.regex matches as one char; RE2 reads UTF-8,
// where it would become U+FFFD. Such an input is matched with each lone surrogate U+D800+k moved
// to the private-use character U+E000+k — one UTF-16 unit too, so every index holds — when the
// pattern cannot tell the two apart (docs/decisions.md X9).

import { codedError } from '../../errors/index.js';

/** U+D800–U+DFFF are matched as U+E000–U+E7FF. */
const SHIFT = 0x800;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SHIFTED = /[\uE000-\uE7FF]/g;

/** Whether a string holds a UTF-16 unit that is half of no surrogate pair. */
export function hasLoneSurrogate(s: string): boolean {
  // String.prototype.isWellFormed (ES2024, Node 20): one native scan for the common case.
  if ((s as unknown as { isWellFormed(): boolean }).isWellFormed()) return false;
  LONE_SURROGATE.lastIndex = 0;
  return LONE_SURROGATE.test(s);
}

/**
 * Whether RE2 text treats U+D800+k and U+E000+k alike: no property naming the surrogate or
 * private-use category, and no literal or range end inside U+D800–U+E7FF (a range around both
 * blocks, `[^a]`, `.` or `\P{L}` see no difference).
 */
export function surrogateBlind(re2: string): boolean {
  if (/\\[pP]\{\^?(?:C[os]|Private_Use|Surrogate)\}/.test(re2)) return false;
  const inside = (cp: number): boolean => cp >= 0xd800 && cp < 0xd800 + 2 * SHIFT;
  for (const m of re2.matchAll(/\\x\{([0-9A-F]+)\}(?:-\\x\{([0-9A-F]+)\})?/g)) {
    const lo = parseInt(m[1]!, 16);
    const hi = m[2] === undefined ? lo : parseInt(m[2], 16);
    if (inside(lo) || inside(hi)) return false;
  }
  return true;
}

/**
 * The string RE2 is given for `input`: the input itself, or, when it holds lone surrogates, the
 * input with them moved to U+E000–U+E7FF. Refused (REGEX_UNSUPPORTED, `details.input` the
 * surrogate's offset) when the pattern is not `blind` to the move or the input already holds
 * one of those private-use characters.
 */
export function matchSubject(input: string, blind: boolean, source: string): string {
  if (!hasLoneSurrogate(input)) return input;
  SHIFTED.lastIndex = 0;
  const clash = SHIFTED.exec(input);
  if (!blind || clash) {
    LONE_SURROGATE.lastIndex = 0;
    const at = LONE_SURROGATE.exec(input)!.index;
    const why = clash
      ? `and the private-use character U+${input.charCodeAt(clash.index).toString(16).toUpperCase()}`
      : `and regex ${JSON.stringify(source)} tells surrogates or private-use characters apart`;
    throw codedError('REGEX_UNSUPPORTED', `The input has a lone surrogate \\u${input.charCodeAt(at).toString(16).toUpperCase()} at ${at} ${why}: RE2 cannot match it as Java does`, {
      details: { index: 0, input: at },
    });
  }
  return input.replace(LONE_SURROGATE, (c) => String.fromCharCode(c.charCodeAt(0) + SHIFT));
}

/** Text matched in a subject made by `matchSubject`, as it stands in the input. */
export function fromSubject(text: string): string {
  return text.replace(SHIFTED, (c) => String.fromCharCode(c.charCodeAt(0) - SHIFT));
}
