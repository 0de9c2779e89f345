// A real boardgame.io game whose turns are played by the package: G keeps
// the Carcassonne turn ({selection, answers, state, pending}), the one move
// answers the pending prompt through resume(), and the turn ends in
// boardgame.io when it is over in the rules. Headless: the plain Client, no
// multiplayer, no server.
//
// boardgame.io 0.50 has no "exports" map, and its subpath folders
// (boardgame.io/client, /core) only name CommonJS and ES files in
// package.json's "main"/"module" fields, which Node's ESM loader does not
// read: `import { Client } from "boardgame.io/client"` fails in Node 20 with
// ERR_UNSUPPORTED_DIR_IMPORT. The documented subpaths work through require.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { before, describe, test } from "node:test";

import { load } from "carcassonne-rules";
import { itemIds, pendingOf, prng, randomAnswer, seedFromEnv } from "../test-support/helpers.mjs";

const require = createRequire(import.meta.url);
const { Client } = require("boardgame.io/client");
const { INVALID_MOVE } = require("boardgame.io/core");

const seed = seedFromEnv();
let rules;

before(async () => {
  rules = await load();
});

/** A new Carcassonne turn in G. */
function startTurn(selection) {
  const result = rules.play(selection, []);
  return { state: result.state, answers: [], pending: pendingOf(result) };
}

/**
 * The game: each boardgame.io turn is one Carcassonne turn of `selection`,
 * `turns` turns in all. `restored` is a G saved before (JSON), to go on from.
 */
function carcassonne(selection, { turns = 2, restored } = {}) {
  return {
    name: "carcassonne-turns",
    setup: () => restored ?? { selection, ...startTurn(selection), finished: [], turns },
    turn: {
      // A turn ended with the rules' turn: the next player starts a new one.
      onBegin: ({ G }) => (G.pending === null ? { ...G, ...startTurn(G.selection) } : G),
    },
    moves: {
      answer: ({ G, ctx, events }, answer) => {
        let result;
        try {
          result = rules.resume(G.state, [answer]);
        } catch (e) {
          if (e.code === "answers") return INVALID_MOVE;
          throw e;
        }
        const next = { ...G, state: result.state, answers: [...G.answers, answer], pending: pendingOf(result) };
        if (result.over) {
          next.finished = [...G.finished, { player: ctx.currentPlayer, answers: next.answers, trace: result.trace }];
          events.endTurn();
        }
        return next;
      },
    },
    endIf: ({ G }) => (G.finished.length >= G.turns ? { turns: G.finished.length } : undefined),
  };
}

function client(game) {
  const c = Client({ game, numPlayers: 2, debug: false });
  c.start();
  return c;
}

/** Item id → effect, for the selection's steps. */
function effects(selection) {
  const byId = new Map();
  const walk = (items) => {
    for (const item of items) {
      byId.set(item.id, item.effect);
      walk(item.children);
    }
  };
  for (const phase of rules.order(selection).phases) for (const step of phase.steps) walk(step.items);
  return byId;
}

/**
 * Answers for the pending prompt that end the turn: random, but never the
 * tile that cannot be placed (a go-back), and with `double` the builder's
 * double turn taken whenever it is offered.
 */
function policy(selection, rng, { double = false } = {}) {
  const effect = effects(selection);
  return (prompt) => {
    if (prompt.kind === "do") {
      const e = effect.get(prompt.item);
      if (e && "go_back" in e) return { do: false };
      if (e && "double_turn" in e) return { do: double };
    }
    if (prompt.kind === "choose") {
      const options = prompt.options.filter((id) => !(effect.get(id) && "go_back" in effect.get(id)));
      const taken = double ? options.find((id) => effect.get(id) && "double_turn" in effect.get(id)) : undefined;
      if (taken) return { choose: taken };
      if (options.length > 0 && !(prompt.may_pass && rng.chance(0.25))) return { choose: rng.pick(options) };
    }
    return randomAnswer(rng, prompt);
  };
}

/** Plays the current turn to its end through the client's move. */
function playTurn(c, answer, { max = 200 } = {}) {
  const turn = c.getState().ctx.turn;
  for (let n = 0; n < max; n++) {
    const { G, ctx } = c.getState();
    if (ctx.turn !== turn || ctx.gameover) return;
    assert.ok(G.pending, "a prompt waits while the turn goes on");
    c.moves.answer(answer(G.pending));
  }
  assert.fail(`the turn did not end in ${max} answers`);
}

function quietly(f) {
  const error = console.error;
  console.error = () => {};
  try {
    return f();
  } finally {
    console.error = error;
  }
}

