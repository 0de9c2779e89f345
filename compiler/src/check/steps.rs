//! Phases and steps of `base.yaml`.

use super::*;

impl Checker<'_> {
    pub(super) fn phases(&mut self, raw: &RawRules) -> Vec<model::Phase> {
        let mut step_ids: HashMap<String, Span> = HashMap::new();
        let mut phases = Vec::new();
        for p in &raw.phases {
            let mut steps = Vec::new();
            for s in &p.steps {
                if let Some(&first) = step_ids.get(&s.id.value) {
                    self.duplicate("step", &s.id, first);
                    continue;
                }
                step_ids.insert(s.id.value.clone(), s.id.span);
                if let Err(err) = dsl::step(&s.id.value) {
                    self.syntax_error(&s.id, "step id", err);
                }
                let when = match &s.when {
                    Some(w) => self.condition(w).unwrap_or(Cond::True),
                    None => Cond::True,
                };
                let repeat = s.repeat.as_ref().and_then(|r| self.repeat(r));
                steps.push(model::Step {
                    id: s.id.value.clone(),
                    title: s.title.value.clone(),
                    when,
                    repeat,
                    choose_one: s.choose_one,
                    items: Vec::new(),
                });
            }
            phases.push(model::Phase { id: p.id.value.clone(), title: p.title.value.clone(), steps });
        }
        if raw.base_file.is_some() && phases.iter().all(|p| p.steps.is_empty()) {
            self.problems.push(Diagnostic::global("base.yaml declares no steps"));
        }
        phases
    }

    pub(super) fn repeat(&mut self, source: &Spanned<String>) -> Option<(model::Repeat, Cond)> {
        let repeat = match dsl::repeat(&source.value) {
            Ok(r) => r,
            Err(err) => {
                self.syntax_error(source, "repeat", err);
                return None;
            }
        };
        let kind =
            if repeat.kind.text == "double_turn" { model::Repeat::DoubleTurn } else { model::Repeat::PerFeature };
        let when = match &repeat.when {
            Some(c) => self.resolve(source, c)?,
            None => Cond::True,
        };
        Some((kind, when))
    }
}
