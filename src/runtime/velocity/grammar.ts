// velocityjs's generated parser (https://github.com/shepherdwind/velocity.js, a jison LALR(1)
// parser), made linear and budgeted. Its grammar builds each list left-recursively with
// `[].concat(list, item)`, copying the list at every item: a template of n statements (text and
// references alternate, so `"$a "` repeated is two per repeat) costs n²/2 element copies — 50 KB
// took 18 s. The package exports only the parse function, so its parser module is compiled here
// from the package's own file with those list actions appending in place (what concat returns,
// without the copy), its lexer calling a hook per token, and the parser object exported; the hook
// counts tokens and reads the clock, so that one template stops at a token limit and at the
// compile's deadline with a coded error. (docs/decisions.md, "Velocity parsing is linear".)

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { compileFunction } from 'node:vm';
import { codedError } from '../../errors/index.js';
import type { Pos } from './expressions.js';

export type Flat = string | { type: string; value?: unknown; pos?: Pos; [key: string]: unknown };

interface JisonParser {
  parse(source: string): Flat[];
}

/** The list actions of the generated grammar: `this.$ = [].concat($$[$0 - k], $$[$0]);`. */
const LIST_ACTION = /this\.\$ = \[\]\.concat\(\$\$\[\$0 - (\d)\], \$\$\[\$0\]\);/g;
/** How many list actions velocityjs 2.1's grammar has (statements; arguments, list items, map entries). */
const LIST_ACTIONS = 2;
const EXPORT = 'exports.parse_1 = parse_1;';
/** The lexer's entry point, called once per token (and again after a skipped one). */
const LEX = 'lex: function lex() {';

/** concat's result without its copy: `list` is the parser's own value, used nowhere else. */
function append(list: unknown[], item: unknown): unknown[] {
  if (Array.isArray(item)) for (const x of item) list.push(x);
  else list.push(item);
  return list;
}

function loadParser(): JisonParser {
  const velocityRequire = createRequire(createRequire(import.meta.url).resolve('velocityjs'));
  const file = velocityRequire.resolve('./parse/index.cjs');
  const original = readFileSync(file, 'utf8');
  let actions = 0;
  const patched = original.replace(LIST_ACTION, (_m, k: string) => {
    actions++;
    return `this.$ = __append($$[$0 - ${k}], $$[$0]);`;
  });
  if (actions !== LIST_ACTIONS || !patched.includes(EXPORT) || patched.split(LEX).length !== 2) {
    // A velocityjs whose generated parser differs: refuse rather than parse in quadratic time.
    throw new Error(`velocityjs's parser (${file}) is not the one this module patches: found ${actions} list actions`);
  }
  const body = `${patched.replace(LEX, `${LEX} __token();`)}\nexports.parser = velocity;`;
  const run = compileFunction(body, ['exports', 'require', 'module', '__filename', '__dirname', '__append', '__token'], { filename: file });
  const module = { exports: {} as { parser?: JisonParser } };
  run(module.exports, createRequire(file), module, file, dirname(file), append, () => countToken(current!));
  return module.exports.parser!;
}

// The generated parser, compiled once (a function of the package's code, like a required
// module), and the budget of the parse running now: parses are synchronous and never nested, so
// the lexer's hook finds its budget here without a lexer object per parse (which made V8's
// inline caches megamorphic and small templates three times slower).
let parser: JisonParser | undefined;
let current: ParseBudget | undefined;

/** What one template's parse may spend: tokens, and the parsing time of the compile it belongs to. */
export interface ParseBudget {
  /** Lexer tokens of one template (its interpolated string literals included). */
  readonly maxTokens: number;
  /** Milliseconds the templates of one compile may spend parsing, in all. */
  readonly maxTime: number;
  /** Milliseconds they have spent so far (shared by every template of the compile). */
  readonly spent: { ms: number };
  /** performance.now() past which the parse running now stops (set as it starts). */
  deadline: number;
  /** Tokens read so far (shared by the template and the string literals inside it). */
  tokens: number;
}

export function parseBudget(maxTokens: number, maxTime: number, spent: { ms: number } = { ms: 0 }): ParseBudget {
  return { maxTokens, maxTime, spent, deadline: performance.now() + maxTime - spent.ms, tokens: 0 };
}

/** Run one parse against the budget's time: its deadline set from what is left, its time added after. */
export function timedParse<T>(budget: ParseBudget, parse: () => T): T {
  const started = performance.now();
  budget.deadline = started + budget.maxTime - budget.spent.ms;
  // A compile whose templates have spent their time stops each further one before any work.
  if (budget.spent.ms > budget.maxTime) checkParseTime(budget);
  try {
    return parse();
  } finally {
    budget.spent.ms += performance.now() - started;
  }
}

/** Every TIME_CHECK_MASK + 1 tokens the clock is read (a token costs a few microseconds). */
const TIME_CHECK_MASK = 255;

function countToken(budget: ParseBudget): void {
  const n = ++budget.tokens;
  if (n > budget.maxTokens) {
    throw codedError('COMPILE_TEMPLATE_TOO_LARGE', `the template has more than ${budget.maxTokens} tokens (limit maxTemplateTokens = ${budget.maxTokens})`, {
      details: { limit: 'maxTemplateTokens', max: budget.maxTokens },
    });
  }
  if ((n & TIME_CHECK_MASK) === 1) checkParseTime(budget);
}

/** Throws COMPILE_LIMIT_TIME once the compile's parsing has run past its deadline. */
export function checkParseTime(budget: ParseBudget): void {
  if (performance.now() > budget.deadline) {
    throw codedError('COMPILE_LIMIT_TIME', `parsing the templates took longer than ${budget.maxTime} ms (limit maxTime = ${budget.maxTime})`, {
      details: { limit: 'maxTime', max: budget.maxTime },
    });
  }
}

/** velocityjs's flat statement list of `source`, its lexer counting against `budget`. */
export function flatParse(source: string, budget: ParseBudget): Flat[] {
  parser ??= loadParser();
  current = budget;
  try {
    return parser.parse(source);
  } finally {
    current = undefined;
  }
}
