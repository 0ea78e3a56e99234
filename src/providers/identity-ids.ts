// An identity's id names it everywhere (accounts' identityId, managerId, the API's /identities/{id}),
// so identities.json may not give two identities one id: the refresh would write two results for
// it and the server would keep one of them. Every reader of fixtures refuses it here, with the
// same error (CLI_FIXTURES at the second occurrence, naming the first): the whole-file readers
// by a map of the ids they hold anyway, the refresh's pre-pass (which keeps no id strings) from
// the 53-bit hashes of the ids it keeps by ordinal, reading ids back only when two hashes meet.

import { basename } from 'node:path';
import { codedError, type TransformsError } from '../errors/index.js';
import { formatPosition, positionInFile, positionOfPointerInFile } from '../json/positions.js';

/** Where an identity is in identities.json: its element's index, and its byte offset when the file was streamed. */
export interface IdOccurrence {
  index: number;
  offset?: number;
}

/** An id given to two identities: its first occurrence and the second. */
export interface RepeatedId {
  id: string;
  first: IdOccurrence;
  second: IdOccurrence;
}

/** Ids seen so far, in file order; the first repeat is kept (a reader goes on to its own end or stops at once). */
export class IdentityIds {
  private readonly seen = new Map<string, IdOccurrence>();
  repeated: RepeatedId | null = null;

  add(id: string, at: IdOccurrence): void {
    if (this.repeated !== null) return;
    const first = this.seen.get(id);
    if (first === undefined) this.seen.set(id, at);
    else this.repeated = { id, first, second: at };
  }

  /** Throw the error of the first repeated id of `file`, if any. */
  check(file: string): void {
    if (this.repeated !== null) throw repeatedIdError(file, this.repeated);
  }
}

/**
 * The first repeated id (the one whose second occurrence comes first) among `count` identities
 * known by the 53-bit hashes of their ids: the hashes are sorted (a copy: 8 bytes an identity),
 * and only ids whose hash occurs twice are read back (`idAt`) and compared, so memory stays flat
 * and a tenant without repeats reads nothing again.
 */
export function repeatedHashedId(hashes: Float64Array, count: number, idAt: (index: number) => IdOccurrence & { id: string }): RepeatedId | null {
  const sorted = hashes.slice(0, count).sort();
  const shared = new Set<number>();
  for (let i = 1; i < count; i++) if (sorted[i] === sorted[i - 1]) shared.add(sorted[i]!);
  if (shared.size === 0) return null;
  const ids = new IdentityIds();
  for (let i = 0; i < count && ids.repeated === null; i++) {
    if (!shared.has(hashes[i]!)) continue;
    const { id, ...at } = idAt(i);
    ids.add(id, at);
  }
  return ids.repeated;
}

/** CLI_FIXTURES at the second occurrence of a repeated id (its element), naming the first with its position. */
export function repeatedIdError(file: string, { id, first, second }: RepeatedId): TransformsError {
  const at = (o: IdOccurrence) => (o.offset !== undefined ? positionInFile(file, o.offset) : (positionOfPointerInFile(file, `/${o.index}`) ?? { line: 1, column: 1 }));
  const [firstAt, secondAt] = [at(first), at(second)];
  return codedError(
    'CLI_FIXTURES',
    `${formatPosition(file, secondAt)}: identity ${second.index} has the id "${id.slice(0, 200)}" of identity ${first.index} (${formatPosition(file, firstAt)}): every identity in ${basename(file)} needs an id of its own`,
    { path: `/${second.index}/id`, details: { file, line: secondAt.line, column: secondAt.column, first: { index: first.index, line: firstAt.line, column: firstAt.column } } },
  );
}
