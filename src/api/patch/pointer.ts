// JSON Pointer (RFC 6901) as JSON Patch uses it (RFC 6902 §4, https://developer.sailpoint.com/docs/api/patch-requests): strict
// parsing, and the tokens that would reach the prototype chain refused outright.

import { codedError, type ErrorCode, type TransformsError } from '../../errors/index.js';

/**
 * Tokens that would let a patch reach Object.prototype or a constructor in a JavaScript
 * implementation. Refused anywhere in a path or from, even as plain member names, because a
 * stored document is later spread, merged and serialised by code that must not meet them.
 */
export const FORBIDDEN_TOKENS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** An array index token: `0` or a number without a leading zero (RFC 6901 §4). */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

export function patchError(code: PatchErrorCode, message: string, index: number | undefined, pointer?: string): TransformsError {
  const details: Record<string, unknown> = {};
  if (index !== undefined) details.operation = index;
  // `causes` is what the platform error body lists under causes[] (src/api/plugins/errors.ts).
  details.causes = [index === undefined ? message : `operation ${index}: ${message}`];
  return codedError(code, index === undefined ? message : `JSON Patch operation ${index}: ${message}`, {
    ...(pointer === undefined ? {} : { path: pointer }),
    details,
  });
}

/** Why a patch was refused: one of the PATCH_ codes of the catalogue (src/errors/patch.ts). */
export type PatchErrorCode = Extract<ErrorCode, `PATCH_${string}`>;

/** Split a pointer into its unescaped tokens; `~` must be followed by 0 or 1. */
export function parsePointer(pointer: unknown, index: number | undefined, member: 'path' | 'from'): string[] {
  if (typeof pointer !== 'string') throw patchError('PATCH_OPERATION_INVALID', `'${member}' must be a string JSON Pointer`, index);
  if (pointer === '') return [];
  if (pointer[0] !== '/') throw patchError('PATCH_POINTER_INVALID', `'${member}' ${JSON.stringify(pointer)} must be empty or start with '/'`, index, pointer);
  const tokens = pointer.slice(1).split('/');
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i]!;
    if (/~(?![01])/.test(raw)) {
      throw patchError('PATCH_POINTER_INVALID', `'${member}' ${JSON.stringify(pointer)} has an invalid escape ('~' must be followed by 0 or 1)`, index, pointer);
    }
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (FORBIDDEN_TOKENS.has(token)) {
      throw patchError('PATCH_POINTER_FORBIDDEN', `'${member}' ${JSON.stringify(pointer)} names '${token}', which is not allowed`, index, pointer);
    }
    tokens[i] = token;
  }
  return tokens;
}

/** The array position a token names, or undefined when it is not a valid index. */
export function arrayIndex(token: string): number | undefined {
  return ARRAY_INDEX.test(token) ? Number(token) : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function hasOwn(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** Re-escape tokens into a pointer (for messages and immutable-path checks). */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => '/' + t.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
