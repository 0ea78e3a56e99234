// The command-line options of the bench scripts, in one shape. A script declares its options with
// the kinds below — a count (--runs, --identities), a list of counts (--sizes), worker threads or
// a list of worker modes (--workers, --modes), a text, a flag (--no-write) — and gets them read
// by node:util's parseArgs and checked: an unknown option or a value that is not of its kind
// stops the script with the option's name, instead of running a benchmark on NaN.

import { parseArgs } from 'node:util';

/** How one option is written and read. */
interface Kind<T> {
  type: 'string' | 'boolean';
  fallback: string | boolean | undefined;
  read(value: string | boolean | undefined, name: string): T;
}

type Workers = number | 'auto';

function wrong(name: string, value: unknown, what: string): never {
  throw new Error(`--${name} must be ${what}, not ${JSON.stringify(value)}`);
}

function integer(name: string, text: string, min: number, what: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min) wrong(name, text, what);
  return n;
}

function worker(name: string, text: string): Workers {
  return text === 'auto' ? 'auto' : integer(name, text, 0, "'auto' or a number of threads");
}

/** A whole number of at least `min` (default 1): runs, identities, records. */
export const count = (fallback: number, min = 1): Kind<number> => ({
  type: 'string',
  fallback: String(fallback),
  read: (value, name) => integer(name, String(value), min, `an integer of at least ${min}`),
});

/** Comma-separated whole numbers: the sizes to run at. */
export const counts = (fallback: readonly number[]): Kind<number[]> => ({
  type: 'string',
  fallback: fallback.join(','),
  read: (value, name) => String(value).split(',').map((t) => integer(name, t, 1, 'comma-separated integers of at least 1')),
});

/** Worker threads: 'auto' or a number (0: the main thread). */
export const workers = (fallback: Workers): Kind<Workers> => ({ type: 'string', fallback: String(fallback), read: (value, name) => worker(name, String(value)) });

/** Comma-separated worker modes: each 'auto' or a number. */
export const workerModes = (fallback: readonly Workers[]): Kind<Workers[]> => ({
  type: 'string',
  fallback: fallback.join(','),
  read: (value, name) => String(value).split(',').map((t) => worker(name, t)),
});

/** A text as given (a git revision, a file). */
export function text(fallback: string): Kind<string>;
export function text(): Kind<string | undefined>;
export function text(fallback?: string): Kind<string | undefined> {
  return { type: 'string', fallback, read: (value) => (value === undefined ? undefined : String(value)) };
}

/** A switch. One that is on by default is turned off by --no-<name> (Node 20's parseArgs has no negated options). */
export const flag = (fallback = false): Kind<boolean> => ({ type: 'boolean', fallback, read: (value) => value === true });

type Values<S> = { [K in keyof S]: S[K] extends Kind<infer T> ? T : never };

/** The script's options read from its command line: a wrong one ends the script with its message and exit code 2. */
export function benchArgs<S extends Record<string, Kind<unknown>>>(spec: S, args = process.argv.slice(2)): Values<S> {
  try {
    return parseBenchArgs(spec, args);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

/** The options read from `args`; throws on an unknown option or a value not of its kind. */
export function parseBenchArgs<S extends Record<string, Kind<unknown>>>(spec: S, args: string[]): Values<S> {
  const options: Record<string, { type: 'string' | 'boolean'; default?: string | boolean }> = {};
  for (const [name, kind] of Object.entries(spec)) {
    options[name] = kind.fallback === undefined ? { type: kind.type } : { type: kind.type, default: kind.fallback };
    if (kind.type === 'boolean' && kind.fallback === true) options[`no-${name}`] = { type: 'boolean', default: false };
  }
  const { values } = parseArgs({ args, options, strict: true, allowPositionals: false }) as { values: Record<string, string | boolean | undefined> };
  const read: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(spec)) read[name] = values[`no-${name}`] === true ? false : kind.read(values[name], name);
  return read as Values<S>;
}
