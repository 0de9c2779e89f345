//! The resumable turn's semantics on hand-built turn orders: every role,
//! choose-one, optional, once and effect, the double-turn block, refused
//! answers, saving and restoring.

// Helpers outside `#[test]` functions panic on a misbuilt order, as tests do.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::borrow::Cow;
use std::sync::{LazyLock, Mutex};

use carcassonne_rules_runtime::core::{
    Catalog, DoubleTurnBlock, Effect, Entry, Flow, ItemId, ItemRepeat, Origin, PhaseOrder, Repeat, Role, Section,
    StepId, StepOrder, TurnOrder,
};
use carcassonne_rules_runtime::trace::{Event, Trace};
use carcassonne_rules_runtime::turn::{Answer, Ask, Kind, MAX_FEATURES, Plan, Turn, TurnError};

/// Every item name the tests use, numbered as they first come: an item's id.
static ITEM_NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// What an entry points to until [`order`] gives it its order's catalog.
static NO_NAMES: LazyLock<Catalog> = LazyLock::new(Catalog::default);

/// `entries` and their children named by `catalog`.
fn name_by(entries: &mut [Entry<'static>], catalog: &'static Catalog) {
    for entry in entries {
        entry.catalog = catalog;
        name_by(&mut entry.children, catalog);
    }
}

fn flow(role: Role) -> Flow {
    Flow { role, ..Flow::ACTION }
}

fn item(id: &'static str, flow: Flow, effect: Option<Effect>, children: Vec<Entry<'static>>) -> Entry<'static> {
    let mut names = ITEM_NAMES.lock().unwrap();
    let number = names.iter().position(|n| *n == id).unwrap_or_else(|| {
        names.push(id);
        names.len() - 1
    });
    Entry {
        item: ItemId(number as u16),
        catalog: &NO_NAMES,
        origin: Origin::Base,
        text: Cow::Borrowed(id),
        markers: Box::new([]),
        foreign: false,
        effect: effect.map(|e| &*Box::leak(Box::new(e))),
        flow,
        none_of: &[],
        children,
        translation: None,
    }
}

fn action(id: &'static str, children: Vec<Entry<'static>>) -> Entry<'static> {
    item(id, Flow::ACTION, None, children)
}

fn step(n: u8, id: &'static str, items: Vec<Entry<'static>>) -> StepOrder<'static> {
    StepOrder {
        step: StepId(n),
        id: Cow::Borrowed(id),
        title: Cow::Borrowed(id),
        repeat: None,
        choose_one: false,
        may_pass: false,
        items,
    }
}

