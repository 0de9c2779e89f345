// The rules folder a file is in: the nearest folder at or above it holding
// modules.yaml that is not a language's folder of translations, as the
// language server and the Neovim set-up find it: a rules file and a
// translation file share one server. Other YAML files (a CI workflow, say)
// get no server. No `vscode` here, so that
// plain Node can test it (tests/editor_vscode.rs).
const fs = require('fs');
const path = require('path');

/** Whether `dir` holds modules.yaml and is not a language's folder of
 * translations, which mirrors the rules files (rules/translations/nl/). */
function isRules(dir) {
  if (!fs.existsSync(path.join(dir, 'modules.yaml'))) return false;
  const parent = path.dirname(dir);
  return !(path.basename(parent) === 'translations' && fs.existsSync(path.join(path.dirname(parent), 'modules.yaml')));
}

function rulesRoot(file) {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (isRules(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

module.exports = { rulesRoot };
