//! The turn plays what the Dutch page says, each kind of flow on the item
//! the page names (docs/flow.md quotes its words): an action's branch only
//! when it was not done, one kind of a completed feature, "none of the
//! above", a castle that settles its feature, a must, another player's
//! prompt, a single option taken unasked, and a use in 2B-1 that forbids one
//! in 2B-2.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use carcassonne_rules_runtime::core::{Actor, TurnOrder};
use carcassonne_rules_runtime::trace::{Event, Trace};
use carcassonne_rules_runtime::turn::{Answer, Ask, Plan, Prompt, Turn, TurnError};

fn order(edition: &str, with: &str) -> TurnOrder<'static> {
    let config = carcassonne_rules_runtime::catalog().config(edition, None, with).expect("a valid selection");
    carcassonne_rules_runtime::turn_order(&config)
}

/// What `play` answers at a prompt, or `None` to stop there.
type Script<'a> = &'a dyn Fn(&Prompt) -> Option<Answer>;

/// Plays `order` with `script` until it stops or the turn ends; the trace,
/// the turn and the prompts asked, by the item or choice they were about.
fn play(plan: &Plan, script: Script) -> (Trace, Turn, Vec<String>) {
    let mut trace = Trace::default();
    let mut turn = Turn::start(plan, &mut trace);
    let mut asked = Vec::new();
    while let Some(prompt) = turn.prompt(plan).unwrap() {
        asked.push(match &prompt.ask {
            Ask::Do(entry) => entry.id().to_string(),
            Ask::Choose { of: Some(of), .. } => format!("choose of {}", of.id()),
            Ask::Choose { of: None, .. } => format!("choose in {}", prompt.step.id),
            _ => format!("count in {}", prompt.step.id),
        });
        let Some(answer) = script(&prompt) else { break };
        turn.answer(plan, prompt.seq, answer, &mut trace).unwrap_or_else(|e| panic!("{answer:?} at {prompt:?}: {e}"));
        assert!(asked.len() < 500, "the turn does not end");
    }
    (trace, turn, asked)
}

/// Yes to a must and to `yes`, no to every other question; `choose` where
/// it is offered, else the first option; one completed feature.
fn answers<'a>(yes: &'a [&str], choose: &'a [&str]) -> impl Fn(&Prompt) -> Option<Answer> + 'a {
    move |prompt: &Prompt| {
        Some(match &prompt.ask {
            Ask::Do(entry) => Answer::Do(prompt.must || yes.contains(&entry.id())),
            Ask::Choose { options, .. } => {
                let wanted = options.iter().find(|o| choose.contains(&o.id())).or(options.first());
                Answer::Choose(wanted.map(|o| o.item))
            }
            _ => Answer::Count(1),
        })
    }
}

fn item_of(plan: &Plan, id: &str) -> carcassonne_rules_runtime::core::ItemId {
    plan.item_named(id).unwrap_or_else(|| panic!("no item {id}"))
}

#[test]
fn a_tile_placed_asks_nothing_of_a_missing_spot_and_one_not_placed_only_that() {
    // "Leg de tegel aan. Als het niet mogelijk is de tegel aan te leggen, … ga je terug naar stap 1B."
    let order = order("C2", "");
    let plan = Plan::new(&order);
    let (_, _, placed) = play(&plan, &answers(&["place-tile"], &[]));
    assert!(placed.contains(&"place-tile".to_string()) && !placed.contains(&"place-tile-no-legal-spot".to_string()));
    let not_placed = |p: &Prompt| match &p.ask {
        Ask::Do(e) if e.id() == "place-tile-no-legal-spot" => None,
        _ => answers(&[], &[])(p),
    };
    let (trace, _, asked) = play(&plan, &not_placed);
    assert_eq!(asked.last().map(String::as_str), Some("place-tile-no-legal-spot"), "{asked:?}");
    assert!(trace.0.contains(&Event::Item {
        part: 1,
        step: plan.step_named("1C").unwrap(),
        item: item_of(&plan, "place-tile"),
        done: false,
        actor: Actor::Active
    }));
}

