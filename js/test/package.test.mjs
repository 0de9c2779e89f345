// The package against the command line: the same JSON for `modules`, for
// `order` on random selections, for turns played with random answers, for a
// turn saved by one and resumed by the other, and the same refusals.
// Random cases come from one seed, printed; `SEED=n npm test` replays a run.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { before, describe, test } from "node:test";

import {
  catalogOf,
  cli,
  cliStatus,
  diagnosticOf,
  randomAnswer,
  readDiagnostic,
  itemIds,
  jsDir,
  jsonLines,
  pendingOf,
  prng,
  randomSelection,
  randomTurn,
  scratch,
  seedFromEnv,
  selectionArgs,
} from "../test-support/helpers.mjs";

const require = createRequire(import.meta.url);
const { RulesError } = require("carcassonne-rules");
const seed = seedFromEnv();
const ORDERS = 200;
const TURNS = 200;

let rules;
let catalog;
let tmp;

before(async () => {
  const esm = await import("carcassonne-rules");
  rules = await esm.load();
  catalog = catalogOf(rules.modules());
  tmp = scratch();
});

describe("loading", () => {
  test("by import and by require, by the package's name: one module, the same rules", async () => {
    const esm = await import("carcassonne-rules");
    const cjs = require("carcassonne-rules");
    assert.equal(typeof esm.load, "function");
    assert.equal(esm.load, cjs.load, "index.mjs re-exports the CommonJS glue");
    assert.equal(esm.default, cjs);
    assert.equal(cjs.default, cjs);
    assert.equal(esm.RulesError, cjs.RulesError);
    const [a, b] = await Promise.all([esm.load(), cjs.load()]);
    assert.equal(a, b, "instantiated once");
    assert.equal(a, rules);
    assert.equal(require.resolve("carcassonne-rules"), path.join(jsDir, "carcassonne-rules.js"));
  });

  test("the files that ship are the package's own", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(jsDir, "package.json"), "utf8"));
    for (const file of pkg.files) assert.ok(fs.existsSync(path.join(jsDir, file)), `${file} is listed and exists`);
    assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], "no runtime dependencies");
  });

  test("npm pack ships exactly the listed files", (t) => {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    let out;
    try {
      out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: jsDir, encoding: "utf8" });
    } catch (e) {
      if (e.code === "ENOENT") return t.skip("no npm on PATH");
      throw e;
    }
    const pkg = JSON.parse(fs.readFileSync(path.join(jsDir, "package.json"), "utf8"));
    const shipped = JSON.parse(out)[0].files.map((f) => f.path).sort();
    assert.deepEqual(shipped, [...pkg.files, "package.json"].sort());
  });
});

describe("modules and order, as the command line prints them", () => {
  test("modules() is `modules --format json`", () => {
    assert.deepEqual(rules.modules(), JSON.parse(cli(["modules", "--format", "json"])));
  });

  test(`order() is \`order --format json\` on ${ORDERS} random selections (seed ${seed})`, (t) => {
    t.diagnostic(`seed ${seed}: SEED=${seed} replays it`);
    const rng = prng(seed);
    const langs = new Set();
    const variants = new Set();
    for (let i = 0; i < ORDERS; i++) {
      const selection = randomSelection(rng, catalog);
      langs.add(selection.lang ?? "en");
      variants.add(selection.variant ?? "default");
      const expected = JSON.parse(cli(["order", ...selectionArgs(selection), "--format", "json"]));
      assert.deepEqual(rules.order(selection), expected, `seed ${seed}, case ${i}: ${JSON.stringify(selection)}`);
    }
    t.diagnostic(`languages met: ${[...langs].sort().join(", ")}; variants: ${[...variants].sort().join(", ")}`);
    assert.deepEqual([...langs].sort(), ["en", "nl", "ru"], `seed ${seed}`);
    assert.deepEqual([...variants].sort(), ["default", "hig", "rgg", "zmg"], `seed ${seed}`);
    shapeOfOrder(rules.order({ edition: "C2", with: catalog.ids, lang: "nl" }));
  });

  const refusedSelections = (cases) => {
    for (const selection of cases) {
      const run = cliStatus(["order", ...selectionArgs(selection), "--format", "json"]);
      assert.equal(run.status, 1, JSON.stringify(selection));
      const err = catchError(() => rules.order(selection));
      assert.ok(err instanceof RulesError, `a RulesError for ${JSON.stringify(selection)}`);
      assert.ok(err instanceof Error);
      assert.equal(err.answer, null);
      assert.deepEqual(diagnosticOf(err), readDiagnostic(run.stderr), `${JSON.stringify(selection)}:\n${run.stderr}`);
    }
  };

  test("a selection the command line refuses is refused with its code, message and help", () => {
    refusedSelections([
      { edition: "C2", with: ["builder", "abey"] },
      { edition: "C9" },
      { edition: "C2", variant: "xyz" },
      { edition: "C2", lang: "xx" },
      { edition: "C2", with: ["Builder"] },
      { edition: "C9", variant: "xyz", with: ["abey"] },
    ]);
  });

  test(
    "an id with no close match, and several unknown ids, are refused as the command line says",
    () => {
      refusedSelections([
        { edition: "WE", with: ["builder", "no_such_thing", "dragon"] },
        { edition: "C2", with: ["abey", "zzz_nothing"] },
      ]);
    }
  );

  test("arguments that are no selection or no answers throw good errors", () => {
    for (const bad of [undefined, null, "C2", ["C2"]]) {
      const err = catchError(() => rules.order(bad));
      assert.equal(err.code, "command-line");
      assert.match(err.message, /selection/);
    }
    assert.match(catchError(() => rules.order({ edition: "C2", with: "builder" })).message, /`with`/);
    const err = catchError(() => rules.play({ edition: "C2" }, { do: true }));
    assert.equal(err.code, "answers");
    assert.match(err.message, /array/);
    assert.equal(catchError(() => rules.resume(null, [])).code, "answers");
    assert.equal(catchError(() => rules.resume("{not json", [])).code, "answers");
    // Fields the contract does not know are refused by the rules, not dropped.
    assert.equal(catchError(() => rules.order({ edition: "C2", modules: ["builder"] })).code, "command-line");
  });
});

