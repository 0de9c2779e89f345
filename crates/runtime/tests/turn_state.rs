//! A saved turn is untrusted: an engine's client or a restored database row
//! may hand back any JSON. The turn refuses every state no play of its plan
//! could have left, and no edit makes it panic.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use carcassonne_rules_runtime::core::{Config, TurnOrder};
use carcassonne_rules_runtime::generated::{edition, module};
use carcassonne_rules_runtime::trace::Trace;
use carcassonne_rules_runtime::turn::{Answer, Ask, Plan, Turn, TurnError};
use serde_json::{Value, json};

fn order(cfg: &Config) -> TurnOrder<'static> {
    carcassonne_rules_runtime::turn_order(cfg)
}

/// Plays `n` answers: "no" to every question but a must, the first option, one feature.
fn played(plan: &Plan, n: usize) -> Turn {
    let mut trace = Trace::default();
    let mut turn = Turn::start(plan, &mut trace);
    for _ in 0..n {
        let Some(prompt) = turn.prompt(plan).expect("a sound turn") else { break };
        let answer = match prompt.ask {
            Ask::Do(_) => Answer::Do(prompt.must),
            Ask::Choose { options, .. } => Answer::Choose(options.first().map(|o| o.item)),
            Ask::Count => Answer::Count(1),
            _ => unimplemented!("a kind of prompt this test does not know"),
        };
        turn.answer(plan, prompt.seq, answer, &mut trace).expect("an offered answer");
    }
    turn
}

fn edited(turn: &Turn, edit: impl FnOnce(&mut Value)) -> Turn {
    let mut value = serde_json::to_value(turn).expect("a turn serializes");
    edit(&mut value);
    serde_json::from_value(value).expect("still of the turn's shape")
}

fn refused(plan: &Plan, turn: &Turn) -> String {
    let Err(TurnError::BadState(why)) = turn.check(plan) else {
        panic!("accepted: {}", serde_json::to_string(turn).expect("serializes"));
    };
    let mut trace = Trace::default();
    assert!(matches!(turn.prompt(plan), Err(TurnError::BadState(_))));
    assert!(matches!(turn.clone().answer(plan, turn.seq(), Answer::Do(true), &mut trace), Err(TurnError::BadState(_))));
    why
}

#[test]
fn inconsistent_memories_are_refused_with_what_is_wrong() {
    let base = order(&carcassonne_rules_runtime::config(edition::C2));
    let base = Plan::new(&base);
    let builder = order(&carcassonne_rules_runtime::config(edition::C2).with(module::BUILDER));
    let builder = Plan::new(&builder);
    let turn = played(&base, 3);
    assert_eq!(turn.check(&base), Ok(()));

    let why = refused(&base, &edited(&turn, |v| v["double_turn"] = json!(true)));
    assert!(why.contains("without one"), "{why}");
    let in_builder = played(&builder, 3);
    assert_eq!(in_builder.check(&builder), Ok(()));
    assert!(refused(&builder, &edited(&in_builder, |v| v["part"] = json!(2))).contains("part 2 without"));
    assert!(refused(&builder, &edited(&in_builder, |v| v["after_block"] = json!(true))).contains("part 2"));
    assert!(refused(&base, &edited(&turn, |v| v["part"] = json!(3))).contains("part 3"));
    assert!(refused(&base, &edited(&turn, |v| v["once"] = json!(["draw-tile"]))).contains("no once item"));
    assert!(refused(&base, &edited(&turn, |v| v["skipped"] = json!(["9Z"]))).contains("no skipped step"));
    assert!(refused(&base, &edited(&turn, |v| v["go_backs"] = json!(101))).contains("go-backs"));
    assert!(refused(&base, &edited(&turn, |v| v["seq"] = json!(u32::MAX))).contains("limit"));
    let bogus: Vec<String> = (0..600_000).map(|n| format!("bogus-{n}")).collect();
    assert!(refused(&base, &edited(&turn, |v| v["once"] = json!(bogus))).contains("bogus-0"));
}