/// A turn order of `steps`, its ids named by a catalog of its own (a step's
/// id by its number, every item name the tests used so far).
fn order(mut steps: Vec<StepOrder<'static>>, block: Option<(u8, u8)>) -> TurnOrder<'static> {
    let last = steps.iter().map(|s| usize::from(s.step.0)).max().map_or(0, |n| n + 1);
    let mut step_names = vec![""; last];
    for s in &steps {
        step_names[usize::from(s.step.0)] = &s.id;
    }
    let items = ITEM_NAMES.lock().unwrap().clone();
    let catalog: &'static Catalog = Box::leak(Box::new(Catalog::default().with_ids(step_names, items)));
    for s in &mut steps {
        name_by(&mut s.items, catalog);
    }
    TurnOrder {
        edition: "C2".into(),
        variant: "hig".into(),
        modules: vec![],
        sections: Default::default(),
        phases: vec![PhaseOrder { id: "1".into(), title: "all".into(), steps }],
        double_turn: block.map(|(first, last)| DoubleTurnBlock { first: StepId(first), last: StepId(last) }),
        lang: None,
        words: None,
    }
}

/// Plays `order` answering from `answers` (by item id for choices) until a
/// prompt finds no answer left; the trace by names, and the turn.
fn play(order: &TurnOrder, answers: &[&str]) -> (Vec<String>, Turn) {
    let plan = Plan::new(order);
    let mut trace = Trace::default();
    let mut turn = Turn::start(&plan, &mut trace);
    for answer in answers {
        let answer = parse(&plan, answer);
        turn.answer(&plan, turn.seq(), answer, &mut trace).unwrap_or_else(|e| panic!("{answer:?} refused: {e}"));
    }
    (trace.text(&plan).lines().map(|l| l.trim().to_string()).collect(), turn)
}

fn parse(plan: &Plan, answer: &str) -> Answer {
    match answer {
        "yes" => Answer::Do(true),
        "no" => Answer::Do(false),
        "none" => Answer::Choose(None),
        n if n.parse::<u32>().is_ok() => Answer::Count(n.parse().unwrap()),
        id => Answer::Choose(Some(plan.item_named(id).unwrap_or_else(|| panic!("no item {id}")))),
    }
}

fn asked(order: &TurnOrder, turn: &Turn) -> Option<String> {
    let plan = Plan::new(order);
    turn.prompt(&plan).expect("its rules").map(|p| match p.ask {
        Ask::Do(e) => format!("do {}", e.id()),
        Ask::Choose { options, may_pass, .. } => {
            let ids: Vec<&str> = options.iter().map(|o| o.id()).collect();
            format!("choose {}{}", ids.join(","), if may_pass { " or none" } else { "" })
        }
        Ask::Count => "count".to_string(),
        _ => unimplemented!("a kind of prompt this test does not know"),
    })
}

#[test]
fn an_action_s_sub_items_play_only_when_it_is_done_and_its_otherwise_branch_only_when_not() {
    // `a`'s branch for "not done" is written first; it plays after the others, or alone.
    let otherwise = |id| item(id, Flow { role: Role::Condition, otherwise: true, ..Flow::ACTION }, None, vec![]);
    let a = || action("a", vec![otherwise("a-not"), action("a1", vec![]), action("a2", vec![])]);
    let order = order(vec![step(0, "1B", vec![a(), action("b", vec![])])], None);
    let (done, _) = play(&order, &["yes", "yes", "no", "yes"]);
    assert_eq!(done, ["step 1B", "a: yes", "a1: yes", "a2: no", "b: yes", "end of turn"]);
    let (not_done, _) = play(&order, &["no", "yes", "yes"]);
    assert_eq!(not_done, ["step 1B", "a: no", "a-not: yes", "b: yes", "end of turn"]);
    // Without an otherwise branch, "no" plays nothing under the action.
    let plain =
        self::order(vec![step(0, "1B", vec![action("c", vec![action("c1", vec![])]), action("d", vec![])])], None);
    let (trace, turn) = play(&plain, &["no", "yes"]);
    assert_eq!(trace, ["step 1B", "c: no", "d: yes", "end of turn"]);
    assert!(turn.is_over());
}

#[test]
fn a_declined_condition_plays_nothing_under_it_nor_its_effect() {
    let cond = |effect| item("if-x", flow(Role::Condition), effect, vec![action("under", vec![])]);
    let build = |effect| {
        order(
            vec![step(0, "1B", vec![cond(effect), action("b", vec![])]), step(1, "1C", vec![action("c", vec![])])],
            None,
        )
    };
    let skip = || Some(Effect::Skip(Cow::Owned(vec![StepId(1)])));
    let (no, _) = play(&build(skip()), &["no", "yes", "yes"]);
    assert_eq!(no, ["step 1B", "if-x: no", "b: yes", "step 1C", "c: yes", "end of turn"]);
    let (yes, _) = play(&build(skip()), &["yes", "yes", "yes"]);
    assert_eq!(yes, ["step 1B", "if-x: yes", "under: yes", "b: yes", "step 1C skipped", "end of turn"]);
}

#[test]
fn groups_are_not_asked_and_notes_play_nothing() {
    let order = order(
        vec![step(
            0,
            "1B",
            vec![
                item("heading", flow(Role::Group), None, vec![action("g1", vec![]), action("g2", vec![])]),
                item("note", flow(Role::Note), None, vec![action("under-note", vec![])]),
                action("last", vec![]),
            ],
        )],
        None,
    );
    let (trace, turn) = play(&order, &["yes", "no", "yes"]);
    assert_eq!(trace, ["step 1B", "g1: yes", "g2: no", "last: yes", "end of turn"]);
    assert!(turn.is_over());
}

#[test]
fn a_choose_one_step_plays_only_the_option_taken_and_passes_only_where_it_may() {
    let build = |may_pass| {
        let mut s = step(
            0,
            "2B-1",
            vec![
                action("meeple", vec![action("on-road", vec![])]),
                item("aside", flow(Role::Note), None, vec![]),
                action("other", vec![action("builder", vec![])]),
            ],
        );
        s.choose_one = true;
        s.may_pass = may_pass;
        order(vec![s, step(1, "2C", vec![action("after", vec![])])], None)
    };
    let must = build(false);
    let (_, turn) = play(&must, &[]);
    assert_eq!(asked(&must, &turn).as_deref(), Some("choose meeple,other"), "notes are not options");
    let (trace, _) = play(&must, &["other", "yes", "yes"]);
    assert_eq!(trace, ["step 2B-1", "chose other", "builder: yes", "step 2C", "after: yes", "end of turn"]);

    let plan = Plan::new(&must);
    let mut log = Trace::default();
    let mut t = Turn::start(&plan, &mut log);
    assert_eq!(t.answer(&plan, 0, Answer::Choose(None), &mut log), Err(TurnError::MayNotPass));
    let builder = plan.item_named("builder").unwrap();
    assert_eq!(t.answer(&plan, 0, Answer::Choose(Some(builder)), &mut log), Err(TurnError::NotOffered(builder)));
    let aside = plan.item_named("aside").unwrap();
    assert_eq!(t.answer(&plan, 0, Answer::Choose(Some(aside)), &mut log), Err(TurnError::NotOffered(aside)));

    let may = build(true);
    let (_, turn) = play(&may, &[]);
    assert_eq!(asked(&may, &turn).as_deref(), Some("choose meeple,other or none"));
    let (trace, _) = play(&may, &["none", "no"]);
    assert_eq!(trace, ["step 2B-1", "chose none", "step 2C", "after: no", "end of turn"]);
}

#[test]
fn choose_one_items_by_role() {
    // The note among the options is read, not offered.
    let options = || {
        vec![
            action("x", vec![action("x1", vec![])]),
            item("aside", flow(Role::Note), None, vec![]),
            action("y", vec![]),
        ]
    };
    let choose = |role, optional| Flow { role, optional, choose_one: true, ..Flow::ACTION };
    let build = |f| order(vec![step(0, "1B", vec![item("pick", f, None, options()), action("next", vec![])])], None);

    // An action that is a choice: asked as the choice, at once.
    let must = build(choose(Role::Action, false));
    let (_, turn) = play(&must, &[]);
    assert_eq!(asked(&must, &turn).as_deref(), Some("choose x,y"));
    let (trace, _) = play(&must, &["x", "no", "yes"]);
    assert_eq!(trace, ["step 1B", "chose x", "x1: no", "next: yes", "end of turn"]);
    // Optional: the player may take none.
    let may = build(choose(Role::Action, true));
    let (trace, _) = play(&may, &["none", "yes"]);
    assert_eq!(trace, ["step 1B", "chose none", "next: yes", "end of turn"]);
    // A condition is asked first; its options only when it holds.
    let cond = build(choose(Role::Condition, false));
    let (trace, _) = play(&cond, &["no", "yes"]);
    assert_eq!(trace, ["step 1B", "pick: no", "next: yes", "end of turn"]);
    let (trace, _) = play(&cond, &["yes", "y", "yes"]);
    assert_eq!(trace, ["step 1B", "pick: yes", "chose y", "next: yes", "end of turn"]);
    // A group is never asked; its options are.
    let group = build(choose(Role::Group, true));
    let (_, turn) = play(&group, &[]);
    assert_eq!(asked(&group, &turn).as_deref(), Some("choose x,y or none"));
    // A note: nothing under it.
    let note = build(choose(Role::Note, false));
    let (trace, _) = play(&note, &["yes"]);
    assert_eq!(trace, ["step 1B", "next: yes", "end of turn"]);
}

#[test]
fn an_options_effect_applies_when_it_is_taken() {
    let skip = || Some(Effect::Skip(Cow::Owned(vec![StepId(1)])));
    let mut s = step(0, "2B-1", vec![item("princess", Flow::ACTION, skip(), vec![]), action("meeple", vec![])]);
    s.choose_one = true;
    let order = order(vec![s, step(1, "2C", vec![action("c", vec![])])], None);
    let (trace, _) = play(&order, &["princess"]);
    assert_eq!(trace, ["step 2B-1", "chose princess", "step 2C skipped", "end of turn"]);
    let (trace, _) = play(&order, &["meeple", "yes"]);
    assert_eq!(trace, ["step 2B-1", "chose meeple", "step 2C", "c: yes", "end of turn"]);
}

/// 1A, then the block 1B–2A, then 4B holding the double-turn item.
fn double_turn_order(earn_in: &'static str) -> TurnOrder<'static> {
    let earn = || item("earn", Flow::ACTION, Some(Effect::DoubleTurn), vec![]);
    let with = |id: &'static str, n: u8| {
        let mut items = vec![action(Box::leak(format!("do-{id}").into_boxed_str()), vec![])];
        if id == earn_in {
            items.push(earn());
        }
        step(n, id, items)
    };
    order(vec![with("1A", 0), with("1B", 1), with("2A", 2), with("4B", 3)], Some((1, 2)))
}

#[test]
fn a_double_turn_earned_after_the_block_plays_exactly_the_block_again() {
    let order = double_turn_order("4B");
    let (trace, turn) = play(&order, &["yes", "yes", "yes", "yes", "yes", "yes", "yes"]);
    assert_eq!(
        trace,
        [
            "step 1A",
            "do-1A: yes",
            "step 1B",
            "do-1B: yes",
            "step 2A",
            "do-2A: yes",
            "step 4B",
            "do-4B: yes",
            "earn: yes",
            "part 2",
            "step 1B",
            "do-1B: yes",
            "step 2A",
            "do-2A: yes",
            "end of turn"
        ]
    );
    assert!(turn.is_over());
}

#[test]
fn a_double_turn_earned_inside_the_block_plays_the_steps_after_it_once_after_part_2() {
    let order = double_turn_order("1B");
    // Part 2 asks for the double turn again; it cannot be earned twice.
    let (trace, turn) = play(&order, &["yes", "yes", "yes", "yes", "yes", "yes", "yes", "yes"]);
    assert_eq!(
        trace,
        [
            "step 1A",
            "do-1A: yes",
            "step 1B",
            "do-1B: yes",
            "earn: yes",
            "step 2A",
            "do-2A: yes",
            "part 2",
            "step 1B",
            "do-1B: yes",
            "earn: yes",
            "step 2A",
            "do-2A: yes",
            "step 4B",
            "do-4B: yes",
            "end of turn"
        ]
    );
    assert!(turn.is_over());
}

#[test]
fn once_items_are_done_at_most_once_across_both_parts() {
    let once = Flow { once: true, ..Flow::ACTION };
    let earn = item("earn", Flow::ACTION, Some(Effect::DoubleTurn), vec![]);
    let mut choose = step(1, "1C", vec![item("trade", once, None, vec![]), action("keep", vec![])]);
    choose.choose_one = true;
    let build = |choose| {
        order(
            vec![
                step(0, "1B", vec![item("swap", once, None, vec![action("under-swap", vec![])])]),
                choose,
                step(2, "4B", vec![earn.clone()]),
            ],
            Some((0, 1)),
        )
    };
    let order = build(choose);
    let (trace, turn) = play(&order, &["yes", "no", "trade", "yes"]);
    assert_eq!(
        trace,
        [
            "step 1B",
            "swap: yes",
            "under-swap: no",
            "step 1C",
            "chose trade",
            "step 4B",
            "earn: yes",
            "part 2",
            "step 1B",
            "swap: done once already",
            "step 1C",
            // The option done once is not offered again: the one left is taken unasked.
            "took keep, the only option",
            "end of turn"
        ]
    );
    assert!(turn.is_over());
    // Answered no, a once item is asked again in part 2.
    let (trace, _) = play(&order, &["no", "keep", "yes", "yes", "no"]);
    assert_eq!(trace.iter().filter(|l| *l == "swap: no" || *l == "swap: yes").count(), 2);
}

#[test]
fn a_go_back_drops_the_rest_of_the_step_and_is_bounded() {
    let back = item("no-spot", Flow::ACTION, Some(Effect::GoBack(StepId(0))), vec![]);
    let order = order(
        vec![step(0, "1B", vec![action("draw", vec![])]), step(1, "1C", vec![back, action("rest", vec![])])],
        None,
    );
    let (trace, _) = play(&order, &["yes", "yes", "yes", "no", "no"]);
    assert_eq!(
        trace,
        [
            "step 1B",
            "draw: yes",
            "step 1C",
            "no-spot: yes",
            "go back from 1C to 1B",
            "step 1B",
            "draw: yes",
            "step 1C",
            "no-spot: no",
            "rest: no",
            "end of turn"
        ]
    );

    let plan = Plan::new(&order);
    let mut log = Trace::default();
    let mut turn = Turn::start(&plan, &mut log);
    for _ in 0..100 {
        turn.answer(&plan, turn.seq(), Answer::Do(true), &mut log).expect("draw");
        turn.answer(&plan, turn.seq(), Answer::Do(true), &mut log).expect("go back");
    }
    turn.answer(&plan, turn.seq(), Answer::Do(true), &mut log).expect("draw");
    let before = turn.clone();
    assert_eq!(turn.answer(&plan, turn.seq(), Answer::Do(true), &mut log), Err(TurnError::TooManyGoBacks(100)));
    assert_eq!(turn, before, "a refused answer changes nothing");
}

#[test]
fn a_per_feature_step_plays_once_per_completed_feature() {
    let mut s = step(0, "3B", vec![action("score", vec![])]);
    s.repeat = Some(Repeat::PerFeature);
    let order = order(vec![s], None);
    let (trace, _) = play(&order, &["2", "yes", "no"]);
    assert_eq!(
        trace,
        ["step 3B (feature 1 of 2)", "score: yes", "step 3B (feature 2 of 2)", "score: no", "end of turn"]
    );
    let (trace, _) = play(&order, &["0"]);
    assert_eq!(trace, ["step 3B: no completed feature", "end of turn"]);
    let plan = Plan::new(&order);
    let mut log = Trace::default();
    let mut turn = Turn::start(&plan, &mut log);
    assert_eq!(
        turn.answer(&plan, 0, Answer::Count(MAX_FEATURES + 1), &mut log),
        Err(TurnError::TooManyFeatures(MAX_FEATURES + 1))
    );
}

#[test]
fn stale_ill_typed_and_late_answers_are_refused() {
    let order = order(vec![step(0, "1B", vec![action("a", vec![])])], None);
    let plan = Plan::new(&order);
    let mut log = Trace::default();
    let mut turn = Turn::start(&plan, &mut log);
    assert_eq!(turn.answer(&plan, 1, Answer::Do(true), &mut log), Err(TurnError::Stale { answered: 1, pending: 0 }));
    assert_eq!(
        turn.answer(&plan, 0, Answer::Count(1), &mut log),
        Err(TurnError::WrongKind { expected: Kind::Do, got: Kind::Count })
    );
    turn.answer(&plan, 0, Answer::Do(true), &mut log).expect("the answer");
    assert_eq!(turn.answer(&plan, 1, Answer::Do(true), &mut log), Err(TurnError::Over));
}

#[test]
fn any_time_items_are_recorded_and_once_ones_refused_the_second_time() {
    let mut any_time = vec![
        action("advice", vec![]),
        item(
            "only-once",
            flow(Role::Group),
            None,
            vec![item("swap", Flow { once: true, ..Flow::ACTION }, None, vec![])],
        ),
    ];
    let mut order = order(vec![step(0, "1B", vec![action("a", vec![])])], None);
    name_by(&mut any_time, order.phases[0].steps[0].items[0].catalog);
    order.sections[Section::AnyTime] = any_time;
    let order = order;
    let plan = Plan::new(&order);
    let mut log = Trace::default();
    let mut turn = Turn::start(&plan, &mut log);
    let (advice, swap, heading) =
        (plan.item_named("advice").unwrap(), plan.item_named("swap").unwrap(), plan.item_named("only-once").unwrap());
    turn.any_time(&plan, advice, &mut log).expect("advice");
    turn.any_time(&plan, advice, &mut log).expect("advice, again");
    turn.any_time(&plan, swap, &mut log).expect("swap");
    assert_eq!(turn.any_time(&plan, swap, &mut log), Err(TurnError::DoneOnce(swap)));
    assert_eq!(turn.any_time(&plan, heading, &mut log), Err(TurnError::NotAnyTime(heading)));
    assert_eq!(turn.seq(), 0, "no prompt was answered");
    assert_eq!(turn.end(&plan), Err(TurnError::NotOver));
    turn.answer(&plan, 0, Answer::Do(true), &mut log).expect("the answer");
    assert!(turn.is_over());
    // Still the player's turn after its last prompt, at its last step, until the engine ends it.
    turn.any_time(&plan, advice, &mut log).expect("advice after the last prompt");
    assert!(matches!(log.0.last(), Some(Event::AnyTime { step, .. }) if *step == plan.step_named("1B").unwrap()));
    assert_eq!(turn.any_time(&plan, swap, &mut log), Err(TurnError::DoneOnce(swap)));
    turn.end(&plan).expect("over");
    assert!(turn.is_ended());
    assert_eq!(turn.any_time(&plan, advice, &mut log), Err(TurnError::Over));
    assert_eq!(log.text(&plan).matches("at any time").count(), 4);
}

#[test]
fn a_turn_saved_as_json_resumes_only_on_its_own_rules() {
    let build = |f: Flow| order(vec![step(0, "1B", vec![item("a", f, None, vec![]), action("b", vec![])])], None);
    let order = build(Flow::ACTION);
    let plan = Plan::new(&order);
    let mut log = Trace::default();
    let mut turn = Turn::start(&plan, &mut log);
    turn.answer(&plan, 0, Answer::Do(true), &mut log).expect("the answer");
    let json = serde_json::to_string(&turn).expect("serializes");
    assert!(json.contains("\"item\":\"b\""), "named by string ids: {json}");
    let restored: Turn = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(restored, turn);
    assert_eq!(restored.check(&plan), Ok(()));

    // The same rules rebuilt (new item numbers, another text): the same stamp.
    let mut rebuilt = build(Flow::ACTION);
    rebuilt.phases[0].steps[0].items[0].text = "reworded".into();
    assert_eq!(restored.check(&Plan::new(&rebuilt)), Ok(()));
    // Another flow is other rules.
    let other = build(flow(Role::Condition));
    assert!(matches!(restored.check(&Plan::new(&other)), Err(TurnError::OtherRules { .. })));
    let mut log2 = Trace::default();
    let mut stale = restored.clone();
    assert!(matches!(
        stale.answer(&Plan::new(&other), 1, Answer::Do(true), &mut log2),
        Err(TurnError::OtherRules { .. })
    ));

    // A state naming what the rules lack is refused, not played.
    let forged: Turn = serde_json::from_str(&json.replace("\"item\":\"b\"", "\"item\":\"zz\"")).expect("well-formed");
    assert!(matches!(forged.prompt(&plan), Err(TurnError::BadState(_))));
}

#[test]
fn a_per_thing_action_is_played_again_until_declined_and_at_most_max_features_times() {
    let per_thing = Flow { optional: true, repeat: Some(ItemRepeat::PerThing), ..Flow::ACTION };
    let harvest = || item("harvest", per_thing, None, vec![action("score-fruit", vec![])]);
    let order = order(vec![step(0, "2C", vec![harvest(), action("after", vec![])])], None);
    // Harvested twice (each time its sub-item follows), then declined: on to the next item.
    let (trace, turn) = play(&order, &["yes", "yes", "yes", "yes", "no"]);
    let harvests = trace.iter().filter(|l| l.starts_with("harvest:")).count();
    assert_eq!(harvests, 3, "{trace:?}");
    assert_eq!(trace.iter().filter(|l| *l == "score-fruit: yes").count(), 2, "{trace:?}");
    assert_eq!(asked(&order, &turn).as_deref(), Some("do after"));
    // Never declined: played MAX_FEATURES times in a row, then the turn goes on.
    let yes = vec!["yes"; 2 * MAX_FEATURES as usize];
    let (trace, turn) = play(&order, &yes);
    assert_eq!(trace.iter().filter(|l| *l == "harvest: yes").count(), MAX_FEATURES as usize);
    assert_eq!(asked(&order, &turn).as_deref(), Some("do after"));
}

#[test]
fn an_until_done_item_s_sub_items_are_played_again_while_the_player_says_so() {
    let must = Flow { must: true, ..Flow::ACTION };
    let until_done = |role| Flow { role, repeat: Some(ItemRepeat::UntilDone), ..Flow::ACTION };
    let bazaar = |role| {
        item(
            "bazaar",
            until_done(role),
            None,
            vec![item("auction", must, None, vec![]), item("round", must, None, vec![])],
        )
    };
    let order = order(vec![step(0, "4A", vec![bazaar(Role::Condition), action("after", vec![])])], None);
    let plan = Plan::new(&order);
    // Holds; auction and round; again: yes; auction and round; again: no.
    let (trace, turn) = play(&order, &["yes", "yes", "yes", "yes", "yes", "yes", "no"]);
    assert_eq!(trace.iter().filter(|l| *l == "auction: yes").count(), 2, "{trace:?}");
    assert_eq!(trace.iter().filter(|l| *l == "round: yes").count(), 2, "{trace:?}");
    assert_eq!(asked(&order, &turn).as_deref(), Some("do after"));
    // Once when the first "again?" is answered no.
    let (trace, turn) = play(&order, &["yes", "yes", "yes", "no"]);
    assert_eq!(trace.iter().filter(|l| *l == "auction: yes").count(), 1, "{trace:?}");
    assert_eq!(asked(&order, &turn).as_deref(), Some("do after"));
    // The first prompt asks the item; the one after its sub-items asks again,
    // never a must, and a saved turn there asks it again once restored.
    let (_, turn) = play(&order, &[]);
    let first = turn.prompt(&plan).expect("its rules").expect("a prompt");
    assert!(!first.again);
    let (_, turn) = play(&order, &["yes", "yes", "yes"]);
    let again = turn.prompt(&plan).expect("its rules").expect("a prompt");
    assert!(again.again && !again.must && again.legal_answers().len() == 2, "{again:?}");
    let restored: Turn = serde_json::from_str(&serde_json::to_string(&turn).expect("serializes")).expect("restores");
    assert!(restored.prompt(&plan).expect("its rules").expect("a prompt").again);
    // Not holding: its sub-items are not played, and nothing is asked again.
    let (trace, turn) = play(&order, &["no"]);
    assert!(!trace.iter().any(|l| l.starts_with("auction")), "{trace:?}");
    assert_eq!(asked(&order, &turn).as_deref(), Some("do after"));
    // A group is never asked itself: its sub-items play, then "again?".
    let order = self::order(vec![step(0, "4A", vec![bazaar(Role::Group), action("after", vec![])])], None);
    let (trace, turn) = play(&order, &["yes", "yes", "yes", "yes", "yes", "no"]);
    assert_eq!(trace.iter().filter(|l| *l == "auction: yes").count(), 2, "{trace:?}");
    assert_eq!(asked(&order, &turn).as_deref(), Some("do after"));
    // Always again: MAX_FEATURES rounds (two sub-items each, and "again?"
    // between them), then the turn goes on.
    let yes = vec!["yes"; 3 * MAX_FEATURES as usize - 1];
    let (trace, turn) = play(&order, &yes);
    assert_eq!(trace.iter().filter(|l| *l == "auction: yes").count(), MAX_FEATURES as usize);
    assert_eq!(asked(&order, &turn).as_deref(), Some("do after"));
}