describe("play and resume, as the command line plays them", () => {
  test(`play() is \`play --format json\` and \`--save\` on ${TURNS} random turns (seed ${seed})`, (t) => {
    const rng = prng(seed ^ 0x9e3779b9);
    let over = 0;
    let answered = 0;
    let doubled = 0;
    for (let i = 0; i < TURNS; i++) {
      const selection = i === 0 ? { edition: "C2", with: ["builder"] } : randomSelection(rng, catalog);
      // A quarter with the builder, for double turns.
      if (i % 4 === 1 && !selection.with.includes("builder")) selection.with.push("builder");
      const anyTime = itemIds(rules.order(selection).any_time);
      const { answers, result } = randomTurn(rules, rng, selection, { anyTime });
      const where = `seed ${seed}, turn ${i}: ${JSON.stringify(selection)} answers ${JSON.stringify(answers)}`;
      answered += answers.length;
      if (result.over) over++;
      if (result.trace.some((e) => e.event === "part" && e.part === 2)) doubled++;

      const answersFile = path.join(tmp, `answers-${i}.jsonl`);
      const saveFile = path.join(tmp, `save-${i}.json`);
      fs.writeFileSync(answersFile, jsonLines(answers));
      const printed = JSON.parse(
        cli(["play", ...selectionArgs(selection), "--answers", answersFile, "--save", saveFile, "--format", "json"])
      );
      const { state, ...output } = result;
      assert.deepEqual(output, printed, where);
      shapeOfPlay(result, where);
      assert.deepEqual(state, JSON.parse(fs.readFileSync(saveFile, "utf8")), `the saved state, ${where}`);
      assert.equal(pendingOf(result) === null, result.over, where);

      // Saved by the command line after k answers, resumed here with the rest.
      const k = rng.int(answers.length + 1);
      const firstFile = path.join(tmp, `first-${i}.jsonl`);
      const partFile = path.join(tmp, `part-${i}.json`);
      fs.writeFileSync(firstFile, jsonLines(answers.slice(0, k)));
      cli(["play", ...selectionArgs(selection), "--answers", firstFile, "--save", partFile, "--format", "json"]);
      const saved = JSON.parse(fs.readFileSync(partFile, "utf8"));
      const resumed = rules.resume(saved, answers.slice(k));
      assert.deepEqual(resumed.trace, result.trace, `resumed after ${k} answers, ${where}`);
      assert.deepEqual(resumed.state, state, `resumed after ${k} answers, ${where}`);
      assert.equal(resumed.over, result.over);
      assert.deepEqual(
        resumed.prompts,
        result.prompts.filter((p) => p.seq >= saved.turn.seq),
        `a resumed run's prompts are its own, ${where}`
      );

      // And the other way: saved here after k answers, resumed by the command line.
      const mine = rules.play(selection, answers.slice(0, k)).state;
      assert.deepEqual(mine, saved, `the state after ${k} answers, ${where}`);
      const mineFile = path.join(tmp, `mine-${i}.json`);
      const restFile = path.join(tmp, `rest-${i}.jsonl`);
      fs.writeFileSync(mineFile, JSON.stringify(mine));
      fs.writeFileSync(restFile, jsonLines(answers.slice(k)));
      const cliResumed = JSON.parse(cli(["play", "--resume", mineFile, "--answers", restFile, "--format", "json"]));
      assert.deepEqual(cliResumed.trace, result.trace, `the CLI resuming the package's state, ${where}`);
      assert.deepEqual(cliResumed.prompts, resumed.prompts, where);
    }
    t.diagnostic(`${TURNS} turns, ${over} played to the end, ${doubled} with a double turn, ${answered} answers`);
    assert.ok(over >= TURNS / 4, `most random turns end within 60 answers (${over} of ${TURNS} did)`);
  });

  test("resuming one answer at a time gives the uninterrupted turn", () => {
    const rng = prng(seed ^ 0x5bd1e995);
    const selection = { edition: "C2", with: ["builder", "abbey_and_mayor", "princess_and_dragon"] };
    const { answers, result } = randomTurn(rules, rng, selection);
    let step = rules.play(selection, []);
    for (const answer of answers) {
      // Through JSON text, as an engine would store it.
      step = rules.resume(JSON.stringify(step.state), [answer]);
    }
    assert.deepEqual(step.trace, result.trace, `seed ${seed}: ${JSON.stringify(answers)}`);
    assert.deepEqual(step.state, result.state);
    assert.equal(step.over, result.over);
  });

  test("a refused answer throws with code `answers` and its index, as the command line refuses it", () => {
    const selection = { edition: "C2", with: ["builder"] };
    const start = rules.play(selection, []);
    const first = pendingOf(start);
    assert.equal(first.kind, "do");
    const ok = [{ do: true }];
    const third = pendingOf(rules.play(selection, [...ok, { do: true }]));
    assert.equal(first.must, true, "drawing the tile is a must");
    const cases = [
      { answers: [{ count: 1 }], index: 0, reason: "wrong-kind", why: "wrong kind" },
      { answers: [{ do: false }], index: 0, reason: "must", why: "a must declined" },
      { answers: [...ok, { choose: "no-such-item" }], index: 1, reason: null, why: "unknown item" },
      {
        answers: [...ok, { do: true }, { choose: "draw-tile" }],
        index: 2,
        reason: third.kind === "choose" ? "not-offered" : "wrong-kind",
        why: "an item of the turn not offered",
      },
      { answers: [...ok, { do: true, seq: 7 }], index: 1, reason: "stale", why: "stale seq" },
      { answers: [...ok, { maybe: true }], index: 1, reason: null, why: "no answer" },
      { answers: [...ok, "yes"], index: 1, reason: null, why: "no object" },
      { answers: [{ any_time: "draw-tile" }], index: 0, reason: "not-any-time", why: "not an at-any-time item" },
    ];
    for (const { answers, index, reason, why } of cases) {
      const err = catchError(() => rules.play(selection, answers));
      assert.ok(err instanceof Error, why);
      assert.equal(err.name, "RulesError", why);
      assert.equal(err.code, "answers", why);
      assert.equal(err.answer, index, why);
      assert.equal(err.reason, reason, why);
      assert.equal(typeof err.message, "string");
      assert.ok(err.help === null || typeof err.help === "string");

      const file = path.join(tmp, `refused-${index}-${why.replace(/\W+/g, "-")}.jsonl`);
      const saveFile = path.join(tmp, "refused-save.json");
      fs.rmSync(saveFile, { force: true });
      fs.writeFileSync(file, jsonLines(answers));
      const run = cliStatus(["play", ...selectionArgs(selection), "--answers", file, "--save", saveFile, "--format", "json"]);
      assert.equal(run.status, 1, `the CLI refuses it too (${why})`);
      assert.deepEqual(diagnosticOf(err), readDiagnostic(run.stderr), `${why}:\n${run.stderr}`);
      assert.ok(run.stderr.includes(`${file}:${index + 1}:`), `${why}: the CLI points at line ${index + 1}`);
      assert.ok(!fs.existsSync(saveFile), "the CLI writes nothing");
    }

    // An option not offered, at a real choose prompt.
    const rng = prng(seed ^ 0x1b873593);
    let found = null;
    for (let tries = 0; tries < 200 && found === null; tries++) {
      const { answers } = randomTurn(rules, rng, selection, { max: 30 });
      for (let n = 0; n <= answers.length && found === null; n++) {
        const p = pendingOf(rules.play(selection, answers.slice(0, n)));
        if (p !== null && p.kind === "choose") found = { answers: answers.slice(0, n), prompt: p };
      }
    }
    assert.ok(found, "a choose prompt in a builder turn");
    const notOffered = itemIds(rules.order(selection).phases.flatMap((ph) => ph.steps.flatMap((s) => s.items))).find(
      (id) => !found.prompt.options.includes(id)
    );
    const err = catchError(() => rules.play(selection, [...found.answers, { choose: notOffered }]));
    assert.equal(err.code, "answers");
    assert.equal(err.answer, found.answers.length);
    assert.equal(err.reason, "not-offered");
    assert.match(err.message, /not offered/);

    // After the end.
    const whole = randomTurn(rules, prng(seed), selection, { max: 1000 });
    assert.ok(whole.result.over);
    const after = catchError(() => rules.resume(whole.result.state, [{ do: true }]));
    assert.equal(after.code, "answers");
    assert.equal(after.answer, 0);
  });

  test(
    "an answer after the end carries the turn's reason `over`",
    () => {
      const selection = { edition: "C2" };
      const whole = randomTurn(rules, prng(seed), selection, { max: 1000 });
      assert.ok(whole.result.over);
      assert.equal(catchError(() => rules.resume(whole.result.state, [{ do: true }])).reason, "over");
    }
  );

  test(`a wrong answer at a random point of ${TURNS} random turns is refused as the command line refuses it (seed ${seed})`, () => {
    const rng = prng(seed ^ 0x27d4eb2f);
    const kinds = new Set();
    for (let i = 0; i < TURNS; i++) {
      const selection = randomSelection(rng, catalog);
      const { answers } = randomTurn(rules, rng, selection, { max: 30 });
      const k = rng.int(answers.length + 1);
      const pending = pendingOf(rules.play(selection, answers.slice(0, k)));
      const ids = itemIds(rules.order(selection).phases.flatMap((ph) => ph.steps.flatMap((s) => s.items)));
      let wrong;
      if (pending === null) {
        // After the last prompt an "at any time" item may still be taken.
        const anyTime = itemIds(rules.order(selection).any_time);
        wrong = anyTime.length > 0 && rng.chance(0.5) ? { any_time: rng.pick(anyTime) } : { do: true };
      } else {
        const otherKind = ["do", "choose", "count"].filter((kind) => kind !== pending.kind);
        const forms = [
          () => randomAnswer(rng, { ...pending, kind: rng.pick(otherKind), options: ids, may_pass: true }),
          () => ({ choose: rng.pick(ids) + (rng.chance(0.5) ? "-x" : "") }),
          () => ({ ...randomAnswer(rng, pending), seq: pending.seq + 1 + rng.int(3) }),
          () => ({ count: 65 }),
          () => ({ do: "yes" }),
          () => ({ do: false }),
          () => ({ any_time: rng.pick(ids) }),
        ];
        wrong = rng.pick(forms)();
      }
      const list = [...answers.slice(0, k), wrong];
      const where = `seed ${seed}, case ${i}: ${JSON.stringify(selection)} answers ${JSON.stringify(list)}`;
      let err = null;
      let result = null;
      try {
        result = rules.play(selection, list);
      } catch (e) {
        err = e;
      }
      const file = path.join(tmp, `wrong-${i}.jsonl`);
      fs.writeFileSync(file, jsonLines(list));
      const run = cliStatus(["play", ...selectionArgs(selection), "--answers", file, "--format", "json"]);
      if (err === null) {
        // It was no wrong answer after all (a `do` that a `do` prompt takes, an item offered).
        assert.equal(run.status, 0, where);
        const { state, ...output } = result;
        assert.deepEqual(output, JSON.parse(run.stdout), where);
        continue;
      }
      kinds.add(err.message.replace(/`[^`]*`/g, "`…`"));
      assert.equal(err.code, "answers", where);
      assert.equal(err.answer, k, where);
      assert.equal(run.status, 1, where);
      assert.deepEqual(diagnosticOf(err), readDiagnostic(run.stderr), `${where}\n${run.stderr}`);
      assert.ok(run.stderr.includes(`${file}:${k + 1}:`), `${where}: the CLI points at line ${k + 1}`);
    }
    assert.ok(kinds.size >= 3, `refusals of several kinds: ${[...kinds].join("; ")}`);
  });

  test("a saved turn the command line refuses to resume is refused the same", () => {
    const { state } = rules.play({ edition: "C2", with: ["builder"] }, [{ do: true }]);
    const edited = (edit) => {
      const s = structuredClone(state);
      edit(s);
      return s;
    };
    const empty = path.join(tmp, "empty.jsonl");
    fs.writeFileSync(empty, "");
    const cases = {
      "other rules": edited((s) => (s.turn.rules = "0000000000000000")),
      "another selection": edited((s) => (s.turn.selection.modules = "")),
      "a trace naming an unknown item": edited((s) => s.trace.push({ event: "item", part: 1, step: "1B", item: "nope", done: true })),
      "an unknown pending item": edited((s) => (s.turn.at.item = "nope")),
      "the prompts' count at its limit": edited((s) => (s.turn.seq = 4294967295)),
      // serde's own messages: the command line adds where in its file.
      "an unknown field": edited((s) => (s.extra = 1)),
      "no turn": { trace: [] },
    };
    for (const [why, bad] of Object.entries(cases)) {
      const file = path.join(tmp, "bad-state.json");
      fs.writeFileSync(file, JSON.stringify(bad));
      const run = cliStatus(["play", "--resume", file, "--answers", empty, "--format", "json"]);
      assert.equal(run.status, 1, why);
      const err = catchError(() => rules.resume(bad, []));
      assert.equal(err.code, "answers", why);
      if (why === "other rules") assert.equal(err.reason, "other-rules");
      const expected = readDiagnostic(run.stderr);
      expected.message = expected.message.replace(/ at line \d+ column \d+$/, "");
      assert.deepEqual(diagnosticOf(err), expected, `${why}:\n${run.stderr}`);
    }
  });

  test("a must is acknowledged, never declined, and each prompt says who answers it", () => {
    const selection = { edition: "C2" };
    const start = rules.play(selection, []);
    const draw = pendingOf(start);
    assert.deepEqual(
      { item: draw.item, must: draw.must, actor: draw.actor },
      { item: "draw-tile", must: true, actor: "active" }
    );
    const err = catchError(() => rules.play(selection, [{ do: false }]));
    assert.equal(err.reason, "must");
    assert.equal(err.answer, 0);
    assert.match(err.message, /cannot be declined/);
    // Yes to every item and the first option: on to the scoring order, asked of
    // each player who scores; the only kind of meeple is taken, not asked.
    const answers = [];
    let result = start;
    while (pendingOf(result) !== null && pendingOf(result).item !== "choose-scoring-order" && answers.length < 60) {
      const p = pendingOf(result);
      answers.push(p.kind === "do" ? { do: true } : p.kind === "choose" ? { choose: p.options[0] } : { count: 1 });
      result = rules.play(selection, answers);
    }
    const scoring = pendingOf(result);
    assert.ok(scoring, `choose-scoring-order is asked after ${JSON.stringify(answers)}`);
    assert.deepEqual({ must: scoring.must, actor: scoring.actor }, { must: false, actor: "scorers" });
    const after = rules.play(selection, [...answers, { do: true }]);
    assert.deepEqual(after.trace.find((e) => e.event === "item" && e.item === "choose-scoring-order"), {
      event: "item",
      part: 1,
      step: "3A",
      item: "choose-scoring-order",
      done: true,
      actor: "scorers",
    });
    assert.deepEqual(after.trace.find((e) => e.event === "taken"), {
      event: "taken",
      part: 1,
      step: "2B-1",
      item: "deploy-normal-meeple",
      actor: "active",
    });
    const file = path.join(tmp, "scoring-order.jsonl");
    fs.writeFileSync(file, jsonLines([...answers, { do: true }]));
    const { state, ...output } = after;
    assert.deepEqual(output, JSON.parse(cli(["play", "--edition", "C2", "--answers", file, "--format", "json"])));
  });

  test("a turn in Dutch plays by the same ids, and its state resumes in English", () => {
    const rng = prng(seed ^ 0x2545f491);
    const nl = { edition: "C2", with: ["builder"], lang: "nl" };
    const en = { edition: "C2", with: ["builder"] };
    const { answers, result } = randomTurn(rules, rng, nl);
    assert.deepEqual(result, rules.play(en, answers));
    const k = rng.int(answers.length + 1);
    const resumed = rules.resume(rules.play(nl, answers.slice(0, k)).state, answers.slice(k));
    assert.deepEqual(resumed.state, result.state);
  });
});

function catchError(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail("expected a throw");
}

// What index.d.ts says of the JSON, checked on what the rules answer: the
// keys each object has, exactly, and the types of the closed ones.
function keys(object, required, optional = []) {
  const have = Object.keys(object).sort();
  const allowed = new Set([...required, ...optional]);
  for (const k of required) assert.ok(k in object, `${k} in ${JSON.stringify(object)}`);
  for (const k of have) assert.ok(allowed.has(k), `no ${k} in the types: ${JSON.stringify(object)}`);
}

const FEATURE = (f) => f === null || (Array.isArray(f) && f.length === 2 && f.every(Number.isInteger));
const ACTORS = ["active", "left", "each", "each_from_left", "owner", "scorers"];
const EVENTS = {
  part: ["part"],
  step: ["part", "step", "feature"],
  item: ["part", "step", "item", "done", "actor"],
  chose: ["part", "step", "item", "actor"],
  taken: ["part", "step", "item", "actor"],
  left_out: ["part", "step", "item"],
  skipped: ["part", "step"],
  no_features: ["part", "step"],
  once: ["part", "step", "item"],
  go_back: ["part", "from", "to"],
  any_time: ["part", "step", "item"],
  end: [],
};

function shapeOfPlay(result, where) {
  keys(result, ["over", "prompts", "trace", "state"]);
  for (const p of result.prompts) {
    const extra = { do: ["item", "must"], choose: ["options", "may_pass", "of", "must"], count: [] }[p.kind];
    assert.ok(extra, `a prompt's kind: ${JSON.stringify(p)}, ${where}`);
    keys(p, ["seq", "kind", "part", "step", "feature", "actor", ...extra], ["pending"]);
    assert.ok(p.part === 1 || p.part === 2);
    assert.ok(FEATURE(p.feature));
    assert.ok(ACTORS.includes(p.actor), `an actor of the types: ${JSON.stringify(p)}, ${where}`);
    if (p.kind !== "count") assert.equal(typeof p.must, "boolean");
    if (p.kind === "choose") {
      assert.equal(p.must, !p.may_pass, `a choice's must is !may_pass: ${JSON.stringify(p)}, ${where}`);
      assert.ok(p.must === false || p.options.length > 1, `a one-option must choice is taken, not asked, ${where}`);
    }
    if (p.pending !== undefined) assert.equal(p.pending, true);
  }
  for (const e of result.trace) {
    const fields = EVENTS[e.event];
    assert.ok(fields, `an event of the types: ${JSON.stringify(e)}, ${where}`);
    keys(e, ["event", ...fields]);
    if ("feature" in e) assert.ok(FEATURE(e.feature));
    if ("actor" in e) assert.ok(ACTORS.includes(e.actor), `an actor of the types: ${JSON.stringify(e)}, ${where}`);
  }
  keys(result.state, ["turn", "trace"]);
  keys(result.state.turn.selection, ["edition", "variant", "modules"]);
  assert.equal(typeof result.state.turn.rules, "string");
  assert.equal(typeof result.state.turn.seq, "number");
}

function shapeOfOrder(order) {
  keys(order, ["edition", "variant", "modules", "notes", "setup", "any_time", "phases", "final_scoring"], ["lang"]);
  const item = (i) => {
    keys(i, ["id", "origin", "text", "markers", "foreign", "effect", "children"], ["translation"]);
    if (i.effect !== null) {
      const [k, ...more] = Object.keys(i.effect);
      if (k === "forbid") {
        assert.deepEqual(more, ["for"], JSON.stringify(i.effect));
        assert.ok(["part", "turn"].includes(i.effect.for), JSON.stringify(i.effect));
      } else {
        assert.deepEqual(more, [], JSON.stringify(i.effect));
      }
      assert.ok(["skip", "go_back", "double_turn", "next_feature", "forbid"].includes(k), JSON.stringify(i.effect));
    }
    if (i.translation !== undefined) assert.ok(["translated", "outdated", "missing"].includes(i.translation));
    i.children.forEach(item);
  };
  for (const section of ["notes", "setup", "any_time", "final_scoring"]) order[section].forEach(item);
  for (const phase of order.phases) {
    keys(phase, ["id", "title", "steps"]);
    for (const step of phase.steps) {
      keys(step, ["id", "title", "repeat", "choose_one", "items"]);
      assert.ok([null, "double_turn", "per_feature"].includes(step.repeat));
      step.items.forEach(item);
    }
  }
}
