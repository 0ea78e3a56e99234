// The commands whose packages are optional peer dependencies: a missing one is CLI_MISSING_PEER
// with the npm command that installs exactly the missing ones, at the ranges package.json gives.
// (test/e2e/light-install.test.ts runs `serve` in a project that really lacks them.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_PEERS, requirePeers } from '../../src/cli/peers.js';
import { isTransformsError } from '../../src/errors/index.js';

const PKG = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('requirePeers', () => {
  it('passes when every package serve needs resolves (they are dev dependencies here)', () => {
    expect(() => requirePeers('serve')).not.toThrow();
  });

  it('names the missing packages and the npm install command for them', () => {
    const error = thrown(() => requirePeers('serve', (name) => name !== 'better-sqlite3' && name !== 'jose'));
    expect(isTransformsError(error) && error.code).toBe('CLI_MISSING_PEER');
    expect((error as Error).message).toBe(
      `serve needs better-sqlite3, jose, optional peer dependencies of identity-transforms that are not installed: run npm install 'better-sqlite3@${PKG.peerDependencies['better-sqlite3']}' 'jose@${PKG.peerDependencies.jose}'`,
    );
  });

  it('asks nothing of a command without peers', () => {
    expect(() => requirePeers('validate', () => false)).not.toThrow();
  });
});

describe("package.json's optional peers", () => {
  it('are every package a command needs, optional, out of the runtime dependencies, and dev dependencies for our own tests', () => {
    for (const name of Object.values(COMMAND_PEERS).flat()) {
      expect(PKG.peerDependencies[name], name).toBeDefined();
      expect(PKG.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(PKG.dependencies[name], name).toBeUndefined();
      expect(PKG.devDependencies[name], name).toBe(PKG.peerDependencies[name]);
    }
    expect(PKG.dependencies['@types/better-sqlite3']).toBeUndefined();
  });
});
