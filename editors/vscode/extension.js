// The VS Code client of the identity-transforms language server: it starts
// `identity-transforms lsp --stdio` (the workspace's own installation first) for JSON files and
// passes the settings under "identityTransforms". Every answer comes from the server.
'use strict';

const { existsSync } = require('node:fs');
const { join } = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function serverCommand() {
  const configured = vscode.workspace.getConfiguration('identityTransforms').get('server');
  if (configured) return configured;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const local = join(folder.uri.fsPath, 'node_modules', '.bin', process.platform === 'win32' ? 'identity-transforms.cmd' : 'identity-transforms');
    if (existsSync(local)) return local;
  }
  return 'identity-transforms';
}

function activate(context) {
  const command = serverCommand();
  const settings = vscode.workspace.getConfiguration('identityTransforms');
  client = new LanguageClient(
    'identityTransforms',
    'Identity Transforms',
    { command, args: ['lsp', '--stdio'], transport: TransportKind.stdio, options: { shell: process.platform === 'win32' } },
    {
      documentSelector: [{ scheme: 'file', language: 'json' }],
      initializationOptions: { identityTransforms: { fixtures: settings.get('fixtures'), identity: settings.get('identity') } },
      synchronize: { configurationSection: 'identityTransforms' },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
