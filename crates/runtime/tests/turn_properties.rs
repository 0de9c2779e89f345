//! Properties of played turns (proptest): every module alone in each edition
//! and random selections, each with its flow annotated at random (every
//! role, optional, choose-one, once, must, actor, none_of, next feature and
//! forbid,
//! on items and steps: the properties hold for any annotation the rules may
//! give) and random answers.
//!
//! At most one option is taken per choose-one, and nothing under an option
//! not taken, a declined condition or a note plays; no must is declined (the
//! turn refuses "no"); every prompt names its item's actor; a choice of one
//! option that may not be passed is never asked; an item whose `none_of`
//! names an item done in the same pass of its step is neither asked nor
//! taken; nothing more of a feature's round plays once it is settled
//! (`next feature`); nothing an effect forbade plays for the rest of its
//! part or turn; part 2 plays exactly the
//! double-turn block (then the steps after it that part 1 did not reach);
//! every step outside the block is played at most once per turn (without
//! go-backs); "once" items are done at most once per turn; every turn ends;
//! the same answers give the same trace; saving and restoring through JSON
//! at every prompt gives the identical trace.

use std::collections::HashMap;

use carcassonne_rules_runtime::core::{
    Actor, Config, EditionId, Effect, Entry, Flow, ItemId, ItemRepeat, ModuleId, ModuleSet, Repeat, Role, Section,
    StepId, TurnOrder, VariantId,
};
use carcassonne_rules_runtime::trace::{Event, Trace};
use carcassonne_rules_runtime::turn::{Answer, Ask, MAX_GO_BACKS, Plan, Turn, TurnError};
use carcassonne_rules_runtime::{catalog, turn_order};
use proptest::prelude::*;

/// More prompts than this in one turn means it does not end.
const MAX_PROMPTS: usize = 20_000;

