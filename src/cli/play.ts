// `identity-transforms play --fixtures <dir>`: the playground — a page on loopback where a
// transform is edited and evaluated live for an identity of a fixture or snapshot directory
// (src/play/). It prints the page's URL, whose token every API call must carry, and serves
// until SIGINT or SIGTERM. It loads nothing of the platform API's server.

import { existsSync, statSync } from 'node:fs';
import { EXIT_OK, UsageError, integerOption, parseCommandLine, type Output } from './io.js';
import { listenError } from './listen.js';

export const PLAY_HELP = `Usage: identity-transforms play --fixtures <dir> [--port <n>] [--impact-time <s>] [--impact-memory <MB>]

Serve the playground on 127.0.0.1: edit a transform or identity profile with diagnostics and
completion, pick an identity, and see the value as you type with its explanation, every
attribute of the profile, and the impact of the edit on every identity. It prints the page's
URL, with a token every call of its API must carry; open it in a browser on this machine.

Options:
  --fixtures <dir>   A fixture or snapshot directory (sources.json, identities.json,
                     accounts.json, transforms/, identity-profiles/) (required)
  --port <n>         The port on 127.0.0.1 (default: any free port)
  --impact-time <s>  Seconds an impact run of the page may take (default 60)
  --impact-memory <MB>
                     MB of heap an impact run of the page may take (default 512)
  -h, --help         Show this help
`;

export async function playCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseCommandLine('play', {
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { fixtures: { type: 'string' }, port: { type: 'string' }, 'impact-time': { type: 'string' }, 'impact-memory': { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    io.out(PLAY_HELP);
    return EXIT_OK;
  }
  if (positionals.length > 0) throw new UsageError(`play takes no arguments (got "${positionals[0]}")`);
  if (values.fixtures === undefined) throw new UsageError('play needs --fixtures <dir> (a fixture or snapshot directory)');
  if (!existsSync(values.fixtures) || !statSync(values.fixtures).isDirectory()) throw new UsageError(`--fixtures ${values.fixtures} is not a directory`);
  const port = values.port === undefined ? 0 : integerOption('port', values.port, 0, 65535);
  const [{ PlayHost }, { startPlayServer }, { DEFAULT_IMPACT_BUDGET }] = await Promise.all([import('../play/host.js'), import('../play/server.js'), import('../play/impact-process.js')]);
  const impactBudget = {
    maxTime: values['impact-time'] === undefined ? DEFAULT_IMPACT_BUDGET.maxTime : integerOption('impact-time', values['impact-time'], 1, 86_400) * 1000,
    maxHeapMb: values['impact-memory'] === undefined ? DEFAULT_IMPACT_BUDGET.maxHeapMb : integerOption('impact-memory', values['impact-memory'], 64, 65_536),
  };
  const host = await PlayHost.open(values.fixtures, { impactBudget });
  const server = await startPlayServer(host, { port }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, '127.0.0.1', port, '--port');
  });
  // Listen for the signals before printing the URL: a script that stops the playground as soon
  // as it reads the URL must not find Node's default action (death by the signal) still in place.
  const stopped = new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.close().then(() => resolve(EXIT_OK));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  io.out(`Playground of ${values.fixtures} (${host.tenant.identities.length} identities): open\n  ${server.url}\n`);
  return stopped;
}
