// The shape of a tenant (identity-transforms/testing): which sources exist, which identity and
// account attribute keys occur, what kinds of value each holds (null, lists, numbers, dates in one
// format, names), so that the arbitraries generate records a transform written for that tenant will
// meet. Derived from a fixture once; never from a schema.

import type { Account, Identity, Source, TransformDocument } from '../providers/types.js';
import { generateIdentities, generateSources } from './generator/index.js';

/** The kinds a value takes in the fixture format. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'null' | 'list';

/** What the strings of one attribute look like (decides how new ones are made). */
export type StringFormat =
  | 'first-name'
  | 'last-name'
  | 'full-name'
  | 'user-name'
  | 'email'
  | 'iso-date-time'
  | 'date-ymd'
  | 'date-mdy'
  | 'digits'
  | 'text';

export interface AttributeShape {
  /** Every kind the attribute was seen with (`null` when it was null at least once). */
  readonly kinds: readonly ValueKind[];
  /** Some records lack the key altogether. */
  readonly optional: boolean;
  /** How its strings (and the strings inside its lists) are made. */
  readonly format: StringFormat;
  /** Up to 24 distinct strings seen (list elements included), in first-seen order. */
  readonly examples: readonly string[];
  /** Range of its numbers, when it had any, and whether they were all integers. */
  readonly numbers: { readonly min: number; readonly max: number; readonly integers: boolean } | null;
  /** Longest list seen (0 when never a list). */
  readonly maxItems: number;
}

export interface SourceShape {
  readonly source: Source;
  /** Account attribute keys seen on the source. */
  readonly attributes: Readonly<Record<string, AttributeShape>>;
  /** Most accounts one identity has on the source (at least 1). */
  readonly maxAccounts: number;
}

export interface TenantShape {
  readonly sources: readonly SourceShape[];
  readonly identityAttributes: Readonly<Record<string, AttributeShape>>;
  /** Identities a generated identity may name as its manager (ids that exist in the tenant). */
  readonly managerIds: readonly string[];
}

/** The records a shape is derived from: what `loadFixtures` returns, or a part of it. */
export interface TenantRecords {
  readonly sources: readonly Source[];
  readonly identities: readonly Identity[];
  readonly accounts: readonly Account[];
  /** Its named transforms (arbitraryTransform's `reference` names them). */
  readonly transforms?: readonly TransformDocument[];
}

const MAX_EXAMPLES = 24;
const MAX_MANAGERS = 64;

const FORMAT_TESTS: readonly (readonly [StringFormat, RegExp])[] = [
  ['iso-date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/],
  ['date-ymd', /^\d{4}-\d{2}-\d{2}$/],
  ['date-mdy', /^\d{2}\/\d{2}\/\d{4}$/],
  ['digits', /^\d+$/],
  ['email', /^[^@\s]+@[^@\s]+\.[^@\s]+$/],
];

/** Name-like keys, by the conventions of HR and directory schemas (firstname, FIRST_NAME, givenName, sn, …). */
const NAME_KEYS: readonly (readonly [StringFormat, RegExp])[] = [
  ['first-name', /^(first|given|preferred)[ _-]?name$/i],
  ['last-name', /^((last|family|sur)[ _-]?name|sn)$/i],
  ['full-name', /^(display|full)[ _-]?name$/i],
  ['user-name', /^(uid|user[ _-]?name|sAMAccountName)$/i],
];

function kindOf(value: unknown): ValueKind {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

class AttributeStats {
  readonly kinds = new Set<ValueKind>();
  readonly strings = new Set<string>();
  readonly formats = new Map<StringFormat, number>();
  stringCount = 0;
  seen = 0;
  min = Infinity;
  max = -Infinity;
  integers = true;
  maxItems = 0;

  add(value: unknown): void {
    this.seen++;
    this.kinds.add(kindOf(value));
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'number') {
        this.min = Math.min(this.min, item);
        this.max = Math.max(this.max, item);
        this.integers &&= Number.isInteger(item);
      } else if (typeof item === 'string') {
        this.stringCount++;
        if (this.strings.size < MAX_EXAMPLES) this.strings.add(item);
        const format = FORMAT_TESTS.find(([, re]) => re.test(item))?.[0] ?? 'text';
        this.formats.set(format, (this.formats.get(format) ?? 0) + 1);
      }
    }
    if (Array.isArray(value)) this.maxItems = Math.max(this.maxItems, value.length);
  }

  shape(key: string, records: number): AttributeShape {
    return Object.freeze({
      kinds: Object.freeze([...this.kinds].sort()),
      optional: this.seen < records,
      format: this.format(key),
      examples: Object.freeze([...this.strings]),
      numbers: this.min <= this.max ? Object.freeze({ min: this.min, max: this.max, integers: this.integers }) : null,
      maxItems: this.maxItems,
    });
  }

  /** A name-like key names its format; otherwise the one format every string has, else text. */
  private format(key: string): StringFormat {
    const byKey = NAME_KEYS.find(([, re]) => re.test(key))?.[0];
    if (byKey !== undefined) return byKey;
    const [only] = this.formats.keys();
    return this.formats.size === 1 && only !== undefined ? only : 'text';
  }
}

