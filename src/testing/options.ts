// Options of the testing helpers are checked like the engine's: an unknown key or a
// value of the wrong kind is a coded error, so a misspelt `numRun` cannot silently run defaults.

import { codedError } from '../errors/index.js';

/** Throw ENGINE_OPTION_UNKNOWN for a key of `options` outside `known`. */
export function checkKeys(helper: string, options: object, known: readonly string[]): void {
  if (options === null || typeof options !== 'object') throw codedError('ENGINE_OPTION_INVALID', `${helper}: options must be an object`);
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw codedError('ENGINE_OPTION_UNKNOWN', `${helper}: unknown option "${key}" (known: ${known.join(', ')})`);
  }
}

/** A positive integer option, or its default. */
export function positiveInteger(helper: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw codedError('ENGINE_OPTION_INVALID', `${helper}: ${name} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return value;
}
