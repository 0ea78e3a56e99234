// Shared pieces of the CLI commands: usage errors (exit 2), reading inputs, and resolving a
// JSON Pointer or a parse error offset to a line and column of the source text.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TransformsError } from '../errors/index.js';
import { closestName } from '../errors/suggest.js';
import { terminalText } from '../errors/terminal.js';
import { messagePointer } from '../json/depth.js';
import { firstSyntaxError, positionOf, stripByteOrderMark, type Position } from '../json/positions.js';
import { readRegularFile } from '../json/read-file.js';

export { locatePointer, positionOf, positionTree, type Position } from '../json/positions.js';

/** The fields of this package's package.json the commands read (version, links, peers). */
export interface PackageManifest {
  version: string;
  homepage: string;
  repository: { url: string };
  peerDependencies: Record<string, string>;
}

/** This package's own package.json (two levels up from src/cli and from dist/cli alike). */
export function packageManifest(): PackageManifest {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageManifest;
}

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
    // `--identities -5`: node:util refuses a value that starts with a dash as "ambiguous". An
    // option that takes a value has no other use for the next word, so it is read as
    // `--identities=-5` and the command judges the value (a coded usage error in its words).
    const args = config.args ?? [];
    const at = args.indexOf(option);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /ambiguous/.test(message) && option.startsWith('--') && at >= 0 && at + 1 < args.length) {
      return parseCommandLine(command, { ...config, args: [...args.slice(0, at), `${option}=${args[at + 1]}`, ...args.slice(at + 2)] } as T);
    }
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const suggestion = closestOption(option, Object.keys(config.options ?? {}));
      throw new UsageError(`unknown option ${option}${suggestion ? `; did you mean ${suggestion}?` : ''}${help}`);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UsageError(/does not take an argument/.test(message) ? `${option} takes no value${help}` : `${option} needs a value${help}`);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const argument = /argument '([^']*)'/.exec(message)?.[1];
      throw new UsageError(`unexpected argument${argument === undefined ? '' : ` '${argument}'`}${help}`);
    }
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

/** An input over the size a command reads: not read past `max` bytes. */
export interface TooLarge {
  tooLarge: true;
  /** The size, or (standard input) the bytes read when it passed the limit. */
  bytes: number;
  max: number;
}

/** Read standard input as UTF-8, at most `maxBytes` bytes: past them, reading stops. */
export async function readStdin(maxBytes: number): Promise<string | TooLarge> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    bytes += (chunk as Buffer).length;
    if (bytes > maxBytes) {
      process.stdin.destroy();
      return { tooLarge: true, bytes, max: maxBytes };
    }
    chunks.push(chunk as Buffer);
  }
  return stripByteOrderMark(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Read a document a command was given: a regular file (or a link to one) of at most `maxBytes`,
 * checked before reading (src/json/read-file.ts). A larger file is returned unread as
 * TooLarge; a missing or unreadable file, a directory, a device or a FIFO is CLI_READ.
 */
export function readText(file: string, maxBytes: number): string | TooLarge {
  const read = readRegularFile(file, maxBytes);
  if (read.ok) return read.text;
  if (read.reason === 'too-large') return { tooLarge: true, bytes: read.bytes, max: maxBytes };
  throw new TransformsError('CLI_READ', `cannot read ${file}: ${read.message}`, { ...(read.reason === 'unreadable' ? { cause: read.cause } : {}), details: { file } });
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

/**
 * A JSON Pointer from the user's transform, as a message line shows it: "/" for the root, a long
 * one cut in its middle (`--format json` carries it whole), control characters escaped.
 */
export function shownPointer(pointer: string): string {
  return terminalText(messagePointer(pointer));
}
