// The resource budget of one evaluation: what its templates and operations may create (string
// length, collection size, integer digits, total allocation), how many loop iterations and
// usernameGenerator candidates it may spend, and how long it may run. One Budget is created per
// evaluation (an identity-profile evaluation shares one across its attributes); the checks sit
// where values are created and where loops turn, never on every node (docs/limits.md).

import { codedError, isTransformsError, TransformsError } from '../errors/index.js';

export interface BudgetLimits {
  /** Longest string (UTF-16 code units) a template or an operation may create. */
  maxStringLength: number;
  /** Most elements of one list or map a template creates (add, put, range, split, …). */
  maxCollectionSize: number;
  /** Most decimal digits of an integer that template arithmetic computes (BigInteger). */
  maxNumberDigits: number;
  /** Characters of strings plus elements of collections that templates create, in all. */
  maxAllocation: number;
  /** #foreach iterations plus macro calls. */
  maxIterations: number;
  /** Candidates a usernameGenerator renders and checks for uniqueness, over all its patterns. */
  maxUsernameCandidates: number;
  /** Wall time in milliseconds (monotonic), checked as loops turn and every 1,024 steps. */
  maxTime: number;
}

export const DEFAULT_BUDGET_LIMITS: Readonly<BudgetLimits> = Object.freeze({
  maxStringLength: 1_000_000,
  maxCollectionSize: 100_000,
  maxNumberDigits: 1_000,
  maxAllocation: 50_000_000,
  maxIterations: 1_000_000,
  maxUsernameCandidates: 1_000,
  maxTime: 5_000,
});

/** The coded error of each limit (docs/errors.md). */
export const LIMIT_CODES = Object.freeze({
  maxStringLength: 'EVAL_LIMIT_STRING',
  maxCollectionSize: 'EVAL_LIMIT_COLLECTION',
  maxNumberDigits: 'EVAL_LIMIT_NUMBER',
  maxAllocation: 'EVAL_LIMIT_ALLOCATION',
  maxIterations: 'EVAL_LIMIT_ITERATIONS',
  maxUsernameCandidates: 'EVAL_LIMIT_USERNAME',
  maxTime: 'EVAL_LIMIT_TIME',
  maxOutputLength: 'EVAL_LIMIT_OUTPUT',
  maxSteps: 'EVAL_STEP_LIMIT',
  maxDepth: 'EVAL_TOO_DEEP',
} as const);

export type LimitName = keyof typeof LIMIT_CODES;

const LIMIT_CODE_SET: ReadonlySet<string> = new Set(Object.values(LIMIT_CODES));

/** A coded error naming the limit it reports (details.limit), so a client can branch on it. */
export function limitError(limit: LimitName, max: number, message: string, path?: string): TransformsError {
  return codedError(LIMIT_CODES[limit], `${message} (limit ${limit} = ${max})`, { path, details: { limit, max } });
}

/** Whether `error` is a resource-limit error (these pass through template error wrapping). */
export function isLimitError(error: unknown): error is TransformsError {
  return isTransformsError(error) && LIMIT_CODE_SET.has(error.code);
}

const now = (): number => performance.now();

/** Every TIME_CHECK_MASK + 1 ticks the clock is read (a loop iteration costs far less than a clock read). */
const TIME_CHECK_MASK = 255;

const NOT_COMPILING = Object.freeze({ ms: 0 });

/**
 * Where a render finds its limits (read often) and its budget (created on first use: most
 * renders never loop nor build a value worth counting). An engine's evaluation is one.
 */
export interface Meter {
  readonly limits: Readonly<BudgetLimits>;
  readonly budget: Budget;
}

export class Budget {
  private iterations: number;
  private allocation: number;
  private candidates: number;
  /** NaN until the clock is first read (a clock read costs as much as a small evaluation). */
  private deadline = NaN;
  private numberBound: bigint | undefined = undefined;
  private readonly compiledBefore: number;

