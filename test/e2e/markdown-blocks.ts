// The shell and script blocks of the project's Markdown, as a user would copy them, with what the
// README test must know about each. A fenced block whose info string starts with sh, bash, shell
// or console is a command block; js, mjs, ts or typescript, a script the user runs as a module
// file with the package installed (a .mjs or .mts file, run by Node with tsx for TypeScript). The
// HTML comment on the line just above a block (blank lines allowed) may say how to run it, with
// key=value words (values in double quotes when they hold spaces):
//
//   <!-- readme-test skip="why it cannot run here" -->   not run; the reason is required
//   <!-- readme-test exit=1 -->                          the exit code the docs state (default 0)
//   <!-- readme-test stdout="text" stderr="text" -->     text the output must contain
//   <!-- readme-test stdout-not="text" -->               text stdout must not contain
//   <!-- readme-test before="cd repo" -->                shell run first, in the same shell: the
//                                                        files a user's repository would have
//   <!-- readme-test background until="listening" -->   each line is a server: started, awaited
//                                                        until its stdout shows the text, stopped
//                                                        with SIGTERM, must exit 0
//   <!-- readme-test setup -->                           also run first in the directory of
//                                                        every other file (e.g. "copy the tenant")
//   <!-- readme-test vitest -->                          a script block that is a test file:
//                                                        run with `vitest run`
//
// A comment is rendered by nobody, so the directives never clutter the page.

export const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell', 'console']);
/** Script languages, with the extension of the module file a block is written to. */
export const SCRIPT_LANGUAGES = new Map([
  ['js', 'mjs'],
  ['mjs', 'mjs'],
  ['javascript', 'mjs'],
  ['ts', 'mts'],
  ['typescript', 'mts'],
]);

export interface ShellBlock {
  file: string;
  /** For a script block: the extension of its module file (mjs or mts); absent for a shell block. */
  script?: string;
  /** A script block that is a test file, run by vitest. */
  vitest?: boolean;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  skip?: string;
  exit: number;
  stdout?: string;
  stderr?: string;
  stdoutNot?: string;
  before?: string;
  background?: { until: string };
  setup: boolean;
}

const DIRECTIVE = /^<!--\s*readme-test\b(.*?)-->\s*$/;
const WORD = /([a-z-]+)(?:=(?:"([^"]*)"|(\S+)))?/g;
const KNOWN = new Set(['skip', 'exit', 'stdout', 'stdout-not', 'stderr', 'before', 'background', 'until', 'setup', 'vitest']);

/** The shell blocks and, with `scripts`, the script blocks too, in the order of the file. */
export function shellBlocks(file: string, markdown: string, scripts = false): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+|~~~+)\s*([^\s`]*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence)) end++;
    const language = open[3]!.toLowerCase();
    const script = scripts ? SCRIPT_LANGUAGES.get(language) : undefined;
    if (SHELL_LANGUAGES.has(language) || script !== undefined) {
      const code = lines.slice(i + 1, end).map((l) => l.slice(open[1]!.length)).join('\n');
      blocks.push({ file, line: i + 1, code, ...(script !== undefined ? { script } : {}), ...directives(file, lines, i) });
    }
    i = end;
  }
  return blocks;
}

function directives(file: string, lines: string[], fence: number): Omit<ShellBlock, 'file' | 'line' | 'code' | 'script'> {
  let j = fence - 1;
  while (j >= 0 && lines[j]!.trim() === '') j--;
  const found = j >= 0 ? DIRECTIVE.exec(lines[j]!.trim()) : null;
  const result: Omit<ShellBlock, 'file' | 'line' | 'code' | 'script'> = { exit: 0, setup: false };
  if (!found) return result;
  const words = new Map<string, string | undefined>();
  for (const [, key, quoted, bare] of found[1]!.matchAll(WORD)) {
    if (!KNOWN.has(key!)) throw new Error(`${file}:${j + 1}: unknown readme-test directive "${key}"`);
    words.set(key!, quoted ?? bare);
  }
  if (words.has('skip')) {
    const reason = words.get('skip');
    if (!reason) throw new Error(`${file}:${j + 1}: readme-test skip needs a reason: skip="…"`);
    result.skip = reason;
  }
  if (words.has('exit')) {
    const exit = Number(words.get('exit'));
    if (!Number.isInteger(exit)) throw new Error(`${file}:${j + 1}: readme-test exit must be a number`);
    result.exit = exit;
  }
  for (const key of ['stdout', 'stderr', 'before'] as const) {
    const value = words.get(key);
    if (value !== undefined) result[key] = value;
  }
  if (words.get('stdout-not') !== undefined) result.stdoutNot = words.get('stdout-not');
  if (words.has('background')) result.background = { until: words.get('until') ?? 'listening' };
  result.setup = words.has('setup');
  if (words.has('vitest')) result.vitest = true;
  return result;
}
