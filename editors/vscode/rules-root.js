// The rules folder a file is in: the nearest folder at or above it holding
// base.yaml, as the language server and the Neovim set-up find it. Other
// YAML files (a CI workflow, say) get no server. No `vscode` here, so that
// plain Node can test it (tests/editor_vscode.rs).
const fs = require('fs');
const path = require('path');

function rulesRoot(file) {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'base.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

module.exports = { rulesRoot };
