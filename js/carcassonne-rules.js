/*
 * carcassonne-rules: Carcassonne's order of play and a turn played prompt by
 * prompt, from the carcassonne-rules runtime compiled to WebAssembly.
 *
 * One file for CommonJS (`require("carcassonne-rules")`) and for a classic
 * browser <script> (after wasm.js, from file:// too): no import/export, no
 * fetch, nothing of Node's at load time. The module's bytes are wasm.js's
 * base64 (CommonJS: its module.exports; script: globalThis.CarcassonneRulesWasm).
 *
 * The module imports nothing and answers one JSON request at a time:
 * alloc(len) -> ptr, the request's UTF-8 copied there, run(ptr, len) (which
 * frees it) -> 0 for an answer, 1 for a refusal; the answer is output_len()
 * bytes at output_ptr(), valid until the next run.
 *
 * SPDX-License-Identifier: MIT OR Apache-2.0
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module !== null && typeof module.exports === "object") {
    module.exports = factory(function () {
      return require("./wasm.js");
    });
  } else {
    root.CarcassonneRules = factory(function () {
      return root.CarcassonneRulesWasm;
    });
  }
})(typeof globalThis !== "undefined" ? globalThis : typeof self !== "undefined" ? self : this, function (wasmBase64) {
  "use strict";

  /**
   * A request the rules refused: `code` is the command line's diagnostic code
   * for the same mistake (`answers`, `command-line`), `help` how to put it
   * right or null, `answer` the index of the refused answer or null, and
   * `reason` the turn's own stable code for why (`not-offered`, `stale`, …)
   * or null.
   */
  class RulesError extends Error {
    constructor(message, code, help, answer, reason) {
      super(message);
      this.name = "RulesError";
      this.code = code;
      this.help = help === undefined ? null : help;
      this.answer = answer === undefined ? null : answer;
      this.reason = reason === undefined ? null : reason;
    }
  }

  function decodeBase64(text) {
    if (typeof text !== "string" || text.length === 0) {
      throw new RulesError(
        "the WebAssembly module is missing: wasm.js gave no base64 text",
        "io",
        "load wasm.js before carcassonne-rules.js in a page (it sets globalThis.CarcassonneRulesWasm); in Node, wasm.js sits beside carcassonne-rules.js",
        null
      );
    }
    if (typeof atob === "function") {
      const binary = atob(text);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) {
        bytes[i] = binary.charCodeAt(i);
      }
      return bytes;
    }
    /* global Buffer */
    if (typeof Buffer === "function") {
      return new Uint8Array(Buffer.from(text, "base64"));
    }
    throw new RulesError("no base64 decoder (atob) in this environment", "io", null, null);
  }

  function isObject(value) {
    return typeof value === "object" && value !== null && !Array.isArray(value);
  }

  function checkSelection(selection) {
    if (!isObject(selection)) {
      throw new RulesError(
        "a selection is an object {edition, variant?, with?, lang?}",
        "command-line",
        'e.g. {edition: "C2", with: ["builder", "abbey_and_mayor"]}',
        null
      );
    }
    if (selection.with !== undefined && !Array.isArray(selection.with)) {
      throw new RulesError(
        "a selection's `with` is an array of module and expansion ids",
        "command-line",
        'e.g. with: ["builder", "abbey_and_mayor"]',
        null
      );
    }
  }

  function checkAnswers(answers) {
    if (answers === undefined) {
      return [];
    }
    if (!Array.isArray(answers)) {
      throw new RulesError(
        "answers are an array of the play contract's answers",
        "answers",
        'e.g. [{do: true}, {choose: "deploy-meeple"}, {choose: null}, {count: 2}, {any_time: "item-id"}]',
        null
      );
    }
    return answers;
  }

  function checkState(state) {
    if (typeof state === "string") {
      try {
        state = JSON.parse(state);
      } catch (e) {
        throw new RulesError("not a saved turn: " + e.message, "answers", null, null);
      }
    }
    if (!isObject(state)) {
      throw new RulesError(
        "a state is the object a played turn returns as `state` (what play --save writes)",
        "answers",
        null,
        null
      );
    }
    return state;
  }

  const encoder = new TextEncoder();
  const decoder = new TextDecoder("utf-8", { fatal: true });

  function Rules(module, instance) {
    let exports = instance.exports;

    function call(request) {
      if (exports === null) {
        // The last call trapped: the module's memory is not to be trusted,
        // so start a fresh instance of the compiled module.
        exports = new WebAssembly.Instance(module, {}).exports;
      }
      const bytes = encoder.encode(JSON.stringify(request));
      let status;
      let text;
      try {
        const ptr = exports.alloc(bytes.length) >>> 0;
        // After alloc: the memory may have grown, which detaches old views.
        new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
        status = exports.run(ptr, bytes.length);
        const outPtr = exports.output_ptr() >>> 0;
        const outLen = exports.output_len() >>> 0;
        text = decoder.decode(new Uint8Array(exports.memory.buffer, outPtr, outLen));
      } catch (e) {
        exports = null;
        const error = new RulesError("the rules' module failed: " + (e && e.message), "internal", null, null);
        error.cause = e;
        throw error;
      }
      const value = JSON.parse(text);
      if (status === 0) {
        return value;
      }
      if (status === 1 && isObject(value)) {
        throw new RulesError(value.message, value.code, value.help, value.answer, value.reason);
      }
      throw new RulesError("the rules' module answered with status " + status, "internal", null, null);
    }

    this.modules = function modules() {
      return call({ op: "modules" });
    };
    this.order = function order(selection) {
      checkSelection(selection);
      return call({ op: "order", selection: selection });
    };
    this.play = function play(selection, answers) {
      checkSelection(selection);
      return call({ op: "play", selection: selection, answers: checkAnswers(answers) });
    };
    this.resume = function resume(state, answers) {
      return call({ op: "resume", state: checkState(state), answers: checkAnswers(answers) });
    };
    Object.freeze(this);
  }

  let loading = null;

  /**
   * The rules, once the module is compiled and instantiated (once; later
   * calls give the same object).
   */
  function load() {
    if (loading === null) {
      loading = Promise.resolve()
        .then(function () {
          return WebAssembly.instantiate(decodeBase64(wasmBase64()), {});
        })
        .then(function (result) {
          return new Rules(result.module, result.instance);
        });
      loading.catch(function () {
        loading = null;
      });
    }
    return loading;
  }

  const api = { load: load, RulesError: RulesError };
  // `require(...).default` too, as the types say and `import` gives.
  api.default = api;
  return api;
});
