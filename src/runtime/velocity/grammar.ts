// velocityjs's generated parser (https://github.com/shepherdwind/velocity.js, a jison LALR(1)
// parser), made linear and budgeted. Its grammar builds each list left-recursively with
// `[].concat(list, item)`, copying the list at every item: a template of n statements (text and
// references alternate, so `"$a "` repeated is two per repeat) costs n²/2 element copies — 50 KB
// took 18 s. The package exports only the parse function, so its parser module is compiled here
// from the package's own file with those list actions appending in place (what concat returns,
// without the copy) and the parser object exported; each parse then runs on a lexer of its own
// that counts tokens and reads the clock, so that one template stops at a token limit and at the
// compile's deadline with a coded error. (docs/decisions.md, "Velocity parsing is linear".)

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { compileFunction } from 'node:vm';
import { codedError } from '../../errors/index.js';
import type { Pos } from './expressions.js';

export type Flat = string | { type: string; value?: unknown; pos?: Pos; [key: string]: unknown };

interface Lexer {
  lex(): unknown;
}

interface JisonParser {
  lexer: Lexer;
  parse(source: string): Flat[];
}

/** The list actions of the generated grammar: `this.$ = [].concat($$[$0 - k], $$[$0]);`. */
const LIST_ACTION = /this\.\$ = \[\]\.concat\(\$\$\[\$0 - (\d)\], \$\$\[\$0\]\);/g;
/** How many list actions velocityjs 2.1's grammar has (statements; arguments, list items, map entries). */
const LIST_ACTIONS = 2;
const EXPORT = 'exports.parse_1 = parse_1;';

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
  if (actions !== LIST_ACTIONS || !patched.includes(EXPORT)) {
    // A velocityjs whose generated parser differs: refuse rather than parse in quadratic time.
    throw new Error(`velocityjs's parser (${file}) is not the one this module patches: found ${actions} list actions`);
  }
  const body = `${patched}\nexports.parser = velocity;`;
  const run = compileFunction(body, ['exports', 'require', 'module', '__filename', '__dirname', '__append'], { filename: file });
  const module = { exports: {} as { parser?: JisonParser } };
  run(module.exports, createRequire(file), module, file, dirname(file), append);
  return module.exports.parser!;
}

let parser: JisonParser | undefined;

/** What one template's parse may spend: tokens, and the time of the compile it belongs to. */
export interface ParseBudget {
  /** Lexer tokens of one template (its interpolated string literals included). */
  readonly maxTokens: number;
  /** The compile's limit in milliseconds (reported in the error). */
  readonly maxTime: number;
  /** performance.now() past which parsing stops. */
  readonly deadline: number;
  /** Tokens read so far (shared by the template and the string literals inside it). */
  tokens: number;
}

export function parseBudget(maxTokens: number, maxTime: number, deadline = performance.now() + maxTime): ParseBudget {
  return { maxTokens, maxTime, deadline, tokens: 0 };
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
  const base = parser.lexer;
  const lexer: Lexer = Object.create(base) as Lexer;
  lexer.lex = function lex(this: Lexer) {
    countToken(budget);
    return base.lex.call(this);
  };
  const own = Object.create(parser) as JisonParser;
  own.lexer = lexer;
  return own.parse(source);
}
