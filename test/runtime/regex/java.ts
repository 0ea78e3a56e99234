// What the regex tests call: Java's String.replaceAll over our runtime, and the coded error a
// call raises.

import { expect } from 'vitest';
import { compileJavaRegex, compileJavaReplacement } from '../../../src/runtime/regex/index.js';
import { TransformsError } from '../../../src/errors/index.js';

/** `input.replaceAll(regex, replacement)` as Java computes it. */
export const replaceAll = (regex: string, input: string, replacement = 'X'): string =>
  compileJavaRegex(regex).replaceAll(input, compileJavaReplacement(replacement));

/** The code and details of the TransformsError `f` throws (the test fails if it throws none). */
export function codeOf(f: () => unknown): { code: string; details: Record<string, unknown> | undefined } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TransformsError);
    return { code: (e as TransformsError).code, details: (e as TransformsError).details };
  }
  throw new Error('expected a TransformsError');
}