#[test]
fn a_skip_or_once_named_twice_is_refused_and_a_real_one_is_kept() {
    let princess = order(&carcassonne_rules_runtime::config(edition::C2).with(module::PRINCESS));
    let plan = Plan::new(&princess);
    let turn = played(&plan, 2);
    let skips = edited(&turn, |v| v["skipped"] = json!(["2B-1"]));
    assert_eq!(skips.check(&plan), Ok(()), "the princess skips 2B-1");
    assert!(refused(&plan, &edited(&turn, |v| v["skipped"] = json!(["2B-1", "2B-1"]))).contains("twice"));
}

#[test]
fn an_answer_meant_for_the_previous_turn_is_stale() {
    let cfg = carcassonne_rules_runtime::config(edition::C2);
    let order = order(&cfg);
    let plan = Plan::new(&order);
    let mut trace = Trace::default();
    let first = played(&plan, 500);
    assert!(first.is_over());
    let mut next = Turn::start_at(&plan, first.seq(), &mut trace);
    assert_eq!(next.seq(), first.seq());
    // The first turn's prompt 0 again: stale now, where a per-turn count took it.
    assert_eq!(
        next.answer(&plan, 0, Answer::Do(true), &mut trace),
        Err(TurnError::Stale { answered: 0, pending: first.seq() })
    );
    assert_eq!(next.answer(&plan, first.seq(), Answer::Do(true), &mut trace), Ok(()));
}

/// A small generator for the random edits, seeded so a failure replays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn ten_thousand_random_edits_never_panic_and_leave_a_playable_or_refused_turn() {
    let cfg = carcassonne_rules_runtime::config(edition::C2).with(module::BUILDER).with(module::PRINCESS);
    let order = order(&cfg);
    let plan = Plan::new(&order);
    let turns: Vec<Value> = (0..30).map(|n| serde_json::to_value(played(&plan, n)).expect("serializes")).collect();
    let ids = ["draw-tile", "1B", "2B-1", "place-tile", "", "4B", "x"];
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut accepted, mut refusals) = (0, 0);
    for _ in 0..10_000 {
        let mut value = turns[rng.below(turns.len())].clone();
        let field = ["seq", "part", "double_turn", "after_block", "skipped", "once", "go_backs", "at"][rng.below(8)];
        value[field] = match field {
            "seq" | "go_backs" => json!([0, 1, 99, 100, 101, u32::MAX - 1, u32::MAX][rng.below(7)]),
            "part" => json!(rng.below(4)),
            "double_turn" | "after_block" => json!(rng.below(2) == 1),
            "skipped" | "once" => json!((0..rng.below(4)).map(|_| ids[rng.below(ids.len())]).collect::<Vec<_>>()),
            _ => {
                let prompt = ["do", "choose", "count", "over"][rng.below(4)];
                let feature = [json!(null), json!([1, 2]), json!([3, 2]), json!([0, 0])][rng.below(4)].clone();
                let (step, item) = (ids[rng.below(ids.len())], ids[rng.below(ids.len())]);
                json!({"prompt": prompt, "step": step, "feature": feature, "item": item, "of": null})
            }
        };
        let Ok(turn) = serde_json::from_value::<Turn>(value) else { continue };
        let mut trace = Trace::default();
        match turn.prompt(&plan) {
            Err(_) => refusals += 1,
            Ok(prompt) => {
                accepted += 1;
                // Whatever was accepted plays on without a panic.
                let mut turn = turn.clone();
                if let Some(p) = prompt {
                    let answer = match p.ask {
                        Ask::Do(_) => Answer::Do(true),
                        Ask::Choose { options, .. } => Answer::Choose(options.first().map(|o| o.item)),
                        Ask::Count => Answer::Count(2),
                        _ => unimplemented!("a kind of prompt this test does not know"),
                    };
                    let _ = turn.answer(&plan, p.seq, answer, &mut trace);
                }
            }
        }
    }
    assert!(accepted > 100 && refusals > 1000, "accepted {accepted}, refused {refusals}");
}