function attributeShapes(records: readonly { attributes?: Record<string, unknown> | null }[]): Record<string, AttributeShape> {
  const stats = new Map<string, AttributeStats>();
  for (const record of records) {
    for (const [key, value] of Object.entries(record.attributes ?? {})) {
      let s = stats.get(key);
      if (s === undefined) stats.set(key, (s = new AttributeStats()));
      s.add(value);
    }
  }
  return Object.freeze(Object.fromEntries([...stats].map(([key, s]) => [key, s.shape(key, records.length)])));
}

/** The shape of a tenant: its sources with their account keys, its identity keys, its managers. */
export function fixtureShape(tenant: TenantRecords): TenantShape {
  const sources = tenant.sources.map((source): SourceShape => {
    const accounts = tenant.accounts.filter((a) => a.sourceId === source.id);
    const perIdentity = new Map<string, number>();
    let maxAccounts = 1;
    for (const a of accounts) {
      const n = (perIdentity.get(a.identityId) ?? 0) + 1;
      perIdentity.set(a.identityId, n);
      maxAccounts = Math.max(maxAccounts, n);
    }
    return Object.freeze({ source, attributes: attributeShapes(accounts), maxAccounts });
  });
  return Object.freeze({
    sources: Object.freeze(sources),
    identityAttributes: attributeShapes(tenant.identities),
    managerIds: Object.freeze(tenant.identities.slice(0, MAX_MANAGERS).map((i) => i.id)),
  });
}

/**
 * The shape used when no fixture is given: that of a small tenant from the synthetic tenant
 * generator (the bundled fixtures' six sources and keys), so the default and the bundled
 * fixtures agree. No manager ids: the generated tenant's identities are not in any provider.
 * Derived on each call (a few milliseconds; arbitraries call it once, when they are built).
 */
export function defaultShape(): TenantShape {
  const seed = 'identity-transforms/testing';
  const identities: Identity[] = [];
  const accounts: Account[] = [];
  for (const g of generateIdentities({ identities: 60, seed })) {
    identities.push(g.identity);
    accounts.push(...g.accounts);
  }
  const shape = fixtureShape({ sources: generateSources(seed), identities, accounts });
  return Object.freeze({ ...shape, managerIds: Object.freeze([]) });
}

/** A shape, or the records to derive one from, or nothing (the default shape). */
export type ShapeInput = TenantShape | TenantRecords | undefined;

export function resolveShape(input: ShapeInput): TenantShape {
  if (input === undefined) return defaultShape();
  return 'identityAttributes' in input ? input : fixtureShape(input);
}