#[test]
fn a_completed_feature_is_scored_as_one_kind_at_most() {
    // "Tel de punten op …: Weg … Steden … Kloosterachtige gebouwen": a feature is one of them.
    let order = order("C2", "");
    let plan = Plan::new(&order);
    let (trace, _, asked) = play(&plan, &answers(&[], &["score-city"]));
    assert!(asked.contains(&"choose of score-feature".to_string()), "{asked:?}");
    for kind in ["score-road", "score-city", "score-monastic"] {
        assert!(!asked.contains(&kind.to_string()), "{kind} asked as a question");
    }
    let city = item_of(&plan, "score-city");
    let chosen: Vec<_> = trace.0.iter().filter(|e| matches!(e, Event::Chose { item: Some(_), .. })).collect();
    assert!(chosen.iter().any(|e| matches!(e, Event::Chose { item: Some(i), .. } if *i == city)), "{chosen:?}");
    // At most one: none is allowed too (a completed tent is none of these kinds).
    let prompt = {
        let (_, turn, _) = play(&plan, &|p: &Prompt| match &p.ask {
            Ask::Choose { of: Some(of), .. } if of.id() == "score-feature" => None,
            _ => answers(&[], &[])(p),
        });
        turn
    };
    let pending = prompt.prompt(&plan).unwrap().expect("score-feature's choice");
    assert!(matches!(pending.ask, Ask::Choose { may_pass: true, .. }) && !pending.must);
}

#[test]
fn drawing_a_tile_is_left_out_when_the_abbey_came_from_the_supply() {
    // "Als je geen van de eerdergenoemde acties uit stap 1B hebt uitgevoerd, trek je een willekeurige tegel."
    let order = order("C2", "abbey_and_mayor");
    let plan = Plan::new(&order);
    let (trace, _, asked) = play(&plan, &answers(&["abbey-play-from-supply"], &[]));
    let draw = "draw-tile-if-nothing-else".to_string();
    assert!(!asked.contains(&draw), "{asked:?}");
    let left_out = Event::LeftOut {
        part: 1,
        step: plan.step_named("1B").unwrap(),
        item: item_of(&plan, "draw-tile-if-nothing-else"),
    };
    assert!(trace.0.contains(&left_out), "{}", trace.text(&plan));
    // Not played from the supply: the tile is drawn, a must.
    let (_, _, asked) = play(&plan, &answers(&[], &[]));
    assert!(asked.contains(&draw), "{asked:?}");
}

#[test]
fn building_a_castle_settles_the_feature() {
    // "Daarmee is de afhandeling van dit afgebouwde project afgehandeld. Ga verder met het volgende project."
    let order = order("C2", "castles");
    let plan = Plan::new(&order);
    let two = |p: &Prompt| match p.ask {
        Ask::Count => Some(Answer::Count(2)),
        _ => answers(&["castles-build"], &[])(p),
    };
    let (trace, _, asked) = play(&plan, &two);
    // Each of the two features: the castle built, nothing more of the round.
    assert_eq!(asked.iter().filter(|a| *a == "castles-build").count(), 2, "{asked:?}");
    assert!(!asked.iter().any(|a| a == "return-meeples" || a == "choose of score-feature"), "{asked:?}");
    assert!(trace.0.iter().any(|e| matches!(e, Event::Step { feature: Some((2, 2)), .. })));
    // Not built: the feature is scored and its meeples return.
    let (_, _, asked) = play(&plan, &|p: &Prompt| match p.ask {
        Ask::Count => Some(Answer::Count(1)),
        _ => answers(&[], &[])(p),
    });
    assert!(asked.iter().any(|a| a == "return-meeples") && asked.iter().any(|a| a == "choose of score-feature"));
}

