//! Phases and steps of `base.yaml`.

use carcassonne_rules_core::Repeat;
use carcassonne_rules_core::tables::StepId;

use super::*;

impl Checker<'_> {
    pub(super) fn phases(&mut self, raw: &RawRules) -> Vec<model::Phase> {
        let mut step_ids = IndexMap::new();
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
                let repeat = s.repeat.as_ref().and_then(|r| self.repeat(r));
                steps.push(model::Step {
                    id: s.id.value.clone(),
                    number: StepId((step_ids.len() - 1) as u8),
                    title: s.title.value.clone(),
                    when,
                    repeat,
                    choose_one: s.choose_one,
                    may_pass: false,
                    items: Vec::new(),
                    span: s.id.span,
                    when_span: s.when.as_ref().map(|w| w.span),
                    repeat_span: s.repeat.as_ref().map(|r| r.span),
                });
            }
            phases.push(model::Phase { id: p.id.value.clone(), title: p.title.value.clone(), steps });
        }
        if raw.base_file.is_some() && phases.iter().all(|p| p.steps.is_empty()) {
            self.problems.push(Diagnostic::global("base.yaml declares no steps"));
        }
        phases
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
