// Coded errors and resource limits of the query languages in src/filter/ (both filter languages and
// the search query language): syntax and limit errors carry the character position and a caret
// excerpt of the offending input.

import { TransformsError, type CodedErrorOptions } from '../errors/index.js';
import { terminalText } from '../errors/terminal.js';
import type { SourceRange } from './ast.js';

/** How far either side of the error position the caret excerpt reaches. */
const EXCERPT_RADIUS = 40;

/**
 * One line of input around `position` with a caret line under it. Newlines and tabs are
 * shown as spaces, other controls (an escape sequence) as their JSON escapes (errors/terminal.ts),
 * the caret moved past what they add so that it stays under the same character.
 */
export function caretExcerpt(text: string, position: number): string {
  const pos = Math.max(0, Math.min(position, text.length));
  const from = Math.max(0, pos - EXCERPT_RADIUS);
  const to = Math.min(text.length, pos + EXCERPT_RADIUS);
  const head = from > 0 ? '…' : '';
  const tail = to < text.length ? '…' : '';
  const shown = (part: string) => terminalText(part.replace(/[\r\n\t]/g, ' '));
  const before = head + shown(text.slice(from, pos));
  return `${before}${shown(text.slice(pos, to))}${tail}\n${' '.repeat(before.length)}^`;
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
  /**
   * Maximum number of comparisons (`eq`, `in`, `pr`, …) of a collection `filters` value, as the
   * search endpoint bounds its terms: each becomes a term of the SQL WHERE clause, whose `or`
   * chains SQLite nests one level per term (past about 1,000 it refuses the statement).
   */
  maxTerms?: number;
}

export const DEFAULT_FILTER_LIMITS: Readonly<Required<FilterLimits>> = Object.freeze({
  maxLength: 10_000,
  maxNodes: 1_000,
  maxDepth: 64,
  maxTerms: 128,
});

/** Validate, default and freeze parse limits; an unknown key is an error, never ignored. */
export function resolveLimits(options: FilterLimits | undefined): Readonly<Required<FilterLimits>>;
export function resolveLimits<L extends Required<FilterLimits>>(options: Partial<L> | undefined, defaults: Readonly<L>): Readonly<L>;
export function resolveLimits(options: object | undefined, defaults: Readonly<Record<string, number>> = DEFAULT_FILTER_LIMITS): Readonly<Record<string, number>> {
  if (options === undefined) return defaults;
  if (options === null || typeof options !== 'object') {
    throw new TransformsError('FILTER_OPTION_INVALID', 'filter limits must be an object');
  }
  const out: Record<string, number> = { ...defaults };
  for (const [key, value] of Object.entries(options)) {
    if (!Object.prototype.hasOwnProperty.call(defaults, key)) {
      throw new TransformsError('FILTER_OPTION_INVALID', `unknown filter limit '${key}'`, { details: { option: key } });
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new TransformsError('FILTER_OPTION_INVALID', `filter limit '${key}' must be a positive integer`, {
        details: { option: key },
      });
    }
    out[key] = value;
  }
  return Object.freeze(out);
}

/**
 * FILTER_LIMIT with the limit's name and the position where it was crossed. Given the input
 * `text`, the message and details carry a caret excerpt too (as syntax errors do), and `causes`
 * lists the message for the platform's error body.
 */
export function limitError(message: string, limit: string, position: number, text?: string): TransformsError {
  if (text === undefined) return new TransformsError('FILTER_LIMIT', message, { details: { limit, position } });
  const excerpt = caretExcerpt(text, position);
  return new TransformsError('FILTER_LIMIT', `${message} at position ${position}\n${excerpt}`, { details: { limit, position, excerpt, causes: [message] } });
}

/** What parseWithLimits needs to know about a language beyond the common limits. */
export interface LanguageLimits<L extends Required<FilterLimits>> {
  /** The language's default limits (the keys it accepts). */
  readonly defaults: Readonly<L>;
  /** What the language's input is called in messages: "filter" or "query". */
  readonly noun: string;
}

const FILTER_LANGUAGE: LanguageLimits<Required<FilterLimits>> = { defaults: DEFAULT_FILTER_LIMITS, noun: 'filter' };

/**
 * The entry checks every parser shares: limits resolved, a string of allowed length, and a
 * stack overflow (only possible with a caller-raised maxDepth) turned into FILTER_LIMIT.
 */
export function parseWithLimits<T>(text: string, options: FilterLimits | undefined, parse: (text: string, limits: Readonly<Required<FilterLimits>>) => T): T;
export function parseWithLimits<T, L extends Required<FilterLimits>>(text: string, options: Partial<L> | undefined, parse: (text: string, limits: Readonly<L>) => T, language: LanguageLimits<L>): T;
export function parseWithLimits<T>(
  text: string,
  options: FilterLimits | undefined,
  parse: (text: string, limits: Readonly<Required<FilterLimits>>) => T,
  language: LanguageLimits<Required<FilterLimits>> = FILTER_LANGUAGE,
): T {
  const limits = resolveLimits(options, language.defaults);
  if (typeof text !== 'string') throw new FilterSyntaxError(`the ${language.noun} must be a string`, '', 0);
  if (text.length > limits.maxLength) {
    throw limitError(`the ${language.noun} is ${text.length} characters long, over the limit of ${limits.maxLength}`, 'maxLength', limits.maxLength, text);
  }
  try {
    return parse(text, limits);
  } catch (err) {
    if (err instanceof RangeError) throw limitError(`the ${language.noun} nests too deeply for the parser`, 'maxDepth', 0);
    throw err;
  }
}

/**
 * The node and nesting counts of one parse, checked against its limits: every parser of the
 * three languages counts the nodes it builds (`maxNodes`) and the levels it enters (`maxDepth`)
 * here, so that their limit errors read alike.
 */
export class ParseMeter {
  #nodes = 0;
  #depth = 0;
  #terms = 0;

  constructor(
    private readonly text: string,
    private readonly limits: Readonly<Required<FilterLimits>>,
    private readonly noun: string,
  ) {}

  /** Count a node the parser built; FILTER_LIMIT past maxNodes. */
  node<T extends { readonly range: SourceRange }>(node: T): T {
    if (++this.#nodes > this.limits.maxNodes) {
      throw limitError(`the ${this.noun} has more than ${this.limits.maxNodes} nodes`, 'maxNodes', node.range.start, this.text);
    }
    return node;
  }

  /** A comparison starting at `position`; FILTER_LIMIT past maxTerms. */
  term(position: number): void {
    if (++this.#terms > this.limits.maxTerms) {
      throw limitError(`the ${this.noun} has more than ${this.limits.maxTerms} comparisons`, 'maxTerms', position, this.text);
    }
  }

  /** One level deeper, entered at `position`; FILTER_LIMIT past maxDepth. */
  enter(position: number): void {
    if (++this.#depth > this.limits.maxDepth) {
      throw limitError(`the ${this.noun} nests deeper than ${this.limits.maxDepth} levels`, 'maxDepth', position, this.text);
    }
  }

  /** Back out of the level entered last. */
  leave(): void {
    this.#depth--;
  }
}
