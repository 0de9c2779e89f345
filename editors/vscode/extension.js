// Starts `carcassonne-rules lsp` for each rules folder that an open YAML file
// is in (rules-root.js), one client per folder. Plain JavaScript: nothing to
// compile; yaml-language-server keeps the schemas.
const path = require('path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { rulesRoot } = require('./rules-root');

/** The clients by rules folder. */
const clients = new Map();

/** A glob matching `dir`'s YAML files, its own glob characters escaped. */
function filesOf(dir) {
  const literal = dir.split(path.sep).join('/').replace(/[[\]{}()*?!]/g, (c) => `[${c}]`);
  return `${literal}/**/*.{yaml,yml}`;
}

function startFor(document) {
  if (document.languageId !== 'yaml' || document.uri.scheme !== 'file') return;
  const root = rulesRoot(document.uri.fsPath);
  if (!root || clients.has(root)) return;
  const command = vscode.workspace.getConfiguration('carcassonneRules').get('server', 'carcassonne-rules');
  const client = new LanguageClient(
    'carcassonneRules',
    'Carcassonne rules',
    { command, args: ['lsp'] },
    {
      documentSelector: [{ scheme: 'file', language: 'yaml', pattern: filesOf(root) }],
      workspaceFolder: { uri: vscode.Uri.file(root), name: path.basename(root), index: 0 },
    },
  );
  clients.set(root, client);
  client.start();
}

function activate(context) {
  vscode.workspace.textDocuments.forEach(startFor);
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument(startFor));
}

function deactivate() {
  return Promise.all([...clients.values()].map((client) => client.stop()));
}

module.exports = { activate, deactivate };
