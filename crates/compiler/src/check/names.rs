//! Binding names: DSL strings (conditions, text, markers, repetition, effects)
//! into model values, each name bound to the module, edition, variant, flag,
//! marker or step it stands for. (The runtime's `resolve` is another thing:
//! a selection's visible set into a turn order.)

use crate::codes::Code;
use carcassonne_rules_core::tables::MarkerId;
use carcassonne_rules_core::{Effect, StepId};

use super::*;

impl Checker<'_> {
    /// Parses a DSL string with `parser`, reporting a syntax error at its column.
    pub(super) fn parse<T>(
        &mut self,
        source: &Spanned<String>,
        what: &str,
        parser: impl FnOnce(&str) -> Result<T, dsl::SyntaxError>,
    ) -> Option<T> {
        parser(&source.value)
            .map_err(|err| {
                let span = source.sub_span(err.at.0, err.at.1);
                let message = format!("invalid {what}: {}", err.message);
                let closing = err.close_at.and_then(|at| source.insertion_at(at));
                let code = Code::InvalidExpression;
                let problem = match closing {
                    Some(at) => Diagnostic::at(code, self.sources, span, message, "opened here")
                        .with_help("close it with `)` where the group ends")
                        .with_fix(Fix { title: "Close the parenthesis".into(), span: at, replacement: ")".into() }),
                    None => Diagnostic::at(code, self.sources, span, message, err.message.clone()),
                };
                self.problems.push(problem);
            })
            .ok()
    }

    /// Parses a condition string and binds its names.
    pub(super) fn condition(&mut self, source: &Spanned<String>) -> Option<Cond> {
        let ast = self.parse(source, "condition", dsl::condition)?;
        self.bind(source, &ast)
    }

    /// Binds names to modules, editions and inlined derived flags. Reports
    /// every unknown name, not just the first.
    pub(super) fn bind(&mut self, source: &Spanned<String>, ast: &dsl::Condition) -> Option<Cond> {
        match ast {
            dsl::Condition::Bool(b) => Some(if *b { Cond::True } else { Cond::False }),
            dsl::Condition::Name(name) => match self.names.get(&name.text).map(|(named, _)| *named) {
                Some(Named::Module(m)) => Some(Cond::Module(m)),
                Some(Named::Derived(flag)) => self.derived_flag(flag),
                Some(Named::Expansion(_)) => {
                    let span = source.sub_span(name.at.0, name.at.1);
                    self.report(
                        Code::ExpansionInCondition,
                        span,
                        format!("`{}` is an expansion, not a module", name.text),
                        "conditions test modules",
                        Some("name one of its modules, or join them with `or`".to_string()),
                    );
                    None
                }
                None => {
                    let span = source.sub_span(name.at.0, name.at.1);
                    if !self.failed.modules {
                        let names: Vec<String> = self
                            .names
                            .iter()
                            .filter(|(_, (named, _))| !matches!(named, Named::Expansion(_)))
                            .map(|(n, _)| n.clone())
                            .collect();
                        let message = format!("unknown module or flag `{}`", name.text);
                        let candidates = names.iter().map(String::as_str);
                        self.report_unknown(
                            Code::UnknownModule,
                            (span, message, "not in modules.yaml"),
                            &name.text,
                            candidates,
                            None,
                        );
                    }
                    None
                }
            },
            dsl::Condition::Edition { equal, edition } => {
                let span = source.sub_span(edition.at.0, edition.at.1);
                let e = self.edition(&edition.text, span)?;
                Some(if *equal { Cond::Edition(e) } else { Cond::Not(Box::new(Cond::Edition(e))) })
            }
            dsl::Condition::Variant { equal, variant } => {
                let span = source.sub_span(variant.at.0, variant.at.1);
                let v = self.variant(&variant.text, span)?;
                Some(if *equal { Cond::Variant(v) } else { Cond::Not(Box::new(Cond::Variant(v))) })
            }
            dsl::Condition::Not(inner) => Some(Cond::Not(Box::new(self.bind(source, inner)?))),
            dsl::Condition::And(parts) | dsl::Condition::Or(parts) => {
                let bound: Vec<Option<Cond>> = parts.iter().map(|p| self.bind(source, p)).collect();
                let parts: Option<Vec<Cond>> = bound.into_iter().collect();
                let parts = parts?;
                Some(if matches!(ast, dsl::Condition::And(_)) { Cond::All(parts) } else { Cond::Any(parts) })
            }
        }
    }

    pub(super) fn text(&mut self, source: &Spanned<String>) -> Option<model::Wording> {
        let parts = self.parse(source, "text", dsl::text)?;
        let mut out = Vec::new();
        let mut ok = true;
        for part in parts {
            match part {
                dsl::TextPart::Literal(s) => out.push(model::WordingPart::Literal(s)),
                dsl::TextPart::Variants(alternatives) => {
                    let mut seen: Vec<(EditionId, (usize, usize))> = Vec::new();
                    let mut bound = Vec::new();
                    let written: Vec<String> =
                        alternatives.iter().flat_map(|(names, _)| names.iter().map(|n| n.text.clone())).collect();
                    for (names, text) in alternatives {
                        let mut editions = Vec::new();
                        for name in names {
                            let span = source.sub_span(name.at.0, name.at.1);
                            let beside: Vec<&str> =
                                written.iter().map(String::as_str).filter(|w| *w != name.text).collect();
                            let Some(e) = self.edition_beside(&name.text, span, &beside) else {
                                ok = false;
                                continue;
                            };
                            if seen.iter().any(|(x, _)| *x == e) {
                                self.report(
                                    Code::EditionNamedTwice,
                                    span,
                                    format!("edition `{}` is named twice in these variants", name.text),
                                    "named again here",
                                    None,
                                );
                                ok = false;
                            }
                            seen.push((e, name.at));
                            editions.push(e);
                        }
                        bound.push((editions, text));
                    }
                    out.push(model::WordingPart::ByEdition(bound));
                }
            }
        }
        ok.then_some(model::Wording(out))
    }

    pub(super) fn marker(&mut self, source: &Spanned<String>) -> Option<model::Marker> {
        let marker = self.parse(source, "marker", dsl::marker)?;
        if !self.markers.iter().any(|m| m.id == marker.name.text) {
            // Without base.yaml no marker is known: that is not this one's mistake.
            if self.failed.base {
                return None;
            }
            let span = source.sub_span(marker.name.at.0, marker.name.at.1);
            let message = format!("unknown marker `{}`", marker.name.text);
            let ids: Vec<String> = self.markers.iter().map(|m| m.id.clone()).collect();
            let known = format!("known markers: {}", ids.join(", "));
            self.report_unknown(
                Code::UnknownMarker,
                (span, message, "not a marker"),
                &marker.name.text,
                ids.iter().map(String::as_str),
                Some(known),
            );
            return None;
        }
        let when = match &marker.when {
            Some(c) => self.bind(source, c)?,
            None => Cond::True,
        };
        let name = model::MarkerInfo::label_of(&marker.name.text);
        if let Some(arg) = &marker.arg
            && let Some((at, c)) = lexicon::forbidden_in_text(arg)
        {
            // The argument stands verbatim after the name and its opening quote.
            let start = source.value.find('"').map_or(0, |q| q + 1) + at;
            self.report(
                Code::ForbiddenCharacter,
                source.sub_span(start, start + c.len_utf8()),
                format!("a marker's argument holds {}", lexicon::describe_char(c)),
                "not allowed here",
                Some("a marker's argument is one line without control characters".to_string()),
            );
            return None;
        }
        let label = match marker.arg {
            Some(arg) => format!("{name} ({arg})"),
            None => name,
        };
        let id = marker.name.text.clone();
        Some(model::Marker { number: MarkerId(0), id, label, when, span: source.span })
    }

    pub(super) fn effect(&mut self, source: &Spanned<String>, sections: &[Part]) -> Option<Effect> {
        let effect = self.parse(source, "effect", dsl::effect)?;
        let step = |this: &mut Self, name: &dsl::Name| -> Option<StepId> {
            if let Some(step) = sections.iter().find(|s| s.id == name.text).and_then(|s| s.step) {
                return Some(step);
            }
            let span = source.sub_span(name.at.0, name.at.1);
            let steps = sections.iter().filter(|s| s.step.is_some()).map(|s| s.id.as_str());
            if !this.failed.base {
                let message = format!("unknown step `{}`", name.text);
                this.report_unknown(
                    Code::UnknownStep,
                    (span, message, "not a step of base.yaml"),
                    &name.text,
                    steps,
                    None,
                );
            }
            None
        };
        Some(match effect {
            dsl::WrittenEffect::Skip(names) => {
                let steps: Vec<Option<StepId>> = names.iter().map(|n| step(self, n)).collect();
                Effect::Skip(steps.into_iter().collect::<Option<Vec<_>>>()?.into())
            }
            dsl::WrittenEffect::GoBack(name) => Effect::GoBack(step(self, &name)?),
            dsl::WrittenEffect::DoubleTurn => Effect::DoubleTurn,
            dsl::WrittenEffect::NextFeature => Effect::NextFeature,
            // Its items are numbered once every item is (`Checker::bind_forbidden`).
            dsl::WrittenEffect::Forbid(_, turn) => Effect::Forbid { items: Vec::new().into(), turn },
        })
    }
}
