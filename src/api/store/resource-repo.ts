// Tenant resources in the store (https://developer.sailpoint.com/docs/api/v3/): sources, identities,
// accounts, transforms and identity profiles. Each row keeps the full JSON document; the
// columns beside it exist for filtering, sorting and joins (the collection endpoints build on them).

import type { Database, Statement } from 'better-sqlite3';

export type ResourceKind = 'sources' | 'identities' | 'accounts' | 'transforms' | 'identity_profiles';

export type Doc = Record<string, unknown> & { id: string };

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** Column values for each resource table, derived from its document. */
const COLUMNS: Record<ResourceKind, (d: Doc) => Record<string, unknown>> = {
  sources: (d) => ({ name: str(d.name) ?? d.id, type: str(d.type), created: str(d.created), modified: str(d.modified) }),
  identities: (d) => ({ name: str(d.name) ?? d.id, manager_id: str(d.managerId) }),
  accounts: (d) => ({
    identity_id: str(d.identityId) ?? '',
    source_id: str(d.sourceId) ?? '',
    native_identity: str(d.nativeIdentity) ?? '',
    name: str(d.name) ?? '',
    created: str(d.created) ?? '',
    has_entitlements: d.hasEntitlements === true ? 1 : 0,
  }),
  transforms: (d) => ({ name: str(d.name) ?? d.id, type: str(d.type) ?? '', internal: d.internal === true ? 1 : 0 }),
  identity_profiles: (d) => ({ name: str(d.name) ?? d.id }),
};

export class ResourceRepo {
  readonly #db: Database;
  readonly #upsert = new Map<ResourceKind, Statement>();
  readonly #get = new Map<ResourceKind, Statement>();
  readonly #list = new Map<ResourceKind, Statement>();
  readonly #delete = new Map<ResourceKind, Statement>();
  readonly #count = new Map<ResourceKind, Statement>();

  constructor(db: Database) {
    this.#db = db;
    for (const kind of Object.keys(COLUMNS) as ResourceKind[]) {
      const cols = Object.keys(COLUMNS[kind]({ id: '' }));
      const all = ['id', ...cols, 'doc'];
      this.#upsert.set(
        kind,
        db.prepare(
          `INSERT INTO ${kind} (${all.join(', ')}) VALUES (${all.map((c) => '@' + c).join(', ')})
           ON CONFLICT (id) DO UPDATE SET ${[...cols, 'doc'].map((c) => `${c} = excluded.${c}`).join(', ')}`,
        ),
      );
      this.#get.set(kind, db.prepare(`SELECT doc FROM ${kind} WHERE id = ?`));
      this.#list.set(kind, db.prepare(`SELECT doc FROM ${kind} ORDER BY id LIMIT ? OFFSET ?`));
      this.#delete.set(kind, db.prepare(`DELETE FROM ${kind} WHERE id = ?`));
      this.#count.set(kind, db.prepare(`SELECT count(*) AS n FROM ${kind}`));
    }
  }

  /** Insert or replace one document (its `id` is the key). */
  put(kind: ResourceKind, doc: Doc): void {
    this.#upsert.get(kind)!.run({ id: doc.id, ...COLUMNS[kind](doc), doc: JSON.stringify(doc) });
  }

  get(kind: ResourceKind, id: string): Doc | null {
    const row = this.#get.get(kind)!.get(id) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as Doc) : null;
  }

  /** Documents in id order (stable paging). */
  list(kind: ResourceKind, limit = -1, offset = 0): Doc[] {
    return (this.#list.get(kind)!.all(limit, offset) as { doc: string }[]).map((r) => JSON.parse(r.doc) as Doc);
  }

  count(kind: ResourceKind): number {
    return (this.#count.get(kind)!.get() as { n: number }).n;
  }

  delete(kind: ResourceKind, id: string): boolean {
    return this.#delete.get(kind)!.run(id).changes > 0;
  }

  /** Put many documents in one transaction (seeding). */
  putAll(kind: ResourceKind, docs: readonly Doc[]): void {
    this.#db.transaction(() => {
      for (const d of docs) this.put(kind, d);
    })();
  }
}
