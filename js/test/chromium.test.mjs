// The classic-script form in a real browser, from file://: headless Chromium
// loads a page with <script src="wasm.js"> and <script src="carcassonne-rules.js">
// and prints what the rules answered into the page. Skipped where no
// Chromium is installed (CHROMIUM names one; `apt-get install chromium`).

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";

import { jsDir, scratch } from "../test-support/helpers.mjs";

function findChromium() {
  const candidates = process.env.CHROMIUM ? [process.env.CHROMIUM] : ["chromium", "chromium-browser", "google-chrome"];
  for (const name of candidates) {
    const r = spawnSync(name, ["--version"], { encoding: "utf8" });
    if (r.status === 0) return name;
  }
  return null;
}

const chromium = findChromium();

test("a page from file:// loads the package and plays", { skip: chromium === null && "no Chromium installed", timeout: 120_000 }, () => {
  const dir = scratch();
  const src = (file) => pathToFileURL(path.join(jsDir, file)).href;
  const page = path.join(dir, "index.html");
  fs.writeFileSync(
    page,
    `<!doctype html><html><body><pre id="out">loading</pre>
<script src="${src("wasm.js")}"></script>
<script src="${src("carcassonne-rules.js")}"></script>
<script>
CarcassonneRules.load().then(function (rules) {
  var out = {};
  out.protocol = location.protocol;
  out.expansions = rules.modules().expansions.length;
  out.lang = rules.order({ edition: "C2", with: ["builder"], lang: "nl" }).lang;
  var turn = rules.play({ edition: "C2", with: ["builder"] }, [{ do: true }]);
  out.pending = rules.resume(JSON.stringify(turn.state), []).prompts[0].item;
  try { rules.play({ edition: "C2" }, [{ count: 1 }]); } catch (e) {
    out.refused = [e instanceof Error, e.name, e.code, e.answer];
  }
  document.getElementById("out").textContent = "RESULT" + JSON.stringify(out);
}, function (e) { document.getElementById("out").textContent = "RESULT" + JSON.stringify({ failed: String(e) }); });
</script></body></html>
`
  );
  const dom = execFileSync(
    chromium,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      `--user-data-dir=${path.join(dir, "profile")}`,
      "--virtual-time-budget=10000",
      "--dump-dom",
      pathToFileURL(page).href,
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 100_000 }
  );
  const found = /RESULT(\{[^<]*\})/.exec(dom);
  assert.ok(found, `the page printed its result:\n${dom}`);
  const result = JSON.parse(found[1].replace(/&quot;/g, '"').replace(/&amp;/g, "&"));
  assert.deepEqual(result, {
    protocol: "file:",
    expansions: result.expansions,
    lang: "nl",
    pending: "show-tile",
    refused: [true, "RulesError", "answers", 0],
  });
  assert.ok(result.expansions > 0);
});