#[test]
fn growing_the_flock_cannot_be_declined() {
    // "Herder op een weide …. Je moet nu de volgende actie uitvoeren"
    let order = order("C2", "sheep");
    let plan = Plan::new(&order);
    let (_, mut turn, asked) = play(&plan, &|p: &Prompt| match &p.ask {
        Ask::Do(e) if e.id() == "sheep-deploy-grow-flock" => None,
        _ => answers(&[], &["deploy-other-figures", "sheep-deploy"])(p),
    });
    assert_eq!(asked.last().map(String::as_str), Some("sheep-deploy-grow-flock"), "{asked:?}");
    let prompt = turn.prompt(&plan).unwrap().expect("pending");
    assert!(prompt.must);
    assert_eq!(prompt.legal_answers(), [Answer::Do(true)]);
    let before = turn.clone();
    let refused = turn.answer(&plan, prompt.seq, Answer::Do(false), &mut Trace::default());
    assert!(matches!(refused, Err(TurnError::Must(_))), "{refused:?}");
    assert_eq!(refused.unwrap_err().code(), "must");
    assert_eq!(turn, before, "a refused answer changes nothing");
}

#[test]
fn the_count_s_city_is_emptied_by_each_player_from_the_left_and_scorers_pick_their_order() {
    // "De speler links van jou mag … Met de klok mee krijgt iedereen nu daarvoor de gelegenheid, jij als laatste."
    let order = order("C2", "count_of_carcassonne");
    let plan = Plan::new(&order);
    let (trace, _, _) = play(&plan, &answers(&["count-move-from-city"], &[]));
    let count = item_of(&plan, "count-move-from-city");
    let by = |item| {
        trace.0.iter().find_map(|e| match *e {
            Event::Item { item: i, actor, .. } if i == item => Some(actor),
            _ => None,
        })
    };
    assert_eq!(by(count), Some(Actor::EachFromLeft));
    // "Elke speler die punten krijgt mag kiezen in welke volgorde …"
    assert_eq!(by(item_of(&plan, "choose-scoring-order")), Some(Actor::Scorers));
    assert_eq!(by(item_of(&plan, "place-tile")), Some(Actor::Active));
}

#[test]
fn a_single_kind_of_meeple_is_deployed_without_asking_which() {
    // "Een meeple zetten: Een gewone meeple op een project" — the base game has only that one.
    let order = order("C2", "");
    let plan = Plan::new(&order);
    let (trace, _, asked) = play(&plan, &answers(&[], &["deploy-meeple"]));
    assert!(!asked.contains(&"choose of deploy-meeple".to_string()), "{asked:?}");
    let taken = Event::Taken {
        part: 1,
        step: plan.step_named("2B-1").unwrap(),
        item: item_of(&plan, "deploy-normal-meeple"),
        actor: Actor::Active,
    };
    assert!(trace.0.contains(&taken), "{}", trace.text(&plan));
}

#[test]
fn the_phantom_cannot_use_the_flier_used_in_2b_1() {
    // "Het vliegtuig … mag, mits op de aangelegde tegel aanwezig en niet in stap 2B-1 benut, gebruikt worden."
    let order = order("C1", "phantom,flier");
    let plan = Plan::new(&order);
    let phantom = ["deploy-meeple", "flier-use", "phantom-deploy"];
    let (trace, _, used) = play(&plan, &answers(&[], &phantom));
    let flier = item_of(&plan, "flier-use");
    assert!(trace.0.iter().any(|e| matches!(e, Event::Chose { item: Some(i), .. } if *i == flier)));
    assert!(
        used.contains(&"phantom-deploy-revolt-protection".to_string()) || used.iter().any(|a| a == "choose in 2B-2")
    );
    assert!(!used.contains(&"phantom-deploy-flier".to_string()), "{used:?}");
    let left_out = Event::LeftOut {
        part: 1,
        step: plan.step_named("2B-2").unwrap(),
        item: item_of(&plan, "phantom-deploy-flier"),
    };
    assert!(trace.0.contains(&left_out), "{}", trace.text(&plan));
    // The flier not used in 2B-1: the phantom may use it.
    let (_, _, unused) = play(&plan, &answers(&[], &["deploy-meeple", "deploy-normal-meeple", "phantom-deploy"]));
    assert!(unused.contains(&"phantom-deploy-flier".to_string()), "{unused:?}");
}

