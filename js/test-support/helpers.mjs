// What the tests share: the command line they compare the package with, a
// seeded PRNG (failures replay with SEED=n), random selections and a turn
// driven with random valid answers. Outside test/, which `node --test test/`
// runs file by file.

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const jsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(jsDir, "..");
export const bin = path.resolve(jsDir, process.env.CARCASSONNE_BIN || "../target/debug/carcassonne-rules");

/** The seed of this run: `SEED` from the environment, else a new one. */
export function seedFromEnv() {
  const given = process.env.SEED;
  if (given !== undefined && given !== "") {
    const n = Number(given);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`SEED=${given} is not a non-negative integer`);
    return n >>> 0;
  }
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}

/** mulberry32: small, fast and good enough to pick test cases. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  const chance = (p) => next() < p;
  return { next, int, pick, chance };
}

function assertBin() {
  if (!fs.existsSync(bin)) {
    throw new Error(
      `the command line to compare with is missing: ${bin}\n` +
        "build it (cargo build --locked in the repository root) or set CARCASSONNE_BIN"
    );
  }
}

/** Runs the command line from the repository root; its stdout, or throws with its stderr. */
export function cli(args, input) {
  assertBin();
  return execFileSync(bin, args, {
    cwd: repoRoot,
    encoding: "utf8",
    input,
    maxBuffer: 64 << 20,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
}

/** The command line's exit status, stdout and stderr, whatever the status. */
export function cliStatus(args) {
  assertBin();
  const r = spawnSync(bin, args, {
    cwd: repoRoot,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    env: { ...process.env, NO_COLOR: "1" },
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `--edition … [--variant …] [--with …] [--lang …]` for a selection. */
export function selectionArgs(selection) {
  const args = ["--edition", selection.edition];
  if (selection.variant !== undefined) args.push("--variant", selection.variant);
  if (selection.with !== undefined && selection.with.length > 0) args.push("--with", selection.with.join(","));
  if (selection.lang !== undefined) args.push("--lang", selection.lang);
  return args;
}

/** A scratch folder, removed at exit. */
export function scratch() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "carcassonne-rules-js-"));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Answers as the JSON Lines file `--answers` reads. */
export function jsonLines(answers) {
  return answers.map((a) => JSON.stringify(a) + "\n").join("");
}

/** Every edition and every module and expansion id that `modules()` lists. */
export function catalogOf(modulesJson) {
  const editions = new Set();
  const ids = [];
  for (const e of modulesJson.expansions) {
    for (const ed of e.editions) editions.add(ed);
    ids.push(e.id);
    for (const m of e.modules) ids.push(m.id);
  }
  return { editions: [...editions].sort(), ids: [...new Set(ids)] };
}

export const VARIANTS = ["hig", "zmg", "rgg"];
export const LANGS = ["en", "nl", "ru"];

/** A random selection: an edition, a few (or many) ids, sometimes a variant and a language. */
export function randomSelection(rng, catalog, { lang = true } = {}) {
  const size = rng.chance(0.1) ? rng.int(catalog.ids.length) : rng.int(7);
  const chosen = new Set();
  while (chosen.size < size) chosen.add(rng.pick(catalog.ids));
  const selection = { edition: rng.pick(catalog.editions), with: [...chosen] };
  if (rng.chance(0.4)) selection.variant = rng.pick(VARIANTS);
  if (lang && rng.chance(0.4)) selection.lang = rng.pick(LANGS);
  return selection;
}

/** Every item id in a list of order items and their children. */
export function itemIds(items, out = []) {
  for (const item of items) {
    out.push(item.id);
    itemIds(item.children, out);
  }
  return out;
}

/** The pending prompt of a play result, or null when the turn is over. */
export function pendingOf(result) {
  const last = result.prompts[result.prompts.length - 1];
  return last !== undefined && last.pending === true ? last : null;
}

/** A random answer that the pending prompt takes: yes to a must, which cannot be declined. */
export function randomAnswer(rng, prompt) {
  switch (prompt.kind) {
    case "do":
      return { do: prompt.must === true || rng.chance(0.6) };
    case "choose":
      if (prompt.may_pass && rng.chance(0.25)) return { choose: null };
      return { choose: rng.pick(prompt.options) };
    case "count":
      return { count: rng.int(4) };
    default:
      throw new Error(`a prompt of unknown kind ${JSON.stringify(prompt)}`);
  }
}

/**
 * Plays a turn of `selection` with random valid answers, as an engine would
 * know them: each time `play(selection, answers)` for the pending prompt, a
 * random answer for its kind appended, until the turn is over or `max`
 * answers. Now and then an "at any time" item is tried, kept when taken.
 * Returns the answers and the last result.
 */
export function randomTurn(rules, rng, selection, { max = 60, anyTime = [] } = {}) {
  const answers = [];
  let result = rules.play(selection, answers);
  while (!result.over && answers.length < max) {
    const prompt = pendingOf(result);
    if (prompt === null) throw new Error(`not over, and no prompt pending: ${JSON.stringify(result.prompts)}`);
    if (anyTime.length > 0 && rng.chance(0.1)) {
      const tried = [...answers, { any_time: rng.pick(anyTime) }];
      try {
        result = rules.play(selection, tried);
        answers.push(tried[tried.length - 1]);
        continue;
      } catch (e) {
        if (e.code !== "answers") throw e;
      }
    }
    const answer = randomAnswer(rng, prompt);
    if (rng.chance(0.3)) answer.seq = prompt.seq;
    answers.push(answer);
    result = rules.play(selection, answers);
  }
  return { answers, result };
}

/**
 * A diagnostic the command line printed on stderr, read back: its code (the
 * first line), its message (after `×`) and its help, with miette's line
 * wrapping undone (whitespace runs as one space).
 */
export function readDiagnostic(stderr) {
  const lines = stderr.split("\n");
  const code = lines[0].trim();
  const squash = (s) => s.replace(/\s+/g, " ").trim();
  const at = lines.findIndex((l) => l.trimStart().startsWith("×"));
  const message = [];
  for (let i = at; i >= 0 && i < lines.length && !/^\s*[╭│·╰]/.test(lines[i]) && lines[i].trim() !== ""; i++) {
    message.push(i === at ? lines[i].trimStart().slice(1) : lines[i]);
  }
  const h = lines.findIndex((l) => l.trimStart().startsWith("help:"));
  const help = [];
  for (let i = h; i >= 0 && i < lines.length && lines[i].trim() !== ""; i++) {
    help.push(i === h ? lines[i].trimStart().slice("help:".length) : lines[i]);
  }
  return { code, message: squash(message.join(" ")), help: h < 0 ? null : squash(help.join(" ")) };
}

/** A `RulesError`'s code, message and help, as `readDiagnostic` gives the command line's. */
export function diagnosticOf(err) {
  const squash = (s) => s.replace(/\s+/g, " ").trim();
  return { code: err.code, message: squash(err.message), help: err.help === null ? null : squash(err.help) };
}