describe("a boardgame.io game played by the package", () => {
  test(`a whole base turn, then the next player's (seed ${seed})`, () => {
    const selection = { edition: "C2" };
    const rng = prng(seed);
    const c = client(carcassonne(selection, { turns: 2 }));
    assert.equal(c.getState().ctx.currentPlayer, "0");
    assert.equal(c.getState().G.pending.seq, 0);

    playTurn(c, policy(selection, rng));
    let { G, ctx } = c.getState();
    assert.equal(G.finished.length, 1);
    assert.equal(ctx.currentPlayer, "1", "the rules' end of turn ended boardgame.io's turn");
    assert.equal(ctx.turn, 2);
    const [first] = G.finished;
    assert.equal(first.player, "0");
    assert.deepEqual(first.trace.at(-1), { event: "end" });
    assert.deepEqual(first.trace, rules.play(selection, first.answers).trace, "the same turn as play() plays");
    assert.ok(G.pending && G.pending.seq === 0 && G.answers.length === 0, "player 1's turn starts anew");

    playTurn(c, policy(selection, rng));
    ({ G, ctx } = c.getState());
    assert.deepEqual(ctx.gameover, { turns: 2 });
    assert.equal(G.finished[1].player, "1");
    assert.deepEqual(G.finished[1].trace.at(-1), { event: "end" });
  });

  test(`a builder double turn to its end (seed ${seed})`, () => {
    const selection = { edition: "C2", with: ["builder"] };
    const c = client(carcassonne(selection, { turns: 1 }));
    playTurn(c, policy(selection, prng(seed), { double: true }));
    const { G, ctx } = c.getState();
    const [turn] = G.finished;
    assert.ok(turn.trace.some((e) => e.event === "part" && e.part === 2), "part 2 was played");
    assert.ok(
      turn.trace.some((e) => e.event === "item" && e.part === 2),
      "and answered in: the double turn plays the block again"
    );
    assert.deepEqual(turn.trace.at(-1), { event: "end" });
    assert.deepEqual(turn.trace, rules.play(selection, turn.answers).trace);
    assert.deepEqual(ctx.gameover, { turns: 1 });
  });

  test("an answer the rules refuse is an invalid move, and changes nothing", () => {
    const selection = { edition: "C2", with: ["builder"] };
    const c = client(carcassonne(selection));
    c.moves.answer({ do: true });
    const before = c.getState();
    assert.equal(before.G.pending.kind, "do");
    for (const bad of [{ count: 2 }, { choose: "no-such-item" }, { do: true, seq: 99 }, { any_time: "draw-tile" }]) {
      quietly(() => c.moves.answer(bad));
      const after = c.getState();
      assert.deepEqual(after.G, before.G, JSON.stringify(bad));
      assert.deepEqual(after.ctx, before.ctx);
      assert.equal(after._stateID, before._stateID, "no move was made");
    }
  });

  test(`G saved mid-turn as JSON and restored in a fresh client plays the same turn (seed ${seed})`, () => {
    const selection = { edition: "C2", with: ["builder", "abbey_and_mayor"] };
    // The answers of a whole double turn, found by playing it once.
    const answers = [];
    {
      const c = client(carcassonne(selection, { turns: 1 }));
      const answer = policy(selection, prng(seed ^ 0x68e31da4), { double: true });
      playTurn(c, (prompt) => {
        const a = answer(prompt);
        answers.push(a);
        return a;
      });
      assert.equal(c.getState().G.finished.length, 1);
    }
    const uninterrupted = rules.play(selection, answers);
    assert.ok(uninterrupted.over);

    const replay = (c, list) => {
      for (const a of list) c.moves.answer(a);
    };
    const rng = prng(seed ^ 0x7f4a7c15);
    for (let round = 0; round < 5; round++) {
      const k = 1 + rng.int(answers.length - 1);
      const a = client(carcassonne(selection, { turns: 1 }));
      replay(a, answers.slice(0, k));
      const saved = JSON.stringify(a.getState().G);
      assert.equal(a.getState().G.pending.seq, k, "mid-turn");

      const b = client(carcassonne(selection, { turns: 1, restored: JSON.parse(saved) }));
      assert.deepEqual(b.getState().G, JSON.parse(saved));
      replay(b, answers.slice(k));
      const { G, ctx } = b.getState();
      assert.deepEqual(ctx.gameover, { turns: 1 }, `restored after ${k} answers`);
      assert.deepEqual(G.finished[0].trace, uninterrupted.trace, `restored after ${k} answers`);
      assert.deepEqual(G.finished[0].answers, answers);
      assert.deepEqual(G.state, uninterrupted.state);
    }
    assert.ok(itemIds(rules.order(selection).any_time).length > 0);
  });
});
