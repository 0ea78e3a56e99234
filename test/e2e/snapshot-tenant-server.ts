// The generated tenant's server (snapshot-tenant.ts) in a process of its own: the snapshot tests
// copy the tenant over HTTP, and a server in the test's process took its turns on the one event
// loop with the client it answered. Here it answers on its own loop (and core), its store a
// SQLite file the test opens too to change the tenant. Started with `--import tsx`; the test
// sends "close" and reads the answer.

import { resourceServer } from '../api/resources-server.js';

const [fixtures, db] = process.argv.slice(2) as [string, string];
const server = await resourceServer({ fixtures, db });
process.send!({ baseUrl: await server.listen() });
// Closing checks that every response kept to the API's contract (test/api/helpers.ts): a
// violation goes back to the test, whose close() then fails with it.
process.once('message', () => {
  server.close().then(
    () => process.send!({ closed: true }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(0)),
  );
});
