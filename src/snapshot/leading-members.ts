// Reading a snapshot line's leading members (`{"id":"…","identityId":"…",…}`) from its bytes
// alone, for the array-file reader (array-file-reader.ts): a --since merge keeps lines as bytes.

/** The bytes a leading member's line starts with, `"name":"`, by member name. */
const KEYS = new Map<string, Buffer>();
const keyOf = (member: string): Buffer => {
  let key = KEYS.get(member);
  if (key === undefined) KEYS.set(member, (key = Buffer.from(`"${member}":"`)));
  return key;
};

/** A member's value as last read by a reader: its bytes and its string, reused when the next line holds the same bytes. */
export interface LastValue {
  bytes: Buffer | null;
  from: number;
  end: number;
  value: string;
}

/** True when `a[af, ae)` and `b[bf, be)` hold the same bytes. */
function sameBytes(a: Buffer, af: number, ae: number, b: Buffer, bf: number, be: number): boolean {
  if (ae - af !== be - bf) return false;
  for (let i = ae - af - 1; i >= 0; i--) if (a[af + i] !== b[bf + i]) return false;
  return true;
}

/**
 * The leading members of a line as snapshots write it (`{"id":"…","identityId":"…",…}`), read
 * from the line's bytes (`bytes[start, stop)`): only the values are decoded (as Latin-1, a
 * character per byte, when they are ASCII), nothing else of the line is decoded or parsed, so
 * that a line read costs no string of its own; a value with the same bytes as the line before's
 * (an account's identityId, shared by its identity's accounts) is that line's string again.
 * Null when the line does not begin with them as strings (the caller then parses the line whole).
 */
export function leadingMembers(bytes: Buffer, start: number, stop: number, members: readonly string[], last: LastValue[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  let at = start + 1;
  for (let m = 0; m < members.length; m++) {
    const member = members[m]!;
    // `{` before the first member, `,` before each next one.
    if (bytes[at - 1] !== (at === start + 1 ? 0x7b : 0x2c)) return null;
    const key = keyOf(member);
    if (at + key.length > stop) return null;
    // Compared byte by byte: a key is a dozen bytes, less than a call into Buffer.compare costs.
    for (let k = 0; k < key.length; k++) if (bytes[at + k] !== key[k]) return null;
    const from = at + key.length;
    // The closing quote, and what the value holds besides plain ASCII: 2 when a backslash (an escape), 1 when a byte outside ASCII.
    let end = from;
    let kind = 0;
    for (; end < stop; end++) {
      const b = bytes[end]!;
      if (b === 0x22) break;
      if (b === 0x5c) {
        kind = 2;
        break;
      }
      if (b > 0x7f) kind = 1;
    }
    if (end >= stop) return null;
    let value: string;
    if (kind === 2) {
      // An escape: the string token ends at the first quote not escaped; JSON.parse reads it.
      for (end = from; end < stop && bytes[end] !== 0x22; end++) if (bytes[end] === 0x5c) end++;
      if (end >= stop) return null;
      try {
        value = JSON.parse(bytes.toString('utf8', from - 1, end + 1)) as string;
      } catch {
        return null;
      }
    } else {
      const previous = (last[m] ??= { bytes: null, from: 0, end: 0, value: '' });
      if (previous.bytes !== null && sameBytes(bytes, from, end, previous.bytes, previous.from, previous.end)) value = previous.value;
      else {
        value = bytes.toString(kind === 1 ? 'utf8' : 'latin1', from, end);
        previous.bytes = bytes;
        previous.from = from;
        previous.end = end;
        previous.value = value;
      }
    }
    out[member] = value;
    at = end + 2;
  }
  return out;
}