/// Gives every item and step of `order` a random flow.
fn annotate(order: &mut TurnOrder<'static>, seed: u64) {
    /// `under_action`: the items are sub-items of an action that offers no
    /// choice and is no must, which may have one `otherwise` branch.
    /// `finished`: the items of the step before these that are not above
    /// them, which a `none_of` may name. `per_feature`: the step is played
    /// per feature, where `next feature` may settle one.
    fn walk(
        items: &mut [Entry],
        rng: &mut fastrand::Rng,
        under_action: bool,
        finished: &mut Vec<ItemId>,
        per_feature: bool,
        all: &[ItemId],
        in_per_thing: bool,
    ) {
        let mut otherwise_given = false;
        for item in items {
            let role = match rng.u8(0..20) {
                0..10 => Role::Action,
                10..14 => Role::Condition,
                14..17 => Role::Group,
                _ => Role::Note,
            };
            let choose_one = !item.children.is_empty() && rng.u8(0..4) == 0;
            let otherwise = under_action && !otherwise_given && rng.u8(0..3) == 0;
            otherwise_given |= otherwise;
            let optional = rng.bool();
            let must = role == Role::Action && !optional && !choose_one && rng.u8(0..3) == 0;
            let actor = Actor::ALL[rng.usize(0..Actor::ALL.len())].1;
            // (Never one inside another: `check` refuses that.)
            let per_thing = role == Role::Action && optional && !in_per_thing && rng.u8(0..6) == 0;
            let once = rng.u8(0..6) == 0;
            let repeat = per_thing.then_some(ItemRepeat::PerThing);
            item.flow = Flow { role, optional, choose_one, once, otherwise, must, actor, repeat };
            // (Outside the steps, where `all` is empty, the rules have neither `none_of` nor effects.)
            if !finished.is_empty() && !all.is_empty() && rng.u8(0..6) == 0 {
                let named: Vec<ItemId> = (0..rng.usize(1..3)).map(|_| finished[rng.usize(0..finished.len())]).collect();
                item.none_of = Box::leak(named.into_boxed_slice());
            }
            if per_feature && item.effect.is_none() && rng.u8(0..8) == 0 {
                item.effect = Some(&Effect::NextFeature);
            }
            if item.effect.is_none() && !all.is_empty() && rng.u8(0..10) == 0 {
                let items: Vec<ItemId> = (0..rng.usize(1..3)).map(|_| all[rng.usize(0..all.len())]).collect();
                item.effect = Some(Box::leak(Box::new(Effect::Forbid { items: items.into(), turn: rng.bool() })));
            }
            let under_action = role == Role::Action && !choose_one && !must;
            let inside = in_per_thing || per_thing;
            walk(&mut item.children, rng, under_action, finished, per_feature, all, inside);
            finished.push(item.item);
        }
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    // Every item of the steps, which a `forbid` may name.
    let any_time = any_time_items(order);
    let all: Vec<ItemId> = infos(order)
        .keys()
        .copied()
        .filter(|i| !any_time.contains(i))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    walk(&mut order.sections[Section::AnyTime], &mut rng, false, &mut Vec::new(), false, &[], false);
    /// Some "at any time" actions and conditions become obligations (`must`, `once`).
    fn obligations(items: &mut [Entry], rng: &mut fastrand::Rng) {
        for item in items {
            if matches!(item.flow.role, Role::Action | Role::Condition) && !item.flow.choose_one && rng.u8(0..4) == 0 {
                item.flow = Flow { must: true, once: true, optional: false, ..item.flow };
            }
            obligations(&mut item.children, rng);
        }
    }
    obligations(&mut order.sections[Section::AnyTime], &mut rng);
    for phase in &mut order.phases {
        for step in &mut phase.steps {
            step.choose_one = rng.u8(0..4) == 0;
            step.may_pass = rng.bool();
            let per_feature = step.repeat == Some(Repeat::PerFeature);
            walk(&mut step.items, &mut rng, false, &mut Vec::new(), per_feature, &all, false);
        }
    }
}

/// The answer `r` picks for `ask`: yes or no, any option or none where
/// allowed, 0 to 2 features. Effects apply a third of the time, and an option
/// that goes back is taken only then or when nothing else is offered, so that
/// go-backs stay few.
fn pick(ask: &Ask, r: u32) -> Answer {
    let goes_back = |e: &Entry| matches!(e.effect, Some(Effect::GoBack(_)));
    match ask {
        Ask::Do(entry) if entry.flow.must => Answer::Do(true),
        Ask::Do(entry) if entry.effect.is_some() => Answer::Do(r.is_multiple_of(3)),
        Ask::Do(_) => Answer::Do(r.is_multiple_of(2)),
        Ask::Choose { options, may_pass, .. } => {
            let others: Vec<_> = options.iter().filter(|o| !goes_back(o)).collect();
            let n = others.len() + usize::from(*may_pass);
            if r.is_multiple_of(3) || n == 0 {
                let n = options.len() + usize::from(*may_pass);
                Answer::Choose(options.get(r as usize / 3 % n).map(|o| o.item))
            } else {
                Answer::Choose(others.get(r as usize % n).map(|o| o.item))
            }
        }
        Ask::Count => Answer::Count(r % 3),
        _ => unimplemented!("a kind of prompt this test does not know"),
    }
}

/// Plays a turn with answers from `seed`, also using an "at any time" item
/// now and then; with `resume`, the turn goes through JSON before every prompt.
fn play(plan: &Plan, seed: u64, resume: bool) -> Result<(Trace, usize), String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut trace = Trace::default();
    let mut turn = Turn::start(plan, &mut trace);
    let any_time: Vec<ItemId> = any_time_items(plan.order());
    let mut largest = 0;
    for _ in 0..MAX_PROMPTS {
        if resume {
            let json = serde_json::to_string(&turn).map_err(|e| e.to_string())?;
            largest = largest.max(json.len());
            let restored: Turn = serde_json::from_str(&json).map_err(|e| e.to_string())?;
            if restored != turn {
                return Err(format!("restored differs: {json}"));
            }
            turn = restored;
        }
        let Some(prompt) = turn.prompt(plan).map_err(|e| e.to_string())? else {
            return Ok((trace, largest));
        };
        if let Some(&item) = any_time.get(rng.usize(0..any_time.len().max(1) * 12)) {
            // Refused the second time for a once item: that is checked below.
            let _ = turn.any_time(plan, item, &mut trace);
        }
        // Whom the prompt names, and what it may ask.
        let actor = match &prompt.ask {
            Ask::Do(entry) => entry.flow.actor,
            Ask::Choose { of, .. } => of.map_or(Actor::Active, |o| o.flow.actor),
            _ => Actor::Active,
        };
        if prompt.actor != actor {
            return Err(format!("prompt {} names {:?}, its item {actor:?}", prompt.seq, prompt.actor));
        }
        // (Unless its effect cannot apply: a go-back past the bound is left to be refused.)
        let go_backs = trace.0.iter().filter(|e| matches!(e, Event::GoBack { .. })).count();
        if let Ask::Choose { options, may_pass: false, .. } = &prompt.ask
            && options.len() == 1
            && go_backs < MAX_GO_BACKS as usize
        {
            return Err(format!("a choice of one option that must be taken was asked: {:?}", options[0].id()));
        }
        if let Ask::Do(entry) = &prompt.ask {
            // A condition is never a must: one of "at any time" held or not.
            let must = entry.flow.must && entry.flow.role == Role::Action;
            if prompt.must != must {
                return Err(format!("prompt {} says must {}, its item {must}", prompt.seq, prompt.must));
            }
            if must {
                let before = (turn.clone(), trace.clone());
                match turn.answer(plan, prompt.seq, Answer::Do(false), &mut trace) {
                    Err(TurnError::Must(_)) if (turn.clone(), trace.clone()) == before => {}
                    other => return Err(format!("\"no\" to the must {} gave {other:?}", entry.id())),
                }
            }
        }
        let answer = pick(&prompt.ask, rng.u32(..));
        match turn.answer(plan, prompt.seq, answer, &mut trace) {
            Ok(()) => {}
            // A flow whose only option goes back: the turn refuses to loop.
            Err(TurnError::TooManyGoBacks(_)) => return Ok((trace, largest)),
            Err(e) => return Err(format!("{answer:?} refused: {e}")),
        }
    }
    Err("the turn does not end".into())
}

