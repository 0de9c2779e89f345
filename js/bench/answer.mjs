// What one request costs through the package in Node, beside the native
// figure of `cargo bench -p carcassonne-rules-benches --bench request` (the
// same requests): `node bench/answer.mjs` prints the medians of 21 rounds.
import { load } from "../index.mjs";

const rules = await load();
const selection = { edition: "C2", with: ["builder"] };
// The tile drawn and shown (musts) and placed: 2B-1's choice is pending.
const { state } = rules.play(selection, Array(3).fill({ do: true }));

function median(f) {
  const rounds = [];
  for (let round = 0; round < 21; round++) {
    const n = 2000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    rounds.push(Number(process.hrtime.bigint() - start) / n);
  }
  rounds.sort((a, b) => a - b);
  return rounds[10];
}

for (let i = 0; i < 2000; i++) rules.resume(state, [{ choose: null }]);
const resume = median(() => rules.resume(state, [{ choose: null }]));
const play = median(() => rules.play(selection, []));
console.log(`request/resume: ${(resume / 1000).toFixed(1)} µs (median of 21 rounds of 2000)`);
console.log(`request/play:   ${(play / 1000).toFixed(1)} µs (median of 21 rounds of 2000)`);