  /**
   * `compiling` is the engine's running total of milliseconds spent compiling: a transform
   * compiled during the evaluation (a reference seen for the first time) is compiled once and
   * cached, so its time is not the evaluation's.
   */
  constructor(
    readonly limits: Readonly<BudgetLimits>,
    private readonly compiling: { readonly ms: number } = NOT_COMPILING,
  ) {
    this.iterations = limits.maxIterations;
    this.allocation = limits.maxAllocation;
    this.candidates = limits.maxUsernameCandidates;
    this.compiledBefore = compiling.ms;
  }

  /** One loop iteration or macro call; reads the clock at the first and every 256th. */
  tick(): void {
    const left = --this.iterations;
    if (left < 0) throw limitError('maxIterations', this.limits.maxIterations, 'too many loop iterations and macro calls');
    if ((left & TIME_CHECK_MASK) === 0 || this.deadline !== this.deadline) this.checkTime();
  }

  /**
   * Throws EVAL_LIMIT_TIME once the evaluation has run longer than maxTime. The clock starts at
   * the first check — the first loop iteration, macro call or usernameGenerator candidate, or
   * the 1,024th step — so that evaluations that never loop never read it.
   */
  checkTime(): void {
    const t = now();
    if (this.deadline !== this.deadline) this.deadline = t + this.limits.maxTime;
    else if (t > this.deadline + (this.compiling.ms - this.compiledBefore)) throw limitError('maxTime', this.limits.maxTime, 'evaluation ran too long');
  }

  /** A string just created: its length and the evaluation's total allocation. */
  string<T extends string>(s: T): T {
    const n = s.length;
    if (n > this.limits.maxStringLength) throw limitError('maxStringLength', this.limits.maxStringLength, `a string of ${n} characters is too long`);
    if ((this.allocation -= n) < 0) throw limitError('maxAllocation', this.limits.maxAllocation, 'the evaluation created too much data');
    return s;
  }

  /** Whether a string of `n` characters may be created (checked before a repeat, say). */
  stringLength(n: number): void {
    if (n > this.limits.maxStringLength) throw limitError('maxStringLength', this.limits.maxStringLength, `a string of ${n} characters is too long`);
  }

  /** A collection created or grown to `size` elements, `added` of them new. */
  collection(size: number, added: number): void {
    if (size > this.limits.maxCollectionSize) {
      throw limitError('maxCollectionSize', this.limits.maxCollectionSize, `a list or map of ${size} elements is too large`);
    }
    if ((this.allocation -= added) < 0) throw limitError('maxAllocation', this.limits.maxAllocation, 'the evaluation created too much data');
  }

  /** An integer result of arithmetic beyond 2^53: its number of digits. */
  number<T>(v: T): T {
    if (typeof v === 'bigint') {
      const bound = (this.numberBound ??= 10n ** BigInt(this.limits.maxNumberDigits));
      if (v >= bound || -v >= bound) throw limitError('maxNumberDigits', this.limits.maxNumberDigits, 'an integer has too many digits');
    }
    return v;
  }

  /** One usernameGenerator candidate about to be rendered and checked. */
  candidate(): void {
    if (--this.candidates < 0) throw limitError('maxUsernameCandidates', this.limits.maxUsernameCandidates, 'usernameGenerator tried too many candidates');
    this.checkTime();
  }
}

/**
 * What a RangeError thrown by the JavaScript engine means in terms of limits: a value too large
 * for V8 (string, array, BigInt) or a stack exhausted by nesting. Undefined for any other
 * RangeError (an invalid code point, say), which keeps its own meaning.
 */
export function limitFromRangeError(error: unknown, limits: Readonly<BudgetLimits>, path?: string): TransformsError | undefined {
  if (!(error instanceof RangeError)) return undefined;
  const message = error.message;
  if (/call stack/i.test(message)) {
    return codedError('EVAL_TOO_DEEP', 'the evaluation is nested too deeply (the stack is exhausted)', { path, details: { limit: 'maxDepth' }, cause: error });
  }
  if (/string length/i.test(message)) return limitError('maxStringLength', limits.maxStringLength, 'a string is too long', path);
  if (/bigint/i.test(message)) return limitError('maxNumberDigits', limits.maxNumberDigits, 'an integer is too large', path);
  if (/array length/i.test(message)) return limitError('maxCollectionSize', limits.maxCollectionSize, 'a list is too large', path);
  return undefined;
}