#[test]
fn a_shared_plan_is_kept_across_threads_and_plays_as_the_plan_it_owns() {
    use carcassonne_rules_runtime::turn::SharedPlan;
    fn send_sync<T: Send + Sync + 'static>(_: &T) {}
    let cfg = carcassonne_rules_runtime::config(edition::C2).with(module::BUILDER);
    let borrowed = order(&cfg);
    let shared = SharedPlan::new(order(&cfg));
    send_sync(&shared);
    let expected = serde_json::to_string(&played(&Plan::new(&borrowed), 40)).expect("serializes");
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let shared = shared.clone();
            std::thread::spawn(move || serde_json::to_string(&played(shared.plan(), 40)).expect("serializes"))
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().expect("the thread plays"), expected);
    }
    assert_eq!(shared.plan().fingerprint(), Plan::new(&borrowed).fingerprint());
}

/// A turn of `plan` played `n` answers deep with seeded random answers, the
/// answers it took, and every (turn, trace) on the way.
fn random_play(plan: &Plan, rng: &mut Rng, n: usize) -> Vec<(Turn, Trace)> {
    let mut trace = Trace::default();
    let mut turn = Turn::start(plan, &mut trace);
    let mut states = vec![(turn.clone(), trace.clone())];
    for _ in 0..n {
        let Some(prompt) = turn.prompt(plan).expect("a sound turn") else { break };
        let answer = match prompt.ask {
            Ask::Do(_) => Answer::Do(prompt.must || rng.below(3) == 0),
            Ask::Choose { options, may_pass, .. } => {
                let pick = rng.below(options.len() + usize::from(may_pass));
                Answer::Choose(options.get(pick).map(|o| o.item))
            }
            Ask::Count => Answer::Count(rng.below(3) as u32),
            _ => unimplemented!("a kind of prompt this test does not know"),
        };
        if turn.answer(plan, prompt.seq, answer, &mut trace).is_ok() {
            states.push((turn.clone(), trace.clone()));
        }
    }
    states
}

#[test]
fn undo_to_any_earlier_prompt_gives_the_turn_as_it_was_and_its_answers_replay_it() {
    use carcassonne_rules_runtime::history::{replay, said, undo, verify};
    let mut rng = Rng(0x0dd_ba11_u64);
    let catalog = carcassonne_rules_runtime::catalog();
    let ids: Vec<&str> = catalog.expansions.iter().map(|e| e.id.as_str()).collect();
    for round in 0..40 {
        let with: Vec<&str> = (0..rng.below(4)).map(|_| ids[rng.below(ids.len())]).collect();
        let edition = ["C1", "C2", "WE"][round % 3];
        let Ok(cfg) = catalog.config(edition, None, &with.join(",")) else { continue };
        let order = order(&cfg);
        let plan = Plan::new(&order);
        let states = random_play(&plan, &mut rng, 60);
        let (turn, trace) = states.last().expect("a start");
        assert_eq!(verify(&plan, turn, trace), Ok(()));
        if turn.is_over() {
            let mut ended = turn.clone();
            ended.end(&plan).expect("over");
            assert_eq!(verify(&plan, &ended, trace), Ok(()), "an ended turn verifies");
        }
        assert_eq!(replay(&plan, 0, &said(trace)).as_ref(), Ok(&(turn.clone(), trace.clone())));
        for (earlier, state) in states.iter().enumerate() {
            assert_eq!(undo(&plan, turn, trace, earlier as u32).as_ref(), Ok(state), "{edition} {with:?} to {earlier}");
        }
        assert!(undo(&plan, turn, trace, turn.seq() + 1).is_err());
    }
}

#[test]
fn a_forged_jump_passes_the_structural_check_but_not_the_replay() {
    use carcassonne_rules_runtime::history::verify;
    let cfg = carcassonne_rules_runtime::config(edition::C2);
    let order = order(&cfg);
    let plan = Plan::new(&order);
    let mut trace = Trace::default();
    let mut turn = Turn::start(&plan, &mut trace);
    // Up to the first prompt of 1C (placing the tile), answering no but to a must.
    while let Some(prompt) = turn.prompt(&plan).expect("sound").filter(|p| p.step.id != "1C") {
        turn.answer(&plan, turn.seq(), Answer::Do(prompt.must), &mut trace).expect("offered");
    }
    let asked = serde_json::to_value(&turn).expect("serializes")["at"]["item"].as_str().expect("an item").to_string();
    let other = if asked == "place-tile" { "place-tile-no-legal-spot" } else { "place-tile" };
    let jumped = edited(&turn, |v| v["at"]["item"] = json!(other));
    assert_eq!(jumped.check(&plan), Ok(()), "a prompt this step could ask");
    let Err(TurnError::BadState(why)) = verify(&plan, &jumped, &trace) else { panic!("the jump was taken") };
    assert!(why.contains("another turn"), "{why}");
    assert_eq!(verify(&plan, &turn, &trace), Ok(()));
}