#[test]
fn the_turn_does_not_end_before_the_plague_was_spread_or_did_not_apply() {
    // "Slechts één keer: … Moet je (zodra de plaag actief is) de pest verspreiden"
    let order = order("C1", "plague");
    let plan = Plan::new(&order);
    let spread = item_of(&plan, "plague-spread");
    let (_, mut turn, asked) = play(&plan, &|p: &Prompt| match &p.ask {
        Ask::Do(e) if e.id() == "plague-spread" => None,
        _ => answers(&[], &[])(p),
    });
    // Not reported during the turn: asked after the last step, and the turn is not over.
    assert_eq!(asked.last().map(String::as_str), Some("plague-spread"), "{asked:?}");
    let prompt = turn.prompt(&plan).unwrap().expect("pending");
    assert_eq!(prompt.step.id, "4B");
    assert!(!prompt.must, "a condition: it held, or the plague was not active");
    assert!(!turn.is_over());
    assert_eq!(turn.clone().end(&plan), Err(TurnError::NotOver));
    let mut trace = Trace::default();
    assert_eq!(turn.clone().any_time(&plan, spread, &mut trace), Err(TurnError::Pending(spread)));
    turn.answer(&plan, prompt.seq, Answer::Do(false), &mut trace).expect("it did not apply");
    assert!(turn.is_over() && turn.end(&plan).is_ok());
    // Reported while a prompt waited: not asked again.
    let mut trace = Trace::default();
    let mut turn = Turn::start(&plan, &mut trace);
    turn.any_time(&plan, spread, &mut trace).expect("reported");
    let mut asked = Vec::new();
    while let Some(prompt) = turn.prompt(&plan).unwrap() {
        if let Ask::Do(e) = &prompt.ask {
            asked.push(e.id().to_string());
        }
        let answer = answers(&[], &[])(&prompt).unwrap();
        turn.answer(&plan, prompt.seq, answer, &mut trace).unwrap();
    }
    assert!(!asked.contains(&"plague-spread".to_string()), "{asked:?}");
}

#[test]
fn a_fruit_tree_is_harvested_or_sold_per_tree_and_meeple_until_you_stop() {
    // "dan mag je één van de volgende acties uitvoeren per boom en horigemeeple"
    let order = order("C2", "fruit_bearing_trees");
    let plan = Plan::new(&order);
    let picks = std::cell::Cell::new(0);
    let (trace, _, asked) = play(&plan, &|p: &Prompt| match &p.ask {
        Ask::Choose { of: Some(of), options, .. } if of.id() == "fruit-tree-harvest-or-sell" => {
            picks.set(picks.get() + 1);
            // Harvest, then sell, then none: three times asked.
            let id = ["fruit-tree-harvest", "fruit-tree-sell"].get(picks.get() - 1);
            Some(Answer::Choose(id.and_then(|id| options.iter().find(|o| o.id() == *id)).map(|o| o.item)))
        }
        _ => answers(&[], &[])(p),
    });
    let rounds = asked.iter().filter(|a| *a == "choose of fruit-tree-harvest-or-sell").count();
    assert_eq!(rounds, 3, "{asked:?}");
    let taken: Vec<_> = trace
        .0
        .iter()
        .filter_map(|e| match e {
            Event::Chose { item, .. } => Some(item.map(|i| plan.item_name(i).unwrap_or("?"))),
            _ => None,
        })
        .collect();
    let rounds = [Some("fruit-tree-harvest"), Some("fruit-tree-sell"), None];
    assert!(taken.windows(3).any(|w| w == rounds), "{taken:?}");
    assert!(!asked.is_empty() && asked.last() != Some(&"choose of fruit-tree-harvest-or-sell".to_string()));
}
