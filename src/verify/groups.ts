// Differences grouped per attribute (docs/verify.md "Groups"): by the pair (platform, ours)
// where a pair repeats, otherwise by the signature of the edit that turns the platform's value
// into ours. Memory stays bounded whatever the tenant: at most MAX_PAIRS distinct pairs are
// counted per attribute (later new pairs go to their signature group), and each group keeps a
// few examples.

import type { VerifyLine } from '../refresh/stored-comparison.js';

/** Distinct (platform, ours) pairs counted per attribute. */
export const MAX_PAIRS = 1000;
/** Longest suffix or prefix a signature names; a longer one is "different". */
const MAX_AFFIX = 16;

export interface VerifyExample {
  identityId: string;
  identityName: string;
  platform: string | null;
  ours: string | null;
  /** Our evaluation's error code, when it failed. */
  error?: string;
}

export interface DifferenceGroup {
  /** `pair`: every member has the same two values; `signature`: the same kind of edit. */
  by: 'pair' | 'signature';
  /** The edit's signature (for a pair too: what kind of edit the pair is). */
  signature: string;
  /** The pair's values (by pair only). */
  platform?: string | null;
  ours?: string | null;
  count: number;
  examples: VerifyExample[];
}

const quote = (s: string) => JSON.stringify(s);

/**
 * The signature of the edit from the platform's value to ours: `platform null`, `ours null`,
 * `empty on the platform`, `empty here`, `case`, `whitespace`, `ours adds suffix "Z"`,
 * `ours drops suffix "Z"`, the same with prefix, or `different`.
 */
export function editSignature(platform: string | null, ours: string | null): string {
  if (platform === null) return 'platform null';
  if (ours === null) return 'ours null';
  if (platform === '') return 'empty on the platform';
  if (ours === '') return 'empty here';
  if (platform.toLowerCase() === ours.toLowerCase()) return 'case';
  if (platform.replace(/\s+/g, '') === ours.replace(/\s+/g, '')) return 'whitespace';
  if (ours.startsWith(platform) && ours.length - platform.length <= MAX_AFFIX) return `ours adds suffix ${quote(ours.slice(platform.length))}`;
  if (platform.startsWith(ours) && platform.length - ours.length <= MAX_AFFIX) return `ours drops suffix ${quote(platform.slice(ours.length))}`;
  if (ours.endsWith(platform) && ours.length - platform.length <= MAX_AFFIX) return `ours adds prefix ${quote(ours.slice(0, ours.length - platform.length))}`;
  if (platform.endsWith(ours) && platform.length - ours.length <= MAX_AFFIX) return `ours drops prefix ${quote(platform.slice(0, platform.length - ours.length))}`;
  return 'different';
}

function example(line: VerifyLine): VerifyExample {
  return { identityId: line.identityId, identityName: line.identityName, platform: line.platform, ours: line.ours, ...(line.error !== undefined ? { error: line.error } : {}) };
}

interface Pair {
  platform: string | null;
  ours: string | null;
  count: number;
  examples: VerifyExample[];
}

/** The differences of one attribute, grouped as they arrive. */
export class AttributeGroups {
  private readonly pairs = new Map<string, Pair>();
  private readonly signatures = new Map<string, { count: number; examples: VerifyExample[] }>();

  constructor(private readonly examples: number) {}

  add(line: VerifyLine): void {
    const key = JSON.stringify([line.platform, line.ours]);
    const pair = this.pairs.get(key);
    if (pair !== undefined) {
      pair.count++;
      if (pair.examples.length < this.examples) pair.examples.push(example(line));
    } else if (this.pairs.size < MAX_PAIRS) {
      this.pairs.set(key, { platform: line.platform, ours: line.ours, count: 1, examples: this.examples > 0 ? [example(line)] : [] });
    } else {
      this.addToSignature(editSignature(line.platform, line.ours), 1, [example(line)]);
    }
  }

  private addToSignature(signature: string, count: number, examples: VerifyExample[]): void {
    let group = this.signatures.get(signature);
    if (group === undefined) this.signatures.set(signature, (group = { count: 0, examples: [] }));
    group.count += count;
    for (const e of examples) if (group.examples.length < this.examples) group.examples.push(e);
  }

  /** The groups, largest first (ties: pairs before signatures, then by signature). */
  groups(): DifferenceGroup[] {
    const out: DifferenceGroup[] = [];
    for (const pair of this.pairs.values()) {
      const signature = editSignature(pair.platform, pair.ours);
      if (pair.count > 1) out.push({ by: 'pair', signature, platform: pair.platform, ours: pair.ours, count: pair.count, examples: pair.examples });
      else this.addToSignature(signature, pair.count, pair.examples);
    }
    this.pairs.clear();
    for (const [signature, group] of this.signatures) out.push({ by: 'signature', signature, count: group.count, examples: group.examples });
    this.signatures.clear();
    return out.sort((a, b) => b.count - a.count || (a.by === b.by ? 0 : a.by === 'pair' ? -1 : 1) || a.signature.localeCompare(b.signature));
  }
}
