// The set-up the API test files share, as vitest hooks of the suite that calls it:
// - withResourceServer(): a server over the bundled tenant (resources-server.ts) for the
//   suite, with an admin token, closed after it;
// - describeEachStore(): the suite run twice, over an in-memory store and over a store file
//   (`serve --db`), for statements that must hold with both back ends.
// (Kept apart from resources-server.ts, which the benchmarks import: vitest cannot be imported
// outside its runner.)

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import type { ServerOptions } from '../../src/api/index.js';
import { ADMIN_PAT, resourceServer, tokenOf, type ResourceServer } from './resources-server.js';

export interface Session {
  /** The suite's server (set in beforeAll). */
  readonly server: ResourceServer;
  /** `Authorization: Bearer …` of the admin PAT's token. */
  readonly auth: Record<string, string>;
  /** The `Authorization` header of a token for another PAT or client. */
  bearer(client: { id: string; secret: string }): Promise<Record<string, string>>;
}

/** Open a resource server before the suite's tests and close it after them. */
export function withResourceServer(options: ServerOptions = {}): Session {
  let server: ResourceServer | undefined;
  let auth: Record<string, string> | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite server is used before its beforeAll ran');
    return value;
  };
  const session: Session = {
    get server() {
      return ready(server);
    },
    get auth() {
      return ready(auth);
    },
    bearer: async (client) => ({ authorization: `Bearer ${await tokenOf(ready(server), client)}` }),
  };
  beforeAll(async () => {
    server = await resourceServer(options);
    auth = await session.bearer(ADMIN_PAT);
  });
  afterAll(() => server?.close());
  return session;
}

/** Declare the suite twice: `in memory` (db undefined) and `with --db` (a store file in a scratch directory). */
export function describeEachStore(suite: (db: string | undefined) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'api-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  describe.each<[string, string | undefined]>([
    ['in memory', undefined],
    ['with --db', join(dir, 'store.sqlite')],
  ])('%s', (_label, db) => suite(db));
}
