//! Items: ids, placement, conditions, and the checked items themselves.

use crate::codes::Code;
use biodivine_lib_bdd::Bdd;
use carcassonne_rules_core::{Actor, Catalog, Effect};

use crate::logic::{BUDGET, Budget, Logic, TooComplex};
use carcassonne_rules_core::tables::{ItemId, MarkerId, OriginId};

use super::*;

impl Checker<'_> {
    pub(super) fn items(
        &mut self,
        raw: &RawRules,
        catalog: Catalog,
        mut phases: Vec<model::Phase>,
        double_turn: Option<model::DoubleTurn>,
        budget: &Budget,
    ) -> Rules {
        // Sections in turn-order order.
        let mut sections: Vec<Part> = Vec::new();
        for outside in Section::BEFORE_STEPS {
            sections.push(Part { id: outside.name().to_string(), step: None, exists: Cond::True, span: None });
        }
        for step in phases.iter().flat_map(|p| &p.steps) {
            let span = Some(step.when_span.unwrap_or(step.span));
            sections.push(Part { id: step.id.clone(), step: Some(step.number), exists: step.when.clone(), span });
        }
        for outside in Section::AFTER_STEPS {
            sections.push(Part { id: outside.name().to_string(), step: None, exists: Cond::True, span: None });
        }

        // Every file's items, with the expansion rank that breaks ties.
        let mut files: Vec<(usize, &RawSections)> = vec![(0, &raw.base_sections)];
        let mut claimed: HashMap<usize, Span> = HashMap::new();
        // A file naming an unknown expansion may be the missing one's.
        let mut unknown_header = false;
        for file in &raw.expansion_files {
            let name = &file.expansion;
            match self.names.get(&name.value).map(|(n, _)| *n) {
                Some(Named::Expansion(x)) => {
                    if let Some(&first) = claimed.get(&x) {
                        self.duplicate("rules file for expansion", name, first);
                        continue;
                    }
                    claimed.insert(x, name.span);
                    files.push((x + 1, &file.sections));
                }
                _ if self.failed.modules => file.sections.iter().for_each(|(_, items)| self.lose(items)),
                _ => {
                    file.sections.iter().for_each(|(_, items)| self.lose(items));
                    unknown_header = true;
                    let expansions: Vec<String> = self
                        .names
                        .iter()
                        .filter(|(_, (n, _))| matches!(n, Named::Expansion(_)))
                        .map(|(n, _)| n.clone())
                        .collect();
                    let message = format!("unknown expansion `{}`", quoted(&name.value));
                    let candidates = expansions.iter().map(String::as_str);
                    self.report_unknown(
                        Code::UnknownExpansion,
                        (name.span, message, "not an expansion of modules.yaml"),
                        &name.value,
                        candidates,
                        None,
                    );
                }
            }
        }
        files.sort_by_key(|(rank, _)| *rank);
        // Every registered expansion has its file (unless one failed to load:
        // it may be the missing one).
        if !self.failed.expansion && !self.failed.modules && !unknown_header {
            for (x, expansion) in raw.expansions.iter().enumerate() {
                if !claimed.contains_key(&x) {
                    // Its items are missing: references to them cannot be checked.
                    self.failed.expansion = true;
                    let file = crate::syntax::expansion_file(&expansion.id.value);
                    self.report(
                        Code::ExpansionWithoutFile,
                        expansion.id.span,
                        format!("expansion `{}` has no rules file", expansion.id.value),
                        "registered here",
                        Some(format!(
                            "add {file} starting with `expansion: {}` (it may hold no items)",
                            expansion.id.value
                        )),
                    );
                }
            }
        }

        let mut nodes: Vec<Node> = Vec::new();
        for (rank, file_sections) in files {
            let mut position = 0;
            for (key, list) in file_sections {
                let Some(section) = sections.iter().position(|s| s.id == key.value) else {
                    self.lose(list);
                    if self.failed.base {
                        continue;
                    }
                    let message = format!("unknown step or section `{}`", quoted(&key.value));
                    let candidates = sections.iter().map(|s| s.id.as_str());
                    self.report_unknown(
                        Code::UnknownStep,
                        (key.span, message, "not a step of base.yaml"),
                        &key.value,
                        candidates,
                        None,
                    );
                    continue;
                };
                flatten(list, section, None, rank, &mut position, &mut nodes);
            }
        }

        // Ids are unique across all files.
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        self.check_case_collisions(IdKind::Item, nodes.iter().map(|n| &n.raw.id));
        self.check_case_collisions(IdKind::Group, nodes.iter().filter_map(|n| n.raw.one_of.as_ref()));
        for (i, node) in nodes.iter().enumerate() {
            let id = &node.raw.id;
            self.check_id(id, IdKind::Item);
            if let Some(group) = &node.raw.one_of {
                self.check_id(group, IdKind::Group);
            }
            if let Some(&first) = by_id.get(id.value.as_str()) {
                self.duplicate("item id", id, nodes[first].raw.id.span);
                // Renamed to the first id free of the form `id-2`, `id-3`…
                let taken = |candidate: &str| nodes.iter().any(|n| n.raw.id.value == candidate);
                let free = (2..).map(|n| format!("{}-{n}", id.value)).find(|c| !taken(c));
                if let Some(free) = free.filter(|f| IdKind::Item.accepts(f))
                    && let Some(last) = self.problems.pop()
                {
                    let title = format!("Rename this one to `{free}`");
                    self.problems.push(last.with_fix(Fix { title, span: id.span, replacement: free }));
                }
            } else {
                by_id.insert(&id.value, i);
            }
        }

        let placements: Vec<Placement> =
            (0..nodes.len()).map(|i| self.placement(i, &nodes, &by_id, &sections)).collect();
        let placed: Vec<model::Placed> =
            placements.iter().enumerate().map(|(i, p)| self.placed(i, p, &nodes, &by_id)).collect();
        let ordered = placement::place(&placements);
        let none_of: Vec<Vec<(String, Span)>> =
            (0..nodes.len()).map(|i| self.none_of_references(i, &nodes, &by_id, &sections)).collect();
        for &i in &ordered.unplaced {
            // Report each cycle once, at its first item in file order.
            let raw = nodes[i].raw;
            let via = raw.after.as_ref().or(raw.before.as_ref()).or(raw.under.as_ref());
            if let Some(via) = via {
                self.report(
                    Code::OrderConflict,
                    via.span,
                    format!("item `{}` is part of an ordering cycle", raw.id.value),
                    "this reference leads back to the item",
                    None,
                );
            }
        }
        self.check_before_constraints(&nodes, &by_id, &ordered);

        let flags = self.flags();
        let logic = Logic::over(&catalog, &flags, budget.clone());
        if let Some(f) = logic.too_complex_flag() {
            self.too_complex(flags[f].span);
        }
        let build = Build {
            nodes: &nodes,
            placed: &placed,
            none_of: &none_of,
            ordered: &ordered,
            logic: &logic,
            flags: &flags,
            catalog: &catalog,
            sections: &sections,
        };
        let mut section_items: Vec<Vec<Item>> = Vec::new();
        for (s, section) in sections.iter().enumerate() {
            let top = ordered.sections.get(&s).cloned().unwrap_or_default();
            let exists = match logic.try_cond(&section.exists) {
                Ok(exists) => exists,
                Err(why) => {
                    if let (TooComplex::Here, Some(span)) = (why, section.span) {
                        self.too_complex(span);
                    }
                    // Undecided: nothing under it is reported as never shown.
                    logic.everything().clone()
                }
            };
            let context = Context { selections: exists, conds: vec![&section.exists] };
            let items: Vec<Item> = top.iter().filter_map(|&i| self.item(&build, i, &context, &[], 1)).collect();
            self.check_otherwise(None, &items);
            section_items.push(items);
        }
        let mut section_items = section_items.into_iter();
        let mut take = || section_items.next().unwrap_or_default();
        // In the order `sections` was built: before the steps, the steps, after.
        let mut outside = Sections::<Vec<Item>>::default();
        for section in Section::BEFORE_STEPS {
            outside[section] = take();
        }
        for step in phases.iter_mut().flat_map(|p| &mut p.steps) {
            step.items = take();
        }
        for section in Section::AFTER_STEPS {
            outside[section] = take();
        }
        // The flow checks read conditions as selections, none past the
        // budget: once it ran out (and the condition that spent it was
        // reported), what they would find is not to be trusted.
        if !budget.exhausted() {
            self.check_double_turn_block(&phases, double_turn.as_ref(), &logic);
            self.check_effects(&phases, double_turn.as_ref(), &logic);
        }
        drop(logic);
        let defined = model::Defined {
            names: self.names.iter().map(|(name, &(_, span))| (name.clone(), span)).collect(),
            editions: self.editions.iter().map(|(name, &span)| (name.clone(), span)).collect(),
            variants: self.variants.iter().map(|(name, &span)| (name.clone(), span)).collect(),
        };
        let markers = self.markers.clone();
        let mut rules =
            Rules { catalog, flags, phases, double_turn, sections: outside, inputs: Vec::new(), defined, markers };
        self.number(&mut rules);
        self.bind_none_of(&mut rules);
        // What names the turn orders' typed ids, in their numbers' order.
        let all = rules.items();
        let mut items = vec![String::new(); all.len()];
        for item in all {
            if let Some(slot) = items.get_mut(usize::from(item.number.0)) {
                slot.clone_from(&item.id);
            }
        }
        let steps: Vec<String> = rules.steps().map(|s| s.id.clone()).collect();
        let catalog = std::mem::take(&mut rules.catalog);
        rules.catalog = catalog.with_ids(steps.iter().map(String::as_str), items.iter().map(String::as_str));
        rules
    }

    /// Numbers items, markers and origin candidates in the order of
    /// [`Rules::items`], which the generated tables and the interpreter share.
    fn number(&mut self, rules: &mut Rules) {
        #[derive(Default)]
        struct Next {
            item: usize,
            marker: usize,
            origin: usize,
        }
        fn walk(items: &mut [Item], next: &mut Next) {
            for item in items {
                item.number = ItemId(next.item as u16);
                next.item += 1;
                for marker in &mut item.markers {
                    marker.number = MarkerId(next.marker as u16);
                    next.marker += 1;
                }
                for candidate in &mut item.origins {
                    candidate.number = OriginId(next.origin as u16);
                    next.origin += 1;
                }
                walk(&mut item.children, next);
            }
        }
        // The order of [`Rules::items`].
        let mut next = Next::default();
        for section in Section::BEFORE_STEPS {
            walk(&mut rules.sections[section], &mut next);
        }
        for step in rules.phases.iter_mut().flat_map(|p| &mut p.steps) {
            walk(&mut step.items, &mut next);
        }
        for section in Section::AFTER_STEPS {
            walk(&mut rules.sections[section], &mut next);
        }
        let max = usize::from(u16::MAX);
        if next.item > max || next.marker > max || next.origin > max {
            self.problems.push(Diagnostic::global(
                Code::TooMany,
                format!(
                    "{} items, {} markers and {} origin candidates, but at most {max} of each are supported",
                    next.item, next.marker, next.origin
                ),
            ));
        }
    }

    /// Binds an item's `under`, `after` and `before` into a placement,
    /// reporting references that do not fit (and placing the item at the end).
    fn placement(&mut self, i: usize, nodes: &[Node], by_id: &HashMap<&str, usize>, sections: &[Part]) -> Placement {
        let node = &nodes[i];
        let mut parent = node.inline_parent;
        if let Some(under) = &node.raw.under {
            parent = self.reference(under, i, nodes, by_id, sections, "under").or(parent);
        }
        let sibling = |this: &mut Self, source: &Spanned<String>, what: &str| -> Option<usize> {
            let target = this.reference(source, i, nodes, by_id, sections, what)?;
            let target_parent = this.parent_of(target, nodes, by_id);
            if target_parent != parent {
                let describe = |p: Option<usize>| match p {
                    Some(p) => format!("a child of `{}`", nodes[p].raw.id.value),
                    None => "at the top of the step".to_string(),
                };
                this.report(
                    Code::InvalidReference,
                    source.span,
                    format!("`{}` is not a sibling of `{}`", source.value, node.raw.id.value),
                    format!("`{}` is {}, this item is {}", source.value, describe(target_parent), describe(parent)),
                    Some(
                        "`after` and `before` name items of the same list; use `under` to change the parent"
                            .to_string(),
                    ),
                );
                return None;
            }
            Some(target)
        };
        let anchor = if let Some(after) = &node.raw.after {
            sibling(self, after, "after").map(Anchor::After)
        } else if let Some(before) = &node.raw.before {
            sibling(self, before, "before").map(Anchor::Before)
        } else {
            node.previous.filter(|&p| self.parent_of(p, nodes, by_id) == parent).map(Anchor::FollowPrevious)
        };
        if let (Some(_), Some(before)) = (&node.raw.after, &node.raw.before) {
            // `before` is verified after placement; still bind it for its diagnostics.
            let _ = sibling(self, before, "before");
        }
        Placement { section: node.section, parent, anchor: anchor.unwrap_or(Anchor::End), key: node.key }
    }

    /// How `placement` placed item `i`, in the model's terms: the
    /// references that did it, or why it goes at the end of its list.
    fn placed(&self, i: usize, placement: &Placement, nodes: &[Node], by_id: &HashMap<&str, usize>) -> model::Placed {
        let node = &nodes[i];
        let id = |x: usize| nodes[x].raw.id.value.clone();
        let under = match (&node.raw.under, placement.parent) {
            (Some(under), Some(parent)) => Some((id(parent), under.span)),
            _ => None,
        };
        let reference = |source: &Option<Spanned<String>>| source.as_ref().map_or(node.raw.id.span, |s| s.span);
        let anchor = match placement.anchor {
            Anchor::After(x) => model::Anchored::After(id(x), reference(&node.raw.after)),
            Anchor::Before(x) => model::Anchored::Before(id(x), reference(&node.raw.before)),
            Anchor::FollowPrevious(x) => model::Anchored::Above(id(x), nodes[x].raw.id.span),
            Anchor::End => model::Anchored::End(match node.previous {
                None => model::WhyEnd::FirstInFile,
                Some(above) => model::WhyEnd::AboveElsewhere {
                    id: id(above),
                    span: nodes[above].raw.id.span,
                    parent: self.parent_of(above, nodes, by_id).map(id),
                },
            }),
        };
        model::Placed { under, anchor }
    }

    /// The parent an item ends up with (from `under`, or from nesting).
    fn parent_of(&self, i: usize, nodes: &[Node], by_id: &HashMap<&str, usize>) -> Option<usize> {
        match &nodes[i].raw.under {
            Some(under) => dsl::reference(&under.value).ok().and_then(|r| by_id.get(r.text.as_str()).copied()),
            None => nodes[i].inline_parent,
        }
    }

    /// Binds a reference to an item of the same section.
    fn reference(
        &mut self,
        source: &Spanned<String>,
        i: usize,
        nodes: &[Node],
        by_id: &HashMap<&str, usize>,
        sections: &[Part],
        what: &str,
    ) -> Option<usize> {
        let name = self.parse(source, &format!("`{what}` reference"), dsl::reference)?;
        let Some(&target) = by_id.get(name.text.as_str()) else {
            if self.failed.expansion || self.failed.base || self.lost.contains(&name.text) {
                return None;
            }
            let here = nodes[i].section;
            let candidates = nodes.iter().filter(|n| n.section == here).map(|n| n.raw.id.value.as_str());
            let message = format!("unknown item `{}`", name.text);
            let label = format!("no item has this id ({what})");
            let span = source.sub_span(name.at.0, name.at.1);
            self.report_unknown(Code::UnknownItem, (span, message, &label), &name.text, candidates, None);
            return None;
        };
        if target == i {
            self.report(
                Code::InvalidReference,
                source.span,
                format!("item `{}` refers to itself", name.text),
                format!("`{what}` names the item itself"),
                None,
            );
            return None;
        }
        if nodes[target].section != nodes[i].section {
            let (theirs, ours) = (&sections[nodes[target].section].id, &sections[nodes[i].section].id);
            self.report(
                Code::InvalidReference,
                source.span,
                format!("`{}` is in `{theirs}`, not in `{ours}`", name.text),
                format!("`{what}` must name an item of the same step"),
                None,
            );
            return None;
        }
        Some(target)
    }

    /// The items node `i`'s `none_of` names, where they exist in its step.
    fn none_of_references(
        &mut self,
        i: usize,
        nodes: &[Node],
        by_id: &HashMap<&str, usize>,
        sections: &[Part],
    ) -> Vec<(String, Span)> {
        let written = &nodes[i].raw.none_of;
        if let Some(first) = written.first().filter(|_| sections[nodes[i].section].step.is_none()) {
            let section = &sections[nodes[i].section].id;
            self.report(
                Code::InvalidOption,
                first.span,
                format!("`{}` in `{section}` is left out by other items", nodes[i].raw.id.value),
                "`none_of` is for an item of a step",
                Some(format!("items of `{section}` are not played step by step")),
            );
            return Vec::new();
        }
        written
            .iter()
            .filter_map(|w| {
                let target = self.reference(w, i, nodes, by_id, sections, "none_of")?;
                Some((nodes[target].raw.id.value.clone(), w.span))
            })
            .collect()
    }

    /// Numbers each item's `none_of`, refusing an item that does not come
    /// before it in its step (a later item, or one it stands under), and the
    /// items of each `forbid` (checked with the other effects).
    fn bind_none_of(&mut self, rules: &mut Rules) {
        // Each item's number and one past its last descendant's.
        let mut range: HashMap<String, (u16, u16)> = HashMap::new();
        fn ranges(items: &[Item], out: &mut HashMap<String, (u16, u16)>) -> u16 {
            let mut end = 0;
            for item in items {
                let last = ranges(&item.children, out).max(item.number.0 + 1);
                out.insert(item.id.clone(), (item.number.0, last));
                end = end.max(last);
            }
            end
        }
        for step in rules.phases.iter().flat_map(|p| &p.steps) {
            ranges(&step.items, &mut range);
        }
        for section in Section::ALL {
            ranges(rules.section(section), &mut range);
        }
        fn bind(checker: &mut Checker, items: &mut [Item], range: &HashMap<String, (u16, u16)>) {
            for item in items {
                let me = item.number.0;
                for (name, span) in &item.spans.none_of {
                    let Some(&(number, end)) = range.get(name) else { continue };
                    let problem = if number > me {
                        Some(("comes after it", "name items that come before it in the step"))
                    } else if me < end {
                        Some(("stands above it", "name the alternatives before it, not the item it is under"))
                    } else {
                        None
                    };
                    match problem {
                        Some((how, help)) => checker.report(
                            Code::InvalidReference,
                            *span,
                            format!("`{}` is played when `{name}` was not done, but `{name}` {how}", item.id),
                            "\"none of the above\" names earlier items",
                            Some(help.into()),
                        ),
                        None => item.none_of.push(ItemId(number)),
                    }
                }
                if let Some(Effect::Forbid { items, .. }) = &mut item.effect {
                    let named = item.spans.forbid.iter().filter_map(|(name, _)| range.get(name));
                    *items = named.map(|&(number, _)| ItemId(number)).collect::<Vec<_>>().into();
                }
                bind(checker, &mut item.children, range);
            }
        }
        for step in rules.phases.iter_mut().flat_map(|p| &mut p.steps) {
            bind(self, &mut step.items, &range);
        }
    }

    /// An item with both `after` and `before` is placed by `after`; here we
    /// check that `before` still holds.
    fn check_before_constraints(&mut self, nodes: &[Node], by_id: &HashMap<&str, usize>, ordered: &placement::Ordered) {
        for node in nodes {
            let (Some(after), Some(before)) = (&node.raw.after, &node.raw.before) else {
                continue;
            };
            let (Some(&me), Some(&target)) = (by_id.get(node.raw.id.value.as_str()), by_id.get(before.value.as_str()))
            else {
                continue;
            };
            let list = match self.parent_of(me, nodes, by_id) {
                Some(p) => &ordered.children[p],
                None => match ordered.sections.get(&node.section) {
                    Some(list) => list,
                    None => continue,
                },
            };
            let position = |x: usize| list.iter().position(|&y| y == x);
            if let (Some(a), Some(b)) = (position(me), position(target))
                && a > b
            {
                let d = Diagnostic::at(
                    Code::OrderConflict,
                    self.sources,
                    before.span,
                    format!(
                        "`{}` cannot be both after `{}` and before `{}`",
                        node.raw.id.value, after.value, before.value
                    ),
                    format!("`{}` comes before `{}`", before.value, after.value),
                )
                .also(self.sources, after.span, "placed here by this `after`");
                self.problems.push(d);
            }
        }
    }

    /// Builds one checked item (and its children) from its node.
    /// Reports the condition at `span` as the one that spent the budget.
    fn too_complex(&mut self, span: Span) {
        self.report(
            Code::TooComplex,
            span,
            "this condition is too complex to decide",
            "deciding it takes more work than the rules may use",
            Some(format!(
                "conditions are decided within a budget of {BUDGET} steps for all the rules; this one combines \
                 many modules in a pattern whose cases multiply: split it into simpler conditions, or name \
                 the modules it pairs next to each other in earlier conditions"
            )),
        );
    }

    /// `depth`: 1 for an item at the top of its step, 2 for its sub-items, …
    fn item(
        &mut self,
        build: &Build,
        i: usize,
        context: &Context,
        parent_foreign: &[EditionId],
        depth: usize,
    ) -> Option<Item> {
        let node = &build.nodes[i];
        let raw = node.raw;
        if depth > model::MAX_DEPTH {
            // Reported at the deepest item allowed's first child; what is
            // under it is left out, and not reported again.
            let span = raw.under.as_ref().map_or(raw.id.span, |u| u.span);
            self.report(
                Code::TooDeep,
                span,
                format!("item `{}` is nested more than {} levels deep", raw.id.value, model::MAX_DEPTH),
                "this item is a sub-item too many levels down",
                Some(format!("items nest at most {} levels (under: or children:)", model::MAX_DEPTH)),
            );
            return None;
        }
        let when = match &raw.when {
            Some(w) => self.condition(w),
            None => {
                if node.needs_condition {
                    self.report(
                        Code::UnconditionalItem,
                        raw.id.span,
                        format!("item `{}` of an expansion has no condition", raw.id.value),
                        "add `when:` naming its module",
                        Some("without a condition the item would show in every game".to_string()),
                    );
                    None
                } else {
                    Some(Cond::True)
                }
            }
        };
        self.check_text(&raw.text, "an item's text");
        let text = self.text(&raw.text);
        let markers: Vec<Option<model::Marker>> = raw.markers.iter().map(|m| self.marker(m)).collect();
        self.unique_editions(&raw.foreign, "foreign");
        let mut foreign = parent_foreign.to_vec();
        let mut own_foreign = Vec::new();
        for f in &raw.foreign {
            let beside: Vec<&str> = raw.foreign.iter().map(|o| o.value.as_str()).filter(|o| *o != f.value).collect();
            if let Some(e) = self.edition_beside(&f.value, f.span, &beside)
                && !foreign.contains(&e)
            {
                foreign.push(e);
                own_foreign.push((e, f.span));
            }
        }
        foreign.sort_unstable();
        let effect = raw.effect.as_ref().and_then(|e| self.effect(e, build.sections));

        let when = when?;
        let logic = build.logic;
        let span = raw.when.as_ref().map_or(raw.id.span, |w| w.span);
        let decided = logic.try_cond(&when).and_then(|own| Ok((logic.and(&context.selections, &own)?, own)));
        let (in_context, decided) = match decided {
            Ok((in_context, own)) => (in_context, Some(own)),
            Err(why) => {
                if why == TooComplex::Here {
                    self.too_complex(span);
                }
                // Undecided: its children are checked against its context.
                (context.selections.clone(), None)
            }
        };
        if let Some(own) = decided.filter(|_| in_context.is_false()) {
            let (message, label) = if !own.is_false() {
                (
                    format!("item `{}` can never be shown", raw.id.value),
                    "this condition contradicts its parent's or its step's",
                )
            } else {
                (
                    format!("the condition of `{}` can never hold", raw.id.value),
                    "no edition and selection of modules satisfies this",
                )
            };
            // Where the item was expected to show: its parent or step.
            let mut named: Vec<ModuleId> = Vec::new();
            for m in context.conds.iter().flat_map(|c| c.modules(build.flags)) {
                if !named.contains(&m) {
                    named.push(m);
                }
            }
            let example = logic.fewest(&context.selections, &named).map(|cfg| {
                format!("for example: {} shows its context without it", crate::command::order(build.catalog, &cfg))
            });
            self.report(Code::NeverShown, span, message, label, example);
        }
        let children = build.ordered.children[i].clone();
        let mut conds = context.conds.clone();
        conds.push(&when);
        let inner = Context { selections: in_context, conds };
        let children: Vec<Item> =
            children.into_iter().filter_map(|c| self.item(build, c, &inner, &foreign, depth + 1)).collect();
        let flow = self.flow(raw, &build.sections[node.section].id, !build.ordered.children[i].is_empty());
        self.check_otherwise(Some((&raw.id.value, flow)), &children);
        let must = raw.must.as_ref().filter(|m| m.value).map(|m| m.span);
        self.check_must(&raw.id.value, must, &children);
        if let Some(repeat) = flow.repeat {
            self.check_repeat_inside(&raw.id.value, repeat, &children);
        }
        let mut children = children;
        inherit_actor(&mut children, flow.actor);
        // The origins' walk charges the run's budget too.
        let origins = match when.origins_within(build.flags, logic.budget()) {
            Ok(origins) => origins,
            Err(why) => {
                if why == TooComplex::Here {
                    self.too_complex(span);
                }
                Vec::new()
            }
        };
        Some(Item {
            id: raw.id.value.clone(),
            number: ItemId(0),
            origins,
            when,
            text: text?,
            markers: markers.into_iter().collect::<Option<Vec<_>>>()?,
            foreign,
            effect,
            flow,
            none_of: Vec::new(),
            one_of: raw.one_of.as_ref().map(|g| g.value.clone()),
            children,
            spans: model::ItemSpans {
                id: raw.id.span,
                when: raw.when.as_ref().map(|w| w.span),
                text: raw.text.span,
                foreign: own_foreign,
                one_of: raw.one_of.as_ref().map(|g| g.span),
                effect: raw.effect.as_ref().map(|e| e.span),
                otherwise: raw.otherwise.as_ref().filter(|o| o.value).map(|o| o.span),
                must,
                actor: raw.actor.as_ref().map(|a| a.span),
                none_of: build.none_of[i].clone(),
                forbid: match raw.effect.as_ref().map(|e| (e, dsl::effect(&e.value))) {
                    Some((e, Ok(dsl::WrittenEffect::Forbid(names, _)))) => {
                        names.iter().map(|n| (n.text.clone(), e.sub_span(n.at.0, n.at.1))).collect()
                    }
                    _ => Vec::new(),
                },
            },
            placed: build.placed[i].clone(),
        })
    }
}

