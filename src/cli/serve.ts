// `identity-transforms serve`: serve the platform API over a fixture tenant. When ready,
// exactly one line on stdout: `listening {"baseUrl":…,"loginUrl":…,"nonEmployeeUrl":…}`. The log
// (one line per request, serve-log.ts) and the admin PAT go to stderr, so stdout stays
// machine-readable. Ports are checked before the store is opened, so a port in use fails before
// anything is created or printed.

import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { Store, buildServer } from '../api/index.js';
import { MAX_INTEGER_OPTION } from '../api/options.js';
import { TransformsError } from '../errors/index.js';
import { EXIT_OK, integerOption, UsageError, processOutput, type Output, parseCommandLine } from './io.js';
import { listenError } from './listen.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel, serveLogger } from './serve-log.js';

export const SERVE_HELP = `Usage: identity-transforms serve --fixtures <dir> [options]
       identity-transforms serve --db <existing store> [options]

Serve the platform REST API (OAuth, personal access tokens, OAuth clients, the non-employee
service) over a fixture tenant. Prints one line on stdout when ready:
  listening {"baseUrl":"http://127.0.0.1:…","loginUrl":"http://127.0.0.1:…","nonEmployeeUrl":"http://127.0.0.1:…"}

Options:
  --fixtures <dir>               Fixture tenant seeded into a new store (not needed, and ignored,
                                 when --db names an existing store)
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
  --log-level <level>            silent, error, warn, info (default: one line per request) or debug
  --log-format <format>          text (default, for a person) or json (pino JSON lines)
  -h, --help                     Show this help

Endpoints (each service under /<service>/v1/… and /v3/<service>/…; docs/api.md lists them all):
  baseUrl         OAuth (POST /oauth/token, GET /oauth/info), OAuth clients, personal access
                  tokens, public identities, accounts, account activities, sources, transforms,
                  identity profiles and their identity preview, search, GET /openapi.json
  loginUrl        the login page: GET/POST /oauth/authorize, GET /logout
  nonEmployeeUrl  non-employee sources (GET /api/v2025/non-employee-sources)

Exit codes: 0 stopped by SIGINT or SIGTERM (listeners and store closed); 1 the server failed;
2 usage error, or a --db or --fixtures that cannot be used.
`;

function port(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65_535) throw new UsageError(`--${name} must be a port number from 0 to 65535, not "${value}"`);
  return n;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, not "${value}"`);
  return value as T;
}

/** Bind and release each port, so that a port in use is reported before the store is touched. */
async function checkPorts(host: string, ports: [flag: string, port: number | undefined][]): Promise<void> {
  const fixed = ports.filter(([, p]) => p !== undefined && p !== 0);
  for (let i = 0; i < fixed.length; i++) {
    const same = fixed.findIndex(([, p]) => p === fixed[i]![1]);
    if (same !== i) throw new UsageError(`${fixed[same]![0]} and ${fixed[i]![0]} name the same port ${fixed[i]![1]}; the three listeners need three ports`);
  }
  for (const [flag, p] of ports) {
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, p ?? 0, flag)));
      probe.listen({ host, port: p ?? 0, exclusive: true }, () => probe.close(() => resolve()));
    });
  }
}

/**
 * Runs until SIGINT/SIGTERM (or `signal` aborts), then closes the listeners and the store and
 * resolves with exit code 0.
 */
export async function serveCommand(argv: string[], io: Output = processOutput, signal?: AbortSignal): Promise<number> {
  const { values } = parseCommandLine('serve', {
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
      'log-level': { type: 'string' },
      'log-format': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.out(SERVE_HELP);
    return EXIT_OK;
  }
  const db = values.db;
  // What --db names: nothing (in memory), no file yet, a store, an empty file, or something else.
  const dbState = db === undefined ? 'memory' : !existsSync(db) ? 'missing' : Store.holdsStore(db) ? 'store' : statSync(db).size === 0 ? 'empty' : 'foreign';
  if (values.fixtures === undefined) {
    if (db === undefined) throw new UsageError('serve needs --fixtures <dir> to seed a new store, or --db <file> naming an existing store');
    if (dbState === 'missing') throw new TransformsError('CLI_STORE', `there is no store at ${db}; add --fixtures <dir> to create it`, { details: { store: db } });
    if (dbState !== 'store') throw new TransformsError('CLI_STORE', `${db} is not a store of identity-transforms serve; add --fixtures <dir> to create one in a new file`, { details: { store: db } });
  } else {
    if (!existsSync(values.fixtures) || !statSync(values.fixtures).isDirectory()) {
      throw new TransformsError('CLI_READ', `cannot read the fixtures directory ${values.fixtures}`, { details: { file: values.fixtures } });
    }
    // Another program's file is never turned into a store.
    if (dbState === 'foreign') throw new TransformsError('CLI_STORE', `${db} is not a store of identity-transforms serve and is left as it is; name a new file`, { details: { store: db } });
  }
  const adminId = values['admin-client-id'];
  const adminSecret = values['admin-client-secret'];
  if ((adminId === undefined) !== (adminSecret === undefined)) throw new UsageError('--admin-client-id and --admin-client-secret go together');
  const keys = values['nonemployee-api-key'] ?? [];
  if (keys.some((k) => k.length < 24)) throw new UsageError('--nonemployee-api-key needs at least 24 characters');
  const ports = { port: port('port', values.port), loginPort: port('login-port', values['login-port']), nonEmployeePort: port('nonemployee-port', values['nonemployee-port']) };
  const expiresIn = values['expires-in'] === undefined ? undefined : integerOption('expires-in', values['expires-in'], 1, MAX_INTEGER_OPTION);
  const logLevel = oneOf<LogLevel>('log-level', values['log-level'], LOG_LEVELS, 'info');
  const logFormat = oneOf<LogFormat>('log-format', values['log-format'], LOG_FORMATS, 'text');
  const host = values.host ?? '127.0.0.1';
  await checkPorts(host, [['--port', ports.port], ['--login-port', ports.loginPort], ['--nonemployee-port', ports.nonEmployeePort]]);

  const existing = dbState === 'store' && values.fixtures !== undefined;
  const server = await buildServer({
    ...(values.fixtures === undefined || existing ? {} : { fixtures: values.fixtures }),
    ...(db === undefined ? {} : { db }),
    logger: serveLogger(logLevel, logFormat, io.err),
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
    if (existing) io.err(`${db} holds a store: --fixtures ${values.fixtures} is not seeded again\n`);
    let urls;
    try {
      urls = await server.listen({ host, ...ports });
    } catch (error) {
      // Only when another process took a port between the check and now.
      const e = error as NodeJS.ErrnoException & { port?: number };
      throw typeof e.code === 'string' && e.code.startsWith('E') ? listenError(e, host, e.port ?? 0, 'a --port flag') : error;
    }
    const admin = await server.ensureAdminPat(adminId === undefined ? undefined : { clientId: adminId, clientSecret: adminSecret! });
    if (admin.clientSecret !== undefined) {
      io.err(`admin personal access token (shown once, stored hashed) ${JSON.stringify({ clientId: admin.clientId, clientSecret: admin.clientSecret, owner: admin.ownerLogin })}\n`);
    } else if (adminId === undefined) {
      io.err(`admin personal access token ${admin.clientId} (owner ${admin.ownerLogin}) exists; its secret was printed when it was created\n`);
    }
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
