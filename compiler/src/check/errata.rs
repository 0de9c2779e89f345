//! `errata.yaml`: class readings and deliberate differences from the page.

use super::*;

impl Checker<'_> {
    pub(super) fn errata(&mut self, raw: &RawRules, rules: &Rules) -> model::Errata {
        let mut errata = model::Errata::default();
        for reading in &raw.class_readings {
            if !reading.class.value.starts_with("show") {
                self.report(
                    reading.class.span,
                    format!("`{}` is not a show class", reading.class.value),
                    "class readings are for `show…` classes",
                    None,
                );
            }
            if let Some(means) = self.condition(&reading.means) {
                errata.classes.push(model::ClassReading { class: reading.class.value.clone(), means });
            }
        }
        let steps: Vec<&str> = model::SECTIONS_BEFORE_STEPS
            .into_iter()
            .chain(rules.phases.iter().flat_map(|p| p.steps.iter().map(|s| s.id.as_str())))
            .collect();
        let mut ids = IndexMap::new();
        for d in &raw.differences {
            if let Some(first) = first_definition(&mut ids, &d.id) {
                self.duplicate("erratum", &d.id, first);
            }
            for step in &d.steps {
                if !steps.contains(&step.value.as_str()) {
                    let help = suggestion(&step.value, steps.iter().copied());
                    self.report(step.span, format!("unknown step `{}`", step.value), "not a step of base.yaml", help);
                }
            }
            let when = match &d.when {
                Some(w) => self.condition(w),
                None => Some(Cond::True),
            };
            for item in &d.items {
                if !item_exists(rules, &item.value) {
                    self.report(item.span, format!("unknown item `{}`", item.value), "no item has this id", None);
                }
            }
            if let Some(when) = when {
                errata.differences.push(model::Difference {
                    id: d.id.value.clone(),
                    page_lines: d.page_lines.clone(),
                    items: d.items.iter().map(|i| i.value.clone()).collect(),
                    steps: d.steps.iter().map(|s| s.value.clone()).collect(),
                    when,
                    page: d.page.value.clone(),
                    rules: d.rules.value.clone(),
                    why: d.why.value.clone(),
                });
            }
        }
        errata
    }
}
