// What the join of a fixture tenant reads from each element (memory stays flat): an
// identity's id and managerId, an account's identityId. Where gen:tenant and the platform's
// exports put them (id first, then name or identityId and sourceId; managerId last), anchored
// patterns read them from the element's first and last bytes without building the object: a
// match at the very start (or end) of the element can only be a top-level member, and quoted
// strings without escapes cannot hide a delimiter. Anything else goes through JSON.parse.
//
// The pre-pass reads those bytes as latin1 (a copy, no UTF-8 decoding); a match whose ids are
// all ASCII is what UTF-8 decoding would give, anything else is decoded properly.

import { fileError } from '../../json/positions.js';
import { parseObjectElement, type ArrayElement, type JsonArrayReader } from './json-array-reader.js';

const IDENTITY_START = /^\{[ \t\n\r]*"id"[ \t\n\r]*:[ \t\n\r]*"([^"\\]*)"[ \t\n\r]*,[ \t\n\r]*"name"[ \t\n\r]*:[ \t\n\r]*"/;
const IDENTITY_MANAGER_END = /"managerId"[ \t\n\r]*:[ \t\n\r]*(?:null|"([^"\\]*)")[ \t\n\r]*\}$/y;
const ACCOUNT_START = /^\{[ \t\n\r]*"id"[ \t\n\r]*:[ \t\n\r]*"[^"\\]*"[ \t\n\r]*,[ \t\n\r]*"identityId"[ \t\n\r]*:[ \t\n\r]*"([^"\\]*)"[ \t\n\r]*,[ \t\n\r]*"sourceId"[ \t\n\r]*:[ \t\n\r]*"[^"\\]*"/;
const NOT_ASCII = /[^\x00-\x7f]/;

/** Bytes of an element's start and end read as latin1 by the pre-pass: ids of up to about 100 characters. */
const EDGE_BYTES = 192;
/** Enough of an account's text for ACCOUNT_START (two ids and a source id, with room for long ids). */
const ACCOUNT_HEAD_BYTES = 512;

export interface IdentityHead {
  id: string;
  managerId: string | null;
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The fast path over the element's start (`head`) and end (`tail`), which may be the same whole text. */
function matchIdentity(head: string, tail: string): IdentityHead | null {
  const start = IDENTITY_START.exec(head);
  if (!start) return null;
  const at = tail.lastIndexOf('"managerId"');
  if (at <= 0) return null;
  let before = at - 1;
  while (before > 0 && isJsonSpace(tail.charCodeAt(before))) before--;
  if (tail[before] !== ',') return null;
  IDENTITY_MANAGER_END.lastIndex = at;
  const end = IDENTITY_MANAGER_END.exec(tail);
  return end ? { id: start[1]!, managerId: end[1] ?? null } : null;
}

/** An identity's id and managerId from its whole text. */
export function identityHead(file: string, element: ArrayElement, index: number): IdentityHead {
  const fast = matchIdentity(element.text, element.text);
  if (fast) return fast;
  const item = parseObjectElement(file, element, index);
  if (typeof item.id !== 'string') throw fileError(file, element.offset, `element ${index} of the array needs a string "id"`, { path: `/${index}/id` });
  if (typeof item.name !== 'string') throw fileError(file, element.offset, `element ${index} of the array needs a string "name"`, { path: `/${index}/name` });
  const managerId = typeof item.managerId === 'string' ? item.managerId : null;
  return { id: item.id, managerId };
}

/** The current identity of `reader`, from its first and last bytes when they hold both ids. */
export function readIdentityHead(reader: JsonArrayReader): IdentityHead {
  const { length } = reader;
  const fast = matchIdentity(reader.latin1(0, EDGE_BYTES), reader.latin1(length - EDGE_BYTES, length));
  if (fast && !NOT_ASCII.test(fast.id) && (fast.managerId === null || !NOT_ASCII.test(fast.managerId))) return fast;
  return identityHead(reader.file, { text: reader.fullText(), offset: reader.offset, length }, reader.index - 1);
}

/** The current account of `reader`'s identityId, from its first bytes when they hold it. */
export function readAccountIdentityId(reader: JsonArrayReader): string {
  const fast = ACCOUNT_START.exec(reader.latin1(0, ACCOUNT_HEAD_BYTES));
  if (fast && !NOT_ASCII.test(fast[1]!)) return fast[1]!;
  const index = reader.index - 1;
  const item = parseObjectElement(reader.file, { text: reader.fullText(), offset: reader.offset, length: reader.length }, index);
  for (const key of ['id', 'identityId', 'sourceId']) {
    if (typeof item[key] !== 'string') {
      throw fileError(reader.file, reader.offset, `element ${index} of the array needs a string "${key}"`, { path: `/${index}/${key}` });
    }
  }
  return item.identityId as string;
}
