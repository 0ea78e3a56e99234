// Coded errors and resource limits of the filter languages (STYLE.md practice 4 and 7):
// syntax errors carry the character position and a caret excerpt of the offending input.

import { TransformsError, type CodedErrorOptions } from '../errors/index.js';

/** How far either side of the error position the caret excerpt reaches. */
const EXCERPT_RADIUS = 40;

/**
 * One line of input around `position` with a caret line under it. Newlines and tabs are
 * shown as spaces so that the caret column stays right.
 */
export function caretExcerpt(text: string, position: number): string {
  const pos = Math.max(0, Math.min(position, text.length));
  const from = Math.max(0, pos - EXCERPT_RADIUS);
  const to = Math.min(text.length, pos + EXCERPT_RADIUS);
  const head = from > 0 ? '…' : '';
  const tail = to < text.length ? '…' : '';
  const line = head + text.slice(from, to).replace(/[\r\n\t]/g, ' ') + tail;
  return `${line}\n${' '.repeat(head.length + pos - from)}^`;
}

/** A filter that does not parse: code FILTER_SYNTAX, details `{ position, excerpt }`. */
export class FilterSyntaxError extends TransformsError {
  readonly position: number;
  readonly excerpt: string;

  constructor(message: string, text: string, position: number, options: Omit<CodedErrorOptions, 'details'> = {}) {
    const excerpt = caretExcerpt(text, position);
    super('FILTER_SYNTAX', `${message} at position ${position}\n${excerpt}`, {
      ...options,
      details: { position, excerpt },
    });
    this.name = 'FilterSyntaxError';
    this.position = position;
    this.excerpt = excerpt;
  }
}

/**
 * A filter that parses but cannot be used here: FILTER_UNSUPPORTED, FILTER_FIELD,
 * FILTER_OPERATOR or FILTER_VALUE. `details` names the property and the node's range.
 */
export class FilterUnsupportedError extends TransformsError {
  constructor(
    code: 'FILTER_UNSUPPORTED' | 'FILTER_FIELD' | 'FILTER_OPERATOR' | 'FILTER_VALUE',
    message: string,
    details: { property?: string; operator?: string; start: number; end: number },
  ) {
    super(code, message, { details });
    this.name = 'FilterUnsupportedError';
  }
}

/** Resource limits of one parse; all are validated positive integers. */
export interface FilterLimits {
  /** Maximum filter length in characters. */
  maxLength?: number;
  /** Maximum number of AST nodes. */
  maxNodes?: number;
  /** Maximum nesting depth of parentheses, `!`/`not` and composites. */
  maxDepth?: number;
}

export const DEFAULT_FILTER_LIMITS: Readonly<Required<FilterLimits>> = Object.freeze({
  maxLength: 10_000,
  maxNodes: 1_000,
  maxDepth: 64,
});

/** Validate, default and freeze parse limits; an unknown key is an error, never ignored. */
export function resolveLimits(options: FilterLimits | undefined): Readonly<Required<FilterLimits>> {
  if (options === undefined) return DEFAULT_FILTER_LIMITS;
  if (options === null || typeof options !== 'object') {
    throw new TransformsError('FILTER_OPTION_INVALID', 'filter limits must be an object');
  }
  const out: Required<FilterLimits> = { ...DEFAULT_FILTER_LIMITS };
  for (const [key, value] of Object.entries(options)) {
    if (!(key in DEFAULT_FILTER_LIMITS)) {
      throw new TransformsError('FILTER_OPTION_INVALID', `unknown filter limit '${key}'`, { details: { option: key } });
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new TransformsError('FILTER_OPTION_INVALID', `filter limit '${key}' must be a positive integer`, {
        details: { option: key },
      });
    }
    out[key as keyof FilterLimits] = value;
  }
  return Object.freeze(out);
}

/** FILTER_LIMIT with the position where the limit was crossed. */
export function limitError(message: string, limit: string, position: number): TransformsError {
  return new TransformsError('FILTER_LIMIT', message, { details: { limit, position } });
}

/**
 * The entry checks both parsers share: limits resolved, a string of allowed length, and a
 * stack overflow (only possible with a caller-raised maxDepth) turned into FILTER_LIMIT.
 */
export function parseWithLimits<T>(text: string, options: FilterLimits | undefined, parse: (text: string, limits: Readonly<Required<FilterLimits>>) => T): T {
  const limits = resolveLimits(options);
  if (typeof text !== 'string') throw new FilterSyntaxError('the filter must be a string', '', 0);
  if (text.length > limits.maxLength) {
    throw limitError(`the filter is ${text.length} characters long, over the limit of ${limits.maxLength}`, 'maxLength', limits.maxLength);
  }
  try {
    return parse(text, limits);
  } catch (err) {
    if (err instanceof RangeError) throw limitError('the filter nests too deeply for the parser', 'maxDepth', 0);
    throw err;
  }
}
