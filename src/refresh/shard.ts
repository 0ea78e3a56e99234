// `--shard i/n`, one refresh spread over many machines: a deterministic partition of identities by
// a stable hash of the identity id, so that n machines each refreshing shard 0…n-1 cover every
// identity exactly once, whatever order the identities are listed in.

import { codedError } from '../errors/index.js';

export interface Shard {
  /** 0-based shard number, 0 ≤ index < count. */
  index: number;
  count: number;
}

/**
 * 32-bit FNV-1a over the UTF-8 bytes of the id. Chosen because it is tiny, well known and easy
 * to reproduce in any language (a shell script or a SQL query can assign shards the same way).
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  // ASCII (every id gen:tenant and the platform write) is its own UTF-8: no encoding, no allocation.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return fnv1a32Bytes(Buffer.from(text, 'utf8'));
    hash ^= c;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function fnv1a32Bytes(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    hash ^= bytes[i]!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The shard (0 … count-1) an identity id belongs to. */
export function shardOf(identityId: string, count: number): number {
  return count <= 1 ? 0 : fnv1a32(identityId) % count;
}

/** Parse "i/n" (0 ≤ i < n). A malformed value is a REFRESH_OPTION_INVALID error. */
export function parseShard(text: string): Shard {
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(text);
  if (!m) throw codedError('REFRESH_OPTION_INVALID', `--shard must look like i/n (for example 0/4), not "${text}"`, { details: { option: 'shard' } });
  return checkShard({ index: Number(m[1]), count: Number(m[2]) });
}

export function checkShard(shard: Shard): Shard {
  const { index, count } = shard;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw codedError('REFRESH_OPTION_INVALID', `the shard count must be a positive integer, got ${String(count)}`, { details: { option: 'shard' } });
  }
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw codedError('REFRESH_OPTION_INVALID', `the shard index must be from 0 to ${count - 1}, got ${String(index)}`, { details: { option: 'shard' } });
  }
  return Object.freeze({ index, count });
}
