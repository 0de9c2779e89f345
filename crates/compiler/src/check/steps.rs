//! Phases and steps of `base.yaml`.

use crate::codes::Code;
use carcassonne_rules_core::Repeat;
use carcassonne_rules_core::tables::StepId;

use super::*;

impl Checker<'_> {
    pub(super) fn phases(&mut self, raw: &RawRules) -> (Vec<model::Phase>, Option<model::DoubleTurn>) {
        let mut step_ids = IndexMap::new();
        // Steps marked `repeat: double_turn`, the format before the block.
        let mut legacy: Vec<(StepId, Cond, Span)> = Vec::new();
        let mut phases = Vec::new();
        self.check_case_collisions(IdKind::Phase, raw.phases.iter().map(|p| &p.id));
        self.check_case_collisions(IdKind::Step, raw.phases.iter().flat_map(|p| &p.steps).map(|s| &s.id));
        for p in &raw.phases {
            self.check_id(&p.id, IdKind::Phase);
            self.check_text(&p.title, "a phase's title");
            let mut steps = Vec::new();
            for s in &p.steps {
                if let Some(first) = first_definition(&mut step_ids, &s.id) {
                    self.duplicate("step", &s.id, first);
                    continue;
                }
                self.check_id(&s.id, IdKind::Step);
                self.check_text(&s.title, "a step's title");
                let when = match &s.when {
                    Some(w) => self.condition(w).unwrap_or(Cond::True),
                    None => Cond::True,
                };
                let mut repeat = s.repeat.as_ref().and_then(|r| self.repeat(r));
                // An older folder's mark: part of the block it spans (below).
                if let (Some((Repeat::DoubleTurn, when)), Some(source)) = (&repeat, &s.repeat) {
                    legacy.push((StepId(step_ids.len() as u8 - 1), when.clone(), source.span));
                    repeat = None;
                }
                let may_pass = s.may_pass.as_ref().is_some_and(|m| m.value);
                if let Some(m) = s.may_pass.as_ref().filter(|m| m.value && !s.choose_one) {
                    self.report(
                        Code::InvalidStep,
                        m.span,
                        format!("step `{}` may be passed but is not a choice", s.id.value),
                        "`may_pass` needs `choose_one: true`",
                        Some("`may_pass: true` lets the player take none of a choose-one step's items".to_string()),
                    );
                }
                steps.push(model::Step {
                    id: s.id.value.clone(),
                    number: StepId((step_ids.len() - 1) as u8),
                    title: s.title.value.clone(),
                    when,
                    repeat,
                    choose_one: s.choose_one,
                    may_pass,
                    items: Vec::new(),
                    span: s.id.span,
                    when_span: s.when.as_ref().map(|w| w.span),
                    repeat_span: s.repeat.as_ref().map(|r| r.span),
                    may_pass_span: s.may_pass.as_ref().map(|m| m.span),
                });
            }
            phases.push(model::Phase { id: p.id.value.clone(), title: p.title.value.clone(), steps });
        }
        if raw.base_file.is_some() && phases.iter().all(|p| p.steps.is_empty()) {
            self.problems.push(Diagnostic::global(Code::InvalidStep, "base.yaml declares no steps"));
        }
        let double_turn = match &raw.double_turn {
            Some(block) => {
                for &(_, _, span) in &legacy {
                    self.report(
                        Code::DoubleTurn,
                        span,
                        "a step is marked `double_turn` beside the double-turn block",
                        "the block says which steps a double turn plays again",
                        Some(
                            "remove this `repeat`: the block `double_turn:` of base.yaml is the one place for it"
                                .into(),
                        ),
                    );
                }
                self.double_turn(block, &step_ids)
            }
            None => self.legacy_double_turn(&legacy),
        };
        self.double_turn_refused = double_turn.is_none() && (raw.double_turn.is_some() || !legacy.is_empty());
        if let Some(block) = &double_turn {
            // A step of the block repeats as the block does, unless it has a
            // repeat of its own (3B: once per completed feature).
            for step in phases.iter_mut().flat_map(|p| &mut p.steps).filter(|s| block.holds_step(s.number)) {
                if step.repeat.is_none() {
                    step.repeat = Some((Repeat::DoubleTurn, block.when.clone()));
                }
            }
        }
        (phases, double_turn)
    }

    /// The block that an older folder's marks span: from the first marked step
    /// to the last, under their one condition (`review` reads old revisions so).
    fn legacy_double_turn(&mut self, marks: &[(StepId, Cond, Span)]) -> Option<model::DoubleTurn> {
        let (first, when, span) = marks.first()?.clone();
        for (_, other, at) in &marks[1..] {
            if *other != when {
                let d = Diagnostic::at(Code::DoubleTurn, self.sources, *at, "the steps marked `double_turn` repeat under different conditions", "this condition differs")
                    .also(self.sources, span, "the first mark's")
                    .with_help("a double turn plays one block of steps: declare it once, `double_turn: { from: 1B, to: 4A, when: builder }`");
                self.problems.push(d);
                return None;
            }
        }
        let last = marks.last().map_or(first, |m| m.0);
        Some(model::DoubleTurn { first, last, when, span, when_span: None })
    }

    /// Binds the double-turn block: two known steps in turn order, and its condition.
    fn double_turn(
        &mut self,
        block: &crate::syntax::RawDoubleTurn,
        step_ids: &IndexMap<String, Span>,
    ) -> Option<model::DoubleTurn> {
        let step = |this: &mut Self, name: &Spanned<String>| match step_ids.get_index_of(&name.value) {
            Some(i) => Some(StepId(i as u8)),
            None => {
                let message = format!("unknown step `{}`", quoted(&name.value));
                let label = "the double-turn block names steps of base.yaml";
                this.report_unknown(
                    Code::UnknownStep,
                    (name.span, message, label),
                    &name.value,
                    step_ids.keys().map(String::as_str),
                    None,
                );
                None
            }
        };
        let (first, last) = (step(self, &block.from), step(self, &block.to));
        let when = match &block.when {
            Some(w) => self.condition(w),
            None => Some(Cond::True),
        };
        let (first, last) = (first?, last?);
        if first > last {
            let d = Diagnostic::at(
                Code::DoubleTurn,
                self.sources,
                block.to.span,
                format!("the double-turn block ends at `{}`, before it starts", block.to.value),
                "this step comes before the block's first step",
            )
            .also(self.sources, block.from.span, "the block starts here")
            .with_help("`from` names the block's first step and `to` its last, in turn order");
            self.problems.push(d);
            return None;
        }
        Some(model::DoubleTurn {
            first,
            last,
            when: when?,
            span: block.from.span,
            when_span: block.when.as_ref().map(|w| w.span),
        })
    }

    pub(super) fn repeat(&mut self, source: &Spanned<String>) -> Option<(Repeat, Cond)> {
        let repeat = self.parse(source, "repeat", dsl::repeat)?;
        let kind = if repeat.kind.text == "double_turn" { Repeat::DoubleTurn } else { Repeat::PerFeature };
        let when = match &repeat.when {
            Some(c) => self.bind(source, c)?,
            None => Cond::True,
        };
        Some((kind, when))
    }
}
