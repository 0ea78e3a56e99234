// Shared pieces of the CLI commands: usage errors (exit 2), reading inputs, and resolving a
// JSON Pointer or a parse error offset to a line and column of the source text.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TransformsError } from '../errors/index.js';
import { closestName } from '../errors/suggest.js';
import { firstSyntaxError, positionOf, stripByteOrderMark, type Position } from '../json/positions.js';

export { locatePointer, positionOf, positionTree, type Position } from '../json/positions.js';

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** A command-line usage problem: reported in one line, exit code 2. */
export class UsageError extends TransformsError {
  constructor(message: string) {
    super('CLI_USAGE', message);
  }
}

/** An integer option's value, within [min, max], or a usage error naming the option. */
export function integerOption(name: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not "${text}"`);
  return Number(text);
}

/** The known option closest to an unknown one, when it is close enough to be a typo. */
export function closestOption(unknown: string, known: readonly string[]): string | undefined {
  const best = closestName(unknown.replace(/^-+/, '').split('=')[0]!, known);
  return best === undefined ? undefined : `--${best}`;
}

/**
 * node:util parseArgs with usage errors a person can act on: an unknown option names the
 * closest known one ("did you mean --workers?"), a missing value says which option needs one.
 */
export function parseCommandLine<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = (error as Error).message;
    const option = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
    const help = ` (see identity-transforms ${command} --help)`;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const suggestion = closestOption(option, Object.keys(config.options ?? {}));
      throw new UsageError(`unknown option ${option}${suggestion ? `; did you mean ${suggestion}?` : ''}${help}`);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UsageError(/does not take an argument/.test(message) ? `${option} takes no value${help}` : `${option} needs a value${help}`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError(`unexpected argument${help}`);
    throw error;
  }
}

export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** Read all of standard input as UTF-8. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return stripByteOrderMark(Buffer.concat(chunks).toString('utf8'));
}

// An options object rather than 'utf8': Node copies a string option into a new object on every
// call, a third of the time of reading a small file.
const UTF8 = { encoding: 'utf8', flag: 'r' } as const;

/** Read a file; a missing or unreadable file (or a directory) is a CLI_READ error. */
export function readText(file: string): string {
  try {
    // No stat first: reading a directory fails with EISDIR, and one call per file is what a
    // run over thousands of files can afford.
    // A leading byte-order mark (some Windows editors write one) is accepted and dropped.
    return stripByteOrderMark(readFileSync(file, UTF8));
  } catch (error) {
    const message = (error as NodeJS.ErrnoException).code === 'EISDIR' ? 'is a directory' : (error as Error).message;
    throw new TransformsError('CLI_READ', `cannot read ${file}: ${message}`, { cause: error, details: { file } });
  }
}

/**
 * The `.json` files under a directory, relative and sorted, as a recursive glob for `*.json`
 * without dot files lists them; undefined when the tree holds a symbolic link, a special file or
 * an unreadable directory, whose handling is left to the glob library. A plain tree is listed
 * without loading it.
 */
export function listJsonFiles(dir: string): string[] | undefined {
  const out: string[] = [];
  const pending = [''];
  try {
    while (pending.length > 0) {
      const rel = pending.pop()!;
      for (const entry of readdirSync(rel === '' ? dir : join(dir, rel), { withFileTypes: true })) {
        if (entry.name.startsWith('.')) continue;
        const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) pending.push(path);
        else if (!entry.isFile()) return undefined;
        else if (entry.name.endsWith('.json')) out.push(path);
      }
    }
  } catch {
    return undefined;
  }
  return out.sort();
}

/** The first syntax error of a JSON text, with its position, or undefined when it parses. */
export function syntaxError(text: string): { message: string; position: Position } | undefined {
  const found = firstSyntaxError(text);
  return found && { message: found.message, position: positionOf(text, found.offset) };
}