fn any_time_items(order: &TurnOrder) -> Vec<ItemId> {
    fn walk(items: &[Entry], out: &mut Vec<ItemId>) {
        for item in items {
            out.push(item.item);
            walk(&item.children, out);
        }
    }
    let mut out = Vec::new();
    walk(order.section(Section::AnyTime), &mut out);
    out
}

/// What the properties need of an item.
#[derive(Clone, Copy)]
struct Info {
    parent: Option<ItemId>,
    /// Its parent (or its step) is choose-one.
    option: bool,
    role: Role,
    /// It or an item above it is "once".
    once: bool,
    /// What plays when its parent action is not done.
    otherwise: bool,
    must: bool,
    /// The items whose being done in the pass leaves it out.
    none_of: &'static [ItemId],
    /// Done, it settles the feature.
    next_feature: bool,
    /// Played again: once per thing, or until done.
    repeats: bool,
    /// Done, it rules these out for the rest of the part (or, with `true`, the turn).
    forbids: Option<(&'static [ItemId], bool)>,
}

fn infos(order: &TurnOrder<'static>) -> HashMap<ItemId, Info> {
    fn walk(
        items: &[Entry<'static>],
        parent: Option<ItemId>,
        option: bool,
        once: bool,
        out: &mut HashMap<ItemId, Info>,
    ) {
        for item in items {
            let once = once || item.flow.once;
            let info = Info {
                parent,
                option,
                role: item.flow.role,
                once,
                otherwise: item.flow.otherwise,
                must: item.flow.must,
                none_of: item.none_of,
                next_feature: item.effect == Some(&Effect::NextFeature),
                repeats: item.flow.repeat.is_some(),
                forbids: match item.effect {
                    Some(Effect::Forbid { items, turn }) => Some((items_of(items), *turn)),
                    _ => None,
                },
            };
            out.insert(item.item, info);
            walk(&item.children, Some(item.item), item.flow.choose_one, once, out);
        }
    }
    let mut out = HashMap::new();
    walk(order.section(Section::AnyTime), None, false, false, &mut out);
    for step in order.steps() {
        walk(&step.items, None, step.choose_one, false, &mut out);
    }
    out
}

/// The item and everything above it, nearest first.
fn lineage(infos: &HashMap<ItemId, Info>, item: ItemId) -> Vec<ItemId> {
    let mut out = vec![item];
    while let Some(parent) = out.last().and_then(|i| infos.get(i)).and_then(|i| i.parent) {
        out.push(parent);
    }
    out
}

/// Every property of one played turn of `order`.
fn check(order: &TurnOrder<'static>, seed: u64) -> Result<(), String> {
    let plan = Plan::new(order);
    let (trace, _) = play(&plan, seed, false)?;
    let (again, _) = play(&plan, seed, false)?;
    if again != trace {
        return Err("the same answers gave another trace".into());
    }
    let (resumed, _) = play(&plan, seed, true)?;
    if resumed != trace {
        return Err(format!("saving and restoring at every prompt changed the trace:\n{}", resumed.text(&plan)));
    }
    let go_backs = trace.0.iter().filter(|e| matches!(e, Event::GoBack { .. })).count();
    if trace.0.last() != Some(&Event::End) && go_backs != MAX_GO_BACKS as usize {
        return Err("the trace does not end with End".into());
    }
    let infos = infos(order);
    let steps: Vec<StepId> = order.steps().map(|s| s.step).collect();
    let position = |s: StepId| steps.iter().position(|&t| t == s);
    let block = order.double_turn.and_then(|b| Some((position(b.first)?, position(b.last)?)));
    let in_block =
        |s: StepId| block.is_some_and(|(first, last)| position(s).is_some_and(|p| (first..=last).contains(&p)));
    let went_back = trace.0.iter().any(|e| matches!(e, Event::GoBack { .. }));

    // Rounds: from one step event to the next.
    let mut taken: Vec<ItemId> = Vec::new();
    let mut declined: Vec<ItemId> = Vec::new();
    let mut done_items: Vec<ItemId> = Vec::new();
    let mut once_done: HashMap<ItemId, usize> = HashMap::new();
    // Done (or taken) in this pass of the step; the feature settled in it.
    let mut done_here: Vec<ItemId> = Vec::new();
    let mut settled: Option<ItemId> = None;
    // Forbidden for the rest of the part, and of the turn.
    let (mut forbidden, mut forbidden_turn): (Vec<ItemId>, Vec<ItemId>) = (Vec::new(), Vec::new());
    // The steps begun, by part: (part, step) once per step (not per feature round).
    let mut begun: Vec<(u8, StepId)> = Vec::new();
    for event in &trace.0 {
        let left_out = |item: ItemId, done_here: &[ItemId]| infos[&item].none_of.iter().any(|i| done_here.contains(i));
        match *event {
            Event::Item { item, .. } | Event::Chose { item: Some(item), .. } | Event::Taken { item, .. } => {
                if left_out(item, &done_here) {
                    return Err(format!("{item:?} played, but an item its none_of names was done in the pass"));
                }
                if let Some(by) = settled {
                    return Err(format!("{item:?} played after {by:?} settled the feature"));
                }
                if forbidden.contains(&item) || forbidden_turn.contains(&item) {
                    return Err(format!("{item:?} played after an effect forbade it"));
                }
            }
            Event::LeftOut { item, .. }
                if !left_out(item, &done_here) && !forbidden.contains(&item) && !forbidden_turn.contains(&item) =>
            {
                return Err(format!("{item:?} left out, but nothing ruled it out"));
            }
            Event::Part { .. } => forbidden.clear(),
            _ => {}
        }
        match *event {
            Event::Item { item, done: true, .. }
            | Event::Chose { item: Some(item), .. }
            | Event::Taken { item, .. } => {
                done_here.push(item);
                if infos[&item].next_feature {
                    settled = Some(item);
                }
                if let Some((items, turn)) = infos[&item].forbids {
                    if turn { &mut forbidden_turn } else { &mut forbidden }.extend_from_slice(items);
                }
            }
            Event::Item { item, done: false, .. } if infos[&item].must && infos[&item].role == Role::Action => {
                return Err(format!("the must {item:?} was declined"));
            }
            _ => {}
        }
        let mut begin = |part: u8, step: StepId, first_round: bool| {
            taken.clear();
            declined.clear();
            done_items.clear();
            done_here.clear();
            settled = None;
            if first_round {
                begun.push((part, step));
            }
        };
        match *event {
            Event::Step { part, step, feature } => begin(part, step, feature.is_none_or(|(n, _)| n == 1)),
            Event::Skipped { part, step } | Event::NoFeatures { part, step } => begin(part, step, true),
            Event::Item { item, done, .. } => {
                let info = infos[&item];
                if info.option {
                    return Err(format!("option {item:?} was asked instead of offered"));
                }
                check_played(&infos, item, &taken, &declined, &done_items)?;
                if matches!(info.role, Role::Group | Role::Note) {
                    return Err(format!("{:?} {item:?} was asked", info.role));
                }
                if done {
                    done_items.push(item);
                } else {
                    declined.push(item);
                }
                if done && info.once {
                    *once_done.entry(item).or_default() += 1;
                }
            }
            Event::Chose { item: Some(item), .. } | Event::Taken { item, .. } => {
                let info = infos[&item];
                if !info.option {
                    return Err(format!("{item:?} was taken but is no option"));
                }
                check_played(&infos, info.parent.unwrap_or(item), &taken, &declined, &done_items)
                    .or_else(|e| if info.parent.is_none() { Ok(()) } else { Err(e) })?;
                // (A `per_thing` choice is taken again, once per thing, and so
                // is every choice under a `per_thing` item.)
                let again = lineage(&infos, item).iter().skip(1).any(|a| infos[a].repeats);
                if !again && taken.iter().any(|&t| infos[&t].parent == info.parent) {
                    return Err(format!("two options of one choose-one taken: {item:?}"));
                }
                if info.role == Role::Note {
                    return Err(format!("note {item:?} was offered"));
                }
                taken.push(item);
                if info.once {
                    *once_done.entry(item).or_default() += 1;
                }
            }
            Event::Once { item, .. } => {
                if !infos[&item].once || once_done.get(&item).copied().unwrap_or(0) == 0 {
                    return Err(format!("{item:?} left out as done once, but was not"));
                }
            }
            Event::AnyTime { item, .. } if infos[&item].once => *once_done.entry(item).or_default() += 1,
            Event::GoBack { .. }
            | Event::LeftOut { .. }
            | Event::Chose { item: None, .. }
            | Event::AnyTime { .. }
            | Event::Part { .. }
            | Event::End => {}
            _ => return Err(format!("an event this test does not know: {event:?}")),
        }
    }
    // The turn did not end without its obligations at any time: each was
    // reported, or asked after the last step.
    if trace.0.last() == Some(&Event::End) {
        let obligations = any_time_items(order)
            .into_iter()
            .filter(|i| infos[i].must && infos[i].once && matches!(infos[i].role, Role::Action | Role::Condition))
            // At the top, or under groups that offer no choice.
            .filter(|&i| {
                let line = lineage(&infos, i);
                line.iter().all(|l| !infos[l].option) && line[1..].iter().all(|a| infos[a].role == Role::Group)
            });
        for item in obligations {
            let met = trace
                .0
                .iter()
                .any(|e| matches!(e, Event::AnyTime { item: i, .. } | Event::Item { item: i, .. } if *i == item));
            if !met {
                return Err(format!("the turn ended without the obligation {item:?}"));
            }
        }
    }
    if let Some((item, n)) = once_done.iter().find(|(_, n)| **n > 1) {
        return Err(format!("once item {item:?} done {n} times"));
    }
    let second: Vec<StepId> = begun.iter().filter(|(p, _)| *p == 2).map(|(_, s)| *s).collect();
    if !second.is_empty() && !trace.0.contains(&Event::Part { part: 2 }) {
        return Err("part 2 steps without part 2".into());
    }
    if !went_back {
        for (i, &step) in steps.iter().enumerate() {
            let times = begun.iter().filter(|(_, s)| *s == step).count();
            let most = if in_block(step) && !second.is_empty() { 2 } else { 1 };
            if times > most {
                return Err(format!("step #{i} begun {times} times"));
            }
        }
        if let (Some((first, last)), false) = (block, second.is_empty()) {
            let first_part: Vec<StepId> = begun.iter().filter(|(p, _)| *p == 1).map(|(_, s)| *s).collect();
            let mut expected: Vec<StepId> = steps[first..=last].to_vec();
            expected.extend(steps[last + 1..].iter().filter(|s| !first_part.contains(s)));
            if second != expected {
                return Err(format!("part 2 played {second:?}, not the block and the rest {expected:?}"));
            }
        }
    }
    Ok(())
}

/// An item that played (asked, or taken) lies under no declined condition,
/// no note and no option not taken.
fn check_played(
    infos: &HashMap<ItemId, Info>,
    item: ItemId,
    taken: &[ItemId],
    declined: &[ItemId],
    done: &[ItemId],
) -> Result<(), String> {
    let line = lineage(infos, item);
    for (n, above) in line.iter().enumerate() {
        let info = infos[above];
        // The branch below `above` on the way to the item.
        let branch = n.checked_sub(1).map(|b| infos[&line[b]]);
        let entered = branch.is_some_and(|b| b.otherwise) && info.role == Role::Action;
        // Under a `per_thing` item (or one itself) an item is asked once per
        // round: its answers in earlier rounds say nothing of this one.
        let rounds = line[n..].iter().any(|a| infos[a].repeats);
        if n > 0 && declined.contains(above) && !entered && !rounds {
            return Err(format!("{item:?} played under the declined {:?} {above:?}", info.role));
        }
        if n > 0 && entered && done.contains(above) && !rounds {
            return Err(format!("{item:?} played in the otherwise branch of {above:?}, which was done"));
        }
        if n > 0 && info.role == Role::Note {
            return Err(format!("{item:?} played under the note {above:?}"));
        }
        if info.option && !taken.contains(above) && (n > 0 || infos[&item].option) {
            return Err(format!("{item:?} played under the option {above:?}, not taken"));
        }
    }
    Ok(())
}

fn config(edition: usize, modules: ModuleSet) -> Config {
    let e = &catalog().editions[edition];
    Config { edition: EditionId(edition as u8), variant: e.default_variant, modules }
}

#[test]
fn every_module_alone_in_each_edition() {
    let mut turns = 0;
    for e in 0..catalog().editions.len() {
        for module in &catalog().modules {
            let mut order = turn_order(&config(e, ModuleSet::of(module.bit)));
            for seed in 0..4u64 {
                // The rules' own flow first, then random ones.
                if seed > 0 {
                    annotate(&mut order, seed ^ u64::from(module.bit.0) << 8);
                }
                check(&order, seed).unwrap_or_else(|err| {
                    panic!("{} with {}, seed {seed}: {err}", catalog().editions[e].id, module.id)
                });
                turns += 1;
            }
        }
    }
    assert!(turns > 100, "{turns} turns");
}

#[test]
fn a_saved_turn_stays_under_two_kilobytes() {
    // Every module in each edition, the largest selection, with the rules'
    // own flow and many answer scripts; the state is measured at every prompt.
    // (A random annotation that makes a sixth of all items "once" can reach
    // 2.3 KB: the once items done are listed by id.)
    let all = catalog().modules.iter().fold(ModuleSet::EMPTY, |set, m| set.union(ModuleSet::of(m.bit)));
    let mut largest = 0;
    for e in 0..catalog().editions.len() {
        let order = turn_order(&config(e, all));
        for seed in 0..50 {
            let (_, size) = play(&Plan::new(&order), seed, true).unwrap_or_else(|e| panic!("{e}"));
            largest = largest.max(size);
        }
    }
    assert!(largest > 500, "{largest} bytes: the measure measured nothing");
    assert!(largest <= 2048, "a saved turn of {largest} bytes of JSON");
}

#[test]
fn a_builder_double_turn_of_every_module_saves_under_two_kilobytes() {
    // Every module in each edition, the rules' own flow, a builder who earns
    // the double turn and says yes to every other item (so the most "once"
    // items and skips are remembered); the state is measured at every prompt.
    let all = catalog().modules.iter().fold(ModuleSet::EMPTY, |set, m| set.union(ModuleSet::of(m.bit)));
    for e in 0..catalog().editions.len() {
        let order = turn_order(&config(e, all));
        let plan = Plan::new(&order);
        let mut trace = Trace::default();
        let mut turn = Turn::start(&plan, &mut trace);
        let mut largest = 0;
        while let Some(prompt) = turn.prompt(&plan).unwrap() {
            largest = largest.max(serde_json::to_string(&turn).unwrap().len());
            let answer = match &prompt.ask {
                Ask::Do(entry) => Answer::Do(!matches!(entry.effect, Some(Effect::GoBack(_) | Effect::Skip(_)))),
                Ask::Choose { options, .. } => Answer::Choose(options.first().map(|o| o.item)),
                Ask::Count => Answer::Count(3),
                _ => unimplemented!("a kind of prompt this test does not know"),
            };
            turn.answer(&plan, prompt.seq, answer, &mut trace).unwrap();
            assert!(trace.0.len() < MAX_PROMPTS, "the turn does not end");
        }
        assert!(trace.0.contains(&Event::Part { part: 2 }), "edition {e}: no double turn");
        assert!(largest > 300, "{largest} bytes: the measure measured nothing");
        assert!(largest <= 2048, "edition {e}: a saved turn of {largest} bytes of JSON");
        eprintln!("edition {e}: the saved turn at most {largest} bytes of JSON");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_selections_flows_and_answers(
        e in 0..3usize,
        variant in any::<u8>(),
        modules in proptest::collection::vec(any::<u8>(), 0..12),
        flows in any::<u64>(),
        answers in any::<u64>(),
    ) {
        let catalog = catalog();
        let e = e % catalog.editions.len();
        let cfg = Config {
            variant: VariantId(variant % catalog.variants.len() as u8),
            modules: modules.iter().map(|m| ModuleId(m % catalog.modules.len() as u8)).collect(),
            ..config(e, ModuleSet::EMPTY)
        };
        let mut order = turn_order(&cfg);
        if flows % 4 != 0 {
            annotate(&mut order, flows);
        }
        prop_assert_eq!(check(&order, answers), Ok(()), "{:?}", cfg);
    }
}

/// A forbid's items as a `'static` slice, which `Info` keeps (a test leaks
/// the copy).
fn items_of(items: &[ItemId]) -> &'static [ItemId] {
    Box::leak(items.into())
}