#[test]
fn every_legal_answer_is_taken_and_nothing_else() {
    let mut rng = Rng(0x1e9a1);
    let cfg = carcassonne_rules_runtime::config(edition::C2).with(module::BUILDER).with(module::PRINCESS);
    let order = order(&cfg);
    let plan = Plan::new(&order);
    let (mut taken, mut refused) = (0, 0);
    for (turn, _) in random_play(&plan, &mut rng, 80) {
        let Some(prompt) = turn.prompt(&plan).expect("sound") else { continue };
        let legal = prompt.legal_answers();
        let wrong = [Answer::Do(true), Answer::Do(false), Answer::Choose(None), Answer::Count(65), Answer::Count(0)];
        for answer in legal.iter().chain(&wrong) {
            let result = turn.clone().answer(&plan, prompt.seq, *answer, &mut Trace::default());
            let go_back_bound = matches!(result, Err(TurnError::TooManyGoBacks(_)));
            assert_eq!(result.is_ok() || go_back_bound, legal.contains(answer), "{answer:?} at {prompt:?}");
            if result.is_ok() { taken += 1 } else { refused += 1 }
        }
    }
    assert!(taken > 100 && refused > 100, "taken {taken}, refused {refused}");
}

#[test]
fn a_refusal_speaks_the_turn_s_language_and_keeps_a_stable_code() {
    let cfg = carcassonne_rules_runtime::config(edition::C2);
    let dutch = carcassonne_rules_runtime::locale("nl").expect("lang-nl is on in tests");
    let order = carcassonne_rules_runtime::turn_order_in(&cfg, dutch);
    let plan = Plan::new(&order);
    let english = carcassonne_rules_runtime::turn_order(&cfg);
    let english = Plan::new(&english);
    for (err, said) in
        [(TurnError::Over, "The turn is over."), (TurnError::MayNotPass, "One of the options must be taken here.")]
    {
        let (nl, en) = (err.message(&plan), err.message(&english));
        assert_eq!(en, said);
        assert!(!nl.is_empty() && nl != en, "{err:?} in Dutch: {nl}");
    }
    assert_eq!(TurnError::Stale { answered: 1, pending: 2 }.code(), "stale");
    assert_eq!(
        serde_json::to_value(TurnError::Stale { answered: 1, pending: 2 }).expect("serializes"),
        json!({"code": "stale", "message": "the answer is for prompt 1, but prompt 2 is pending"})
    );
    assert_eq!(TurnError::BadState(String::new()).code(), "bad-state");
}

#[test]
fn what_a_trace_says_written_as_the_play_contract_plays_the_same_turn() {
    use carcassonne_rules_runtime::history::said;
    use carcassonne_rules_runtime::wire::{AnswerJson, Play};
    let mut rng = Rng(0xa115_7e11);
    let cfg = carcassonne_rules_runtime::config(edition::C2).with(module::BUILDER).with(module::TOWER);
    let order = order(&cfg);
    let plan = Plan::new(&order);
    for _ in 0..20 {
        let (turn, trace) = random_play(&plan, &mut rng, 60).pop().expect("a start");
        let mut play = Play::start(&plan);
        for s in said(&trace) {
            let value = serde_json::to_value(AnswerJson::of(s, &plan)).expect("serializes");
            play.answer(&value).unwrap_or_else(|r| panic!("{value} refused: {}", r.message));
        }
        assert_eq!((play.turn(), play.trace()), (&turn, &trace));
    }
}
