// `identity-transforms serve` (issue 7): serve the platform API over a fixture tenant. When
// ready, exactly one line on stdout: `listening {"baseUrl":…,"loginUrl":…,"nonEmployeeUrl":…}`.
// Logs (pino) and the admin PAT go to stderr, so stdout stays machine-readable.

import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildServer } from '../api/index.js';
import { TransformsError } from '../errors.js';
import { EXIT_OK, UsageError, processOutput, type Output } from './io.js';

export const SERVE_HELP = `Usage: identity-transforms serve --fixtures <dir> [options]

Serve the platform REST API (OAuth, personal access tokens, OAuth clients, the non-employee
service) over a fixture tenant. Prints one line on stdout when ready:
  listening {"baseUrl":"http://127.0.0.1:…","loginUrl":"http://127.0.0.1:…","nonEmployeeUrl":"http://127.0.0.1:…"}

Options:
  --fixtures <dir>               Fixture tenant seeded into a new store
  --db <file>                    SQLite store file (WAL); default in memory. A restart keeps everything
  --port <n>                     API and token port (0 = a free port; default 0)
  --login-port <n>               Login (authorize) port (default 0)
  --nonemployee-port <n>         Non-employee service port (default 0)
  --host <address>               Interface to listen on (default 127.0.0.1)
  --admin-client-id <id>         Use this admin PAT client id (with --admin-client-secret)
  --admin-client-secret <secret> Its secret. Without both, an admin PAT is created on the first
                                 start of a store and its credentials are printed once on stderr
  --nonemployee-api-key <key>    Add a legacy non-employee API key (repeatable; >= 24 characters)
  --tenant-name <name>           Tenant name (org) in tokens and /oauth/info (default local)
  --expires-in <seconds>         Access token lifetime (default 749)
  -h, --help                     Show this help
`;

function port(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65_535) throw new UsageError(`--${name} must be a port number from 0 to 65535, not "${value}"`);
  return n;
}

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} must be a positive integer, not "${value}"`);
  return Number(value);
}

/**
 * Runs until SIGINT/SIGTERM (or `signal` aborts), then closes the listeners and the store and
 * resolves with exit code 0.
 */
export async function serveCommand(argv: string[], io: Output = processOutput, signal?: AbortSignal): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      fixtures: { type: 'string' },
      db: { type: 'string' },
      port: { type: 'string' },
      'login-port': { type: 'string' },
      'nonemployee-port': { type: 'string' },
      host: { type: 'string' },
      'admin-client-id': { type: 'string' },
      'admin-client-secret': { type: 'string' },
      'nonemployee-api-key': { type: 'string', multiple: true },
      'tenant-name': { type: 'string' },
      'expires-in': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(SERVE_HELP);
    return EXIT_OK;
  }
  if (values.fixtures === undefined) throw new UsageError('serve needs --fixtures <dir>');
  if (!existsSync(values.fixtures) || !statSync(values.fixtures).isDirectory()) {
    throw new TransformsError('CLI_READ', `cannot read the fixtures directory ${values.fixtures}`, { details: { file: values.fixtures } });
  }
  const adminId = values['admin-client-id'];
  const adminSecret = values['admin-client-secret'];
  if ((adminId === undefined) !== (adminSecret === undefined)) throw new UsageError('--admin-client-id and --admin-client-secret go together');
  const keys = values['nonemployee-api-key'] ?? [];
  if (keys.some((k) => k.length < 24)) throw new UsageError('--nonemployee-api-key needs at least 24 characters');
  const ports = { port: port('port', values.port), loginPort: port('login-port', values['login-port']), nonEmployeePort: port('nonemployee-port', values['nonemployee-port']) };
  const expiresIn = positive('expires-in', values['expires-in']);

  const server = await buildServer({
    fixtures: values.fixtures,
    ...(values.db === undefined ? {} : { db: values.db }),
    ...(values['tenant-name'] === undefined ? {} : { tenantName: values['tenant-name'] }),
    ...(expiresIn === undefined ? {} : { accessTokenTtlSeconds: expiresIn }),
    nonEmployeeApiKeys: keys,
  });
  // Listen for the signals before saying "listening": a script that stops the server as soon as
  // it reads that line must not find Node's default action (death by the signal) still in place.
  let stop = (): void => {};
  const stopped = new Promise<void>((resolve) => {
    stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
  try {
    const admin = await server.ensureAdminPat(adminId === undefined ? undefined : { clientId: adminId, clientSecret: adminSecret! });
    if (admin.clientSecret !== undefined) {
      io.err(`admin personal access token (shown once, stored hashed) ${JSON.stringify({ clientId: admin.clientId, clientSecret: admin.clientSecret, owner: admin.ownerLogin })}\n`);
    } else if (adminId === undefined) {
      io.err(`admin personal access token ${admin.clientId} (owner ${admin.ownerLogin}) exists; its secret was printed when it was created\n`);
    }
    const urls = await server.listen({ host: values.host, ...ports });
    io.out(`listening ${JSON.stringify({ baseUrl: urls.baseUrl, loginUrl: urls.loginUrl, nonEmployeeUrl: urls.nonEmployeeUrl })}\n`);
  } catch (error) {
    stop();
    await server.close();
    throw error;
  }

  // A signal during start-up stops the server as soon as it has started.
  await stopped;
  await server.close();
  return EXIT_OK;
}
