// Where the managers are in identities.json (memory must stay flat whatever the tenant size): a
// million-identity tenant has about 140,000 managers, and a Map of their ids costs about 14 MB of
// heap, which V8 multiplies by its heap growth factor. This index keeps 53-bit hashes of the ids
// with the byte ranges, sorted, in typed arrays (24 bytes per manager, off the heap); a lookup
// reads the candidates with pread and compares their real id, so hash collisions cost a read, never
// a wrong manager. Frozen, the arrays live in shared memory: worker threads look managers up in the
// same index, which a message passes by reference.

import { readSync } from 'node:fs';
import { fnv1a32 } from '../shard.js';

/** FNV-1a (32 bits, UTF-8) and a 21-bit multiplicative hash of the UTF-16 code units: 53 bits, exact in a double. */
export function hash53(text: string): number {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = Math.imul(h, 33) ^ text.charCodeAt(i);
  return fnv1a32(text) * 0x200000 + ((h >>> 0) & 0x1fffff);
}

/** A frozen index as plain data: typed arrays over shared memory, cheap to post to a worker. */
export interface SharedManagerIndex {
  hashes: Float64Array<ArrayBufferLike>;
  offsets: Float64Array<ArrayBufferLike>;
  lengths: Uint32Array<ArrayBufferLike>;
}

export class ManagerIndex {
  private hashes: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private offsets: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private lengths: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private building: { hash: number[]; offset: number[]; length: number[] } | null = { hash: [], offset: [], length: [] };

  /** A frozen index over the arrays of another's shared() (in a worker thread). */
  static fromShared(data: SharedManagerIndex): ManagerIndex {
    const index = new ManagerIndex();
    index.hashes = data.hashes;
    index.offsets = data.offsets;
    index.lengths = data.lengths;
    index.building = null;
    return index;
  }

  get size(): number {
    return this.building ? this.building.hash.length : this.hashes.length;
  }

  add(id: string, offset: number, length: number): void {
    this.addHashed(hash53(id), offset, length);
  }

  /** Add a candidate by the hash53 of its id. */
  addHashed(hash: number, offset: number, length: number): void {
    const b = this.building!;
    b.hash.push(hash);
    b.offset.push(offset);
    b.length.push(length);
  }

  /** Sort into typed arrays; no more adds. */
  freeze(): void {
    const b = this.building!;
    const order = Array.from(b.hash.keys()).sort((x, y) => b.hash[x]! - b.hash[y]! || b.offset[x]! - b.offset[y]!);
    this.hashes = new Float64Array(new SharedArrayBuffer(order.length * 8));
    this.offsets = new Float64Array(new SharedArrayBuffer(order.length * 8));
    this.lengths = new Uint32Array(new SharedArrayBuffer(order.length * 4));
    order.forEach((from, to) => {
      this.hashes[to] = b.hash[from]!;
      this.offsets[to] = b.offset[from]!;
      this.lengths[to] = b.length[from]!;
    });
    this.building = null;
  }

  /** The frozen arrays, to rebuild this index in another thread with fromShared(). */
  shared(): SharedManagerIndex {
    if (this.building) throw new Error('ManagerIndex.shared() before freeze()');
    return { hashes: this.hashes, offsets: this.offsets, lengths: this.lengths };
  }

  /**
   * The manager's JSON text, read from `fd`, or null. `idOf` extracts the id of a candidate's
   * text (to tell colliding hashes apart).
   */
  read(fd: number, id: string, idOf: (text: string) => string): string | null {
    const h = hash53(id);
    let lo = 0;
    let hi = this.hashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.hashes[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.hashes.length && this.hashes[i] === h; i++) {
      const buffer = Buffer.allocUnsafe(this.lengths[i]!);
      readSync(fd, buffer, 0, buffer.length, this.offsets[i]!);
      const text = buffer.toString('utf8');
      if (idOf(text) === id) return text;
    }
    return null;
  }
}
