// The TypeScript types compile against an engine's use of them
// (test/types-check.ts), and a misuse does not: `tsc` from the dev
// dependencies; skipped where they are not installed.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { test } from "node:test";

import { jsDir } from "../test-support/helpers.mjs";

const require = createRequire(import.meta.url);

function tscPath() {
  try {
    return require.resolve("typescript/bin/tsc");
  } catch {
    return null;
  }
}

function tsc(args) {
  try {
    execFileSync(process.execPath, [tscPath(), ...args], { cwd: jsDir, encoding: "utf8", stdio: "pipe" });
    return { ok: true, out: "" };
  } catch (e) {
    return { ok: false, out: `${e.stdout}${e.stderr}` };
  }
}

test("index.d.ts types an engine's use of the package", { skip: tscPath() === null && "typescript is not installed" }, () => {
  const run = tsc(["-p", "test/tsconfig.json"]);
  assert.ok(run.ok, run.out);
});

test("and refuses a wrong answer or selection", { skip: tscPath() === null && "typescript is not installed" }, () => {
  const dir = fs.mkdtempSync(path.join(jsDir, "test", ".types-"));
  try {
    const file = path.join(dir, "wrong.ts");
    fs.writeFileSync(
      file,
      'import { load } from "carcassonne-rules";\n' +
        "export async function f() {\n" +
        "  const r = await load();\n" +
        '  r.play({ edition: "C2" }, [{ doo: true }]);\n' +
        '  r.order({ with: ["builder"] });\n' +
        "}\n"
    );
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../tsconfig.json", files: ["wrong.ts"] })
    );
    const run = tsc(["-p", path.join(dir, "tsconfig.json")]);
    assert.equal(run.ok, false);
    assert.match(run.out, /'doo' does not exist in type 'Answer'/);
    assert.match(run.out, /Property 'edition' is missing/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
