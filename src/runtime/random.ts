// Random values from an injected source (randomAlphaNumeric, randomNumeric, uuid, rule
// generateRandomString; https://developer.sailpoint.com/docs/extensibility/transforms/operations/):
// the same source gives the same output, so evaluations are reproducible in tests.

import { TransformsError } from '../errors/index.js';

/** A uniform source of numbers in [0, 1), such as Math.random or a seeded generator. */
export type RandomSource = () => number;

export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
/** The documented special characters of generateRandomString: ! @ # $ % & * ( ) + < > ? */
export const SPECIAL_CHARACTERS = '!@#$%&*()+<>?';

/** An index in [0, n) from the source; a source outside [0, 1) is a programming error. */
function pick(random: RandomSource, n: number): number {
  const r = random();
  if (!(r >= 0 && r < 1)) {
    throw new TransformsError('EVAL_ILLEGAL_ARGUMENT', `the random source returned ${String(r)}, outside [0, 1)`);
  }
  return Math.floor(r * n);
}

function checkLength(length: number): void {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new TransformsError('EVAL_ILLEGAL_ARGUMENT', `length must be a non-negative integer, got ${length}`, {
      details: { length },
    });
  }
}

/** `length` characters drawn uniformly from `charset`. */
export function randomString(length: number, charset: string, random: RandomSource): string {
  checkLength(length);
  if (charset.length === 0 && length > 0) {
    throw new TransformsError('EVAL_ILLEGAL_ARGUMENT', 'cannot draw characters from an empty set');
  }
  let out = '';
  for (let i = 0; i < length; i++) out += charset[pick(random, charset.length)];
  return out;
}

/** RandomStringUtils.randomAlphanumeric: [A-Za-z0-9]{length}. */
export function randomAlphaNumeric(length: number, random: RandomSource): string {
  return randomString(length, LETTERS + DIGITS, random);
}

/** RandomStringUtils.randomNumeric: [0-9]{length}. */
export function randomNumeric(length: number, random: RandomSource): string {
  return randomString(length, DIGITS, random);
}

/**
 * The Cloud Services Deployment Utility's generateRandomString: letters always, digits when
 * `includeNumbers`, the documented special characters when `includeSpecialChars`.
 */
export function generateRandomString(
  length: number,
  options: { includeNumbers: boolean; includeSpecialChars: boolean },
  random: RandomSource,
): string {
  const charset = LETTERS + (options.includeNumbers ? DIGITS : '') + (options.includeSpecialChars ? SPECIAL_CHARACTERS : '');
  return randomString(length, charset, random);
}

/** A version-4 UUID (java.util.UUID.randomUUID layout) whose 122 random bits come from `random`. */
export function uuidV4(random: RandomSource): string {
  const bytes = new Array<number>(16);
  for (let i = 0; i < 16; i++) bytes[i] = pick(random, 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
