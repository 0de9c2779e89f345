// Starts `carcassonne-rules lsp` for the rules files of the workspace. Plain
// JavaScript: nothing to compile; yaml-language-server keeps the schemas.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('carcassonneRules').get('server', 'carcassonne-rules');
  client = new LanguageClient(
    'carcassonneRules',
    'Carcassonne rules',
    { command, args: ['lsp'] },
    { documentSelector: [{ scheme: 'file', language: 'yaml', pattern: '**/rules/**/*.{yaml,yml}' }] },
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
