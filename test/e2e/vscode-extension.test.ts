// The VS Code extension in editors/vscode, packaged by `npm run package:vscode` with @vscode/vsce
// as a user would package it: the .vsix holds the manifest, the client and its language-client
// library, and the settings it contributes are the ones the server reads.

import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './install.js';

const run = promisify(execFile);
const EXTENSION = join(ROOT, 'editors/vscode');

describe('npm run package:vscode', () => {
  it('packages the extension with its client library, contributing the server\'s settings', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const vsix = join(EXTENSION, `identity-transforms-${version}.vsix`);
    rmSync(vsix, { force: true });
    await run('npm', ['run', 'package:vscode'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const { stdout } = await run('unzip', ['-Z1', vsix], { maxBuffer: 16 * 1024 * 1024 });
    const files = stdout.split('\n');
    expect(files).toEqual(expect.arrayContaining(['extension/package.json', 'extension/extension.js', 'extension/LICENSE.txt', 'extension/node_modules/vscode-languageclient/package.json']));
    const manifest = JSON.parse((await run('unzip', ['-p', vsix, 'extension/package.json'])).stdout) as { main: string; contributes: { configuration: { properties: Record<string, unknown> } } };
    expect(manifest.main).toBe('./extension.js');
    expect(Object.keys(manifest.contributes.configuration.properties)).toEqual(['identityTransforms.fixtures', 'identityTransforms.identity', 'identityTransforms.server']);
    // The client starts the server the way the README and test/e2e/lsp.test.ts do.
    expect((await run('unzip', ['-p', vsix, 'extension/extension.js'])).stdout).toContain("args: ['lsp', '--stdio']");
    rmSync(vsix, { force: true });
  });
});
