// The packages some commands need beyond the engine's: optional peer dependencies of this
// package (package.json peerDependencies, peerDependenciesMeta optional), so that a project that
// only validates, evaluates or runs impact installs none of them. A command that needs them checks
// at its edge, before loading its module, and names exactly what to install.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TransformsError } from '../errors/index.js';
import { packageManifest } from './io.js';

/** The optional peer dependencies each command needs. */
export const COMMAND_PEERS: Readonly<Record<string, readonly string[]>> = {
  serve: ['fastify', '@fastify/formbody', '@fastify/multipart', '@fastify/rate-limit', 'better-sqlite3', 'jose', 'pino'],
  // The MCP SDK brings an HTTP stack of its own (express, hono, jose) that no editor or CI job needs.
  mcp: ['@modelcontextprotocol/sdk'],
};

/**
 * Whether package `name` is installed where Node looks for it from this module: a
 * node_modules/<name> folder in this directory or one above. The folder, not an entry point: a
 * package may export only sub-paths.
 */
function installed(name: string): boolean {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * Throws CLI_MISSING_PEER when a package `command` needs is not installed, its message the npm
 * command that installs the missing ones at the versions this release supports.
 */
export function requirePeers(command: string, isInstalled: (name: string) => boolean = installed): void {
  const missing = (COMMAND_PEERS[command] ?? []).filter((name) => !isInstalled(name));
  if (missing.length === 0) return;
  const ranges = packageManifest().peerDependencies;
  const install = missing.map((name) => `'${name}@${ranges[name] ?? 'latest'}'`).join(' ');
  throw new TransformsError(
    'CLI_MISSING_PEER',
    `${command} needs ${missing.join(', ')}, optional peer dependencies of identity-transforms that are not installed: run npm install ${install}`,
    { details: { command, missing } },
  );
}
