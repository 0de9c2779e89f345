// The classic-script form, as a page loads it (<script src="wasm.js">, then
// <script src="carcassonne-rules.js">, from file:// too): evaluated in a
// bare global with only what a browser has and the glue needs, and nothing
// of Node's (no require, module, process, Buffer, fetch).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import vm from "node:vm";

import { cli, jsDir } from "../test-support/helpers.mjs";

const scripts = {
  wasm: fs.readFileSync(path.join(jsDir, "wasm.js"), "utf8"),
  glue: fs.readFileSync(path.join(jsDir, "carcassonne-rules.js"), "utf8"),
};

function page(order) {
  const context = vm.createContext({ atob, WebAssembly, TextEncoder, TextDecoder, Promise });
  for (const name of order) vm.runInContext(scripts[name], context, { filename: `${name}.js` });
  return context;
}

test("the scripts need nothing but atob, WebAssembly, TextEncoder and TextDecoder", async () => {
  const context = page(["wasm", "glue"]);
  for (const name of ["require", "module", "exports", "process", "Buffer", "fetch"]) {
    assert.equal(vm.runInContext(`typeof ${name}`, context), "undefined", name);
  }
  assert.equal(typeof context.CarcassonneRulesWasm, "string");
  assert.deepEqual(Object.keys(context.CarcassonneRules).sort(), ["RulesError", "default", "load"]);
  const rules = await context.CarcassonneRules.load();
  // Compared as JSON: the page's objects are of its own realm.
  assert.deepEqual(JSON.parse(JSON.stringify(rules.modules())), JSON.parse(cli(["modules", "--format", "json"])));
  const order = rules.order({ edition: "C2", with: ["builder"], lang: "nl" });
  assert.equal(order.lang, "nl");
  const turn = rules.play({ edition: "C2", with: ["builder"] }, [{ do: true }]);
  assert.equal(turn.over, false);
  const next = rules.resume(turn.state, [{ do: true }]);
  assert.equal(next.prompts[0].seq, 1);
  let refused;
  try {
    rules.play({ edition: "C2" }, [{ count: 1 }]);
  } catch (e) {
    refused = e;
  }
  assert.ok(refused instanceof vm.runInContext("Error", context), "an Error of the page");
  assert.ok(refused instanceof context.CarcassonneRules.RulesError);
  assert.equal(refused.code, "answers");
  assert.equal(refused.answer, 0);
});

test("the glue may come first: the module is read when load() is called", async () => {
  const context = page(["glue", "wasm"]);
  const rules = await context.CarcassonneRules.load();
  assert.ok(rules.modules().expansions.length > 0);
});

test("without wasm.js, load() rejects with what to do", async () => {
  const context = page(["glue"]);
  await assert.rejects(context.CarcassonneRules.load(), (e) => {
    assert.equal(e.code, "io");
    assert.match(e.message, /module is missing/);
    assert.match(e.help, /wasm\.js/);
    return true;
  });
});

test("after the module traps, the next call runs on a fresh instance", async () => {
  // A WebAssembly whose first instance's `run` traps once, as a Rust panic
  // would (an abort is an `unreachable` trap): the call throws code
  // `internal`, and the rules go on with a new instance of the same module.
  let instances = 0;
  const Wasm = {
    ...WebAssembly,
    instantiate: async (bytes, imports) => {
      const { module, instance } = await WebAssembly.instantiate(bytes, imports);
      instances++;
      const real = instance.exports;
      let trapped = false;
      const exports = {
        ...real,
        run: (ptr, len) => {
          if (!trapped) {
            trapped = true;
            throw new WebAssembly.RuntimeError("unreachable");
          }
          return real.run(ptr, len);
        },
      };
      return { module, instance: { exports } };
    },
    Instance: class {
      constructor(module, imports) {
        instances++;
        return new WebAssembly.Instance(module, imports);
      }
    },
  };
  const context = vm.createContext({ atob, WebAssembly: Wasm, TextEncoder, TextDecoder, Promise });
  vm.runInContext(scripts.wasm, context);
  vm.runInContext(scripts.glue, context);
  const rules = await context.CarcassonneRules.load();
  assert.throws(
    () => rules.modules(),
    (e) => e.code === "internal" && /unreachable/.test(e.message) && e.cause instanceof WebAssembly.RuntimeError
  );
  assert.equal(instances, 1);
  assert.ok(rules.modules().expansions.length > 0);
  assert.equal(instances, 2, "a fresh instance");
  assert.ok(rules.order({ edition: "C2" }).phases.length > 0);
  assert.equal(instances, 2);
});