/// An item while it is being placed.
struct Node<'r> {
    raw: &'r RawItem,
    section: usize,
    /// Parent from nesting in `children`.
    inline_parent: Option<usize>,
    /// Previous item of the same YAML list.
    previous: Option<usize>,
    /// Expansion rank (0 = base) and position in the file.
    key: (usize, usize),
    /// Top-level item of an expansion file: it needs its own condition.
    needs_condition: bool,
}

struct Build<'a, 'r> {
    nodes: &'a [Node<'r>],
    /// Each node's placement with its reason.
    placed: &'a [model::Placed],
    /// Each node's `none_of`, the ids that were found.
    none_of: &'a [Vec<(String, Span)>],
    ordered: &'a placement::Ordered,
    /// Decides whether conditions can hold.
    logic: &'a Logic<'a>,
    flags: &'a [Flag],
    catalog: &'a Catalog,
    sections: &'a [Part],
}

/// Where an item's parent (or its step) shows: as selections, and as the
/// conditions that say so (the step's first), whose modules a counterexample
/// prefers in the order they name them.
struct Context<'c> {
    selections: Bdd,
    conds: Vec<&'c Cond>,
}

/// Turns a YAML list of items (and their children) into nodes.
fn flatten<'r>(
    list: &'r [RawItem],
    section: usize,
    parent: Option<usize>,
    rank: usize,
    position: &mut usize,
    nodes: &mut Vec<Node<'r>>,
) {
    let mut previous = None;
    for raw in list {
        let me = nodes.len();
        nodes.push(Node {
            raw,
            section,
            inline_parent: parent,
            previous,
            key: (rank, *position),
            needs_condition: rank > 0 && parent.is_none(),
        });
        *position += 1;
        flatten(&raw.children, section, Some(me), rank, position, nodes);
        previous = Some(me);
    }
}

/// Gives `actor` to the sub-items that do not name their own, and to theirs.
fn inherit_actor(items: &mut [Item], actor: Actor) {
    for item in items.iter_mut().filter(|i| i.spans.actor.is_none()) {
        item.flow.actor = actor;
        inherit_actor(&mut item.children, actor);
    }
}
