// Reading a JSON Patch body (RFC 6902, https://developer.sailpoint.com/docs/api/patch-requests; RFC 6902 §4). JSON.parse keeps the last of two members with the same name, so
// `{"op":"replace","op":"remove",…}` would silently run the remove: the body is walked once
// with jsonc-parser's visitor, and any object with a repeated member is refused, naming the
// operation and the member.

import type { BodyParser } from '../json-body.js';
import { visit } from 'jsonc-parser';
import type { TransformsError } from '../../errors/index.js';
import { formatPointer, patchError } from './pointer.js';

export interface DuplicateMember {
  /** JSON Pointer of the repeated member (its second occurrence), e.g. `/0/op`. */
  readonly pointer: string;
  readonly member: string;
  /** The operation (top-level array index) it is in, when the body is an array. */
  readonly operation: number | undefined;
  /** 1-based line and column of the second occurrence. */
  readonly line: number;
  readonly column: number;
}

/** The first member that repeats a name within its object, or null. `text` must be valid JSON. */
export function findDuplicateMember(text: string): DuplicateMember | null {
  const open: Set<string>[] = [];
  let found: DuplicateMember | null = null;
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (member, _offset, _length, line, character, pathSupplier) => {
      const names = open[open.length - 1]!;
      if (found === null && names.has(member)) {
        const path = [...pathSupplier(), member];
        found = {
          pointer: formatPointer(path.map(String)),
          member,
          operation: typeof path[0] === 'number' ? path[0] : undefined,
          line: line + 1,
          column: character + 1,
        };
      }
      names.add(member);
    },
  });
  return found;
}

/** The 400 of a repeated member: the operation index and the member name, and where it is. */
export function duplicateMemberError(d: DuplicateMember): TransformsError {
  const where = d.pointer.split('/').length === 3 ? `has two '${d.member}' members` : `repeats the member '${d.member}' at ${d.pointer}`;
  return patchError('PATCH_DUPLICATE_MEMBER', `${where} (line ${d.line}, column ${d.column}); an operation has exactly one of each member`, d.operation, d.pointer);
}

/** Far above the depth any stored document may have, far below what a recursive walk survives. */
const SCAN_DEPTH = 1_000;

function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A content-type parser for application/json-patch+json: Fastify's JSON parser (strict JSON,
 * prototype poisoning refused), then the repeated-member check on the same text.
 */
export function jsonPatchBodyParser(json: BodyParser): BodyParser {
  return (request, body, done) => {
    json(request, body, (err, value) => {
      if (err !== null) return done(err);
      // jsonc-parser's visitor recurses: a body nested deeper than any document may be is left
      // to the depth check that refuses it with its pointer (api/json-limits.ts).
      if (deeperThan(value, SCAN_DEPTH)) return done(null, value);
      const duplicate = findDuplicateMember(body);
      if (duplicate !== null) return done(duplicateMemberError(duplicate));
      done(null, value);
    });
  };
}
