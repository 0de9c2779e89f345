// Compiled, not run (`npm run types`): the package's types used as an
// engine would use them, through the package's own name and exports.
import rules, { load, RulesError } from "carcassonne-rules";
import type {
  Actor,
  Answer,
  OrderJson,
  PlayResult,
  Prompt,
  RefusalReason,
  Selection,
  State,
  TraceEvent,
} from "carcassonne-rules";

export async function example(): Promise<string[]> {
  const r = await load();
  const same: typeof load = rules.load;
  void same;
  const selection: Selection = { edition: "C2", with: ["builder"], lang: "nl" };
  const order: OrderJson = r.order(selection);
  const ids: string[] = order.phases.flatMap((p) => p.steps.flatMap((s) => s.items.map((i) => i.id)));
  for (const e of r.modules().expansions) ids.push(e.id, ...e.editions, ...e.modules.map((m) => m.id));

  let result: PlayResult = r.play(selection, []);
  while (!result.over) {
    const prompt: Prompt | undefined = result.prompts[result.prompts.length - 1];
    if (prompt === undefined || prompt.pending !== true) break;
    let answer: Answer;
    // Who to ask: the active player, or others.
    const actor: Actor = prompt.actor;
    if (actor !== "active") ids.push(actor);
    switch (prompt.kind) {
      case "do":
        // A must is acknowledged, never declined.
        answer = { do: prompt.must || prompt.item.length > 0 };
        break;
      case "choose":
        answer = { choose: prompt.must ? (prompt.options[0] ?? null) : null, seq: prompt.seq };
        if (prompt.of !== null) ids.push(prompt.of);
        break;
      case "count":
        answer = { count: 0 };
        break;
    }
    const state: State = result.state;
    result = r.resume(JSON.stringify(state), [answer]);
  }
  const trace: TraceEvent[] = result.trace;
  for (const e of trace) {
    if (e.event === "go_back") ids.push(e.from, e.to);
    if (e.event === "taken") ids.push(e.item, e.actor);
    if (e.event === "left_out") ids.push(e.item);
    if (e.event === "item" || e.event === "chose") ids.push(e.actor);
  }
  try {
    r.play({ edition: "C2" }, [{ any_time: "x" }]);
  } catch (e) {
    if (e instanceof RulesError) {
      const must: RefusalReason = "must";
      ids.push(e.code, e.message, e.help ?? "", String(e.answer ?? -1), e.reason === must ? "declined a must" : "");
    }
  }
  return ids;
}
