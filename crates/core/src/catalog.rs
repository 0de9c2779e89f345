//! What a rule set knows: its editions, rule variants, expansions and modules,
//! and turning a chosen edition, rule variant and list of modules into a
//! [`Config`].

use std::ops::Range;

use serde::Serialize;

use crate::order::Origin;
use crate::select::{Config, EditionId, ModuleId, ModuleSet, VariantId};
use crate::suggest::suggestion;
use crate::tables::{ItemId, StepId};

/// The editions, variants, expansions and modules of one rule set. Serializes
/// as the `modules --format json` contract: `{"expansions": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Catalog {
    /// By [`EditionId`].
    #[serde(skip)]
    pub editions: Vec<EditionInfo>,
    /// By [`VariantId`].
    #[serde(skip)]
    pub variants: Vec<VariantInfo>,
    /// In the registry's order.
    pub expansions: Vec<ExpansionInfo>,
    /// By [`ModuleId`], that is sorted by id.
    #[serde(skip)]
    pub modules: Vec<ModuleInfo>,
    /// Every step's id in the rules (`1B`), by [`StepId`].
    #[serde(skip)]
    pub steps: Vec<String>,
    /// Every item's id in the rules (`draw-tile`), by [`ItemId`].
    #[serde(skip)]
    pub items: Vec<String>,
}

/// An edition of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditionInfo {
    /// `C1`, `C2`, `WE`.
    pub id: String,
    /// As a player names it.
    pub name: String,
    /// The rule variant played when none is chosen.
    #[serde(skip)]
    pub default_variant: VariantId,
}

/// A publisher's rule variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VariantInfo {
    /// `hig`, `zmg`, `rgg`.
    pub id: String,
    /// The publisher.
    pub name: String,
}

/// An expansion: a product that groups modules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExpansionInfo {
    /// snake_case id, accepted by `--with`.
    pub id: String,
    /// As printed on the box.
    pub name: String,
    /// The ids of the editions the expansion exists in.
    pub editions: Vec<String>,
    /// Its modules, in the registry's order.
    pub modules: Vec<ModuleInfo>,
}

/// A module: one selector flag of the wiki page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModuleInfo {
    /// The snake_case of the wiki's selector key.
    pub id: String,
    /// What the module is.
    pub name: String,
    /// The module's bit in a [`ModuleSet`].
    #[serde(skip)]
    pub bit: ModuleId,
    /// Whether the wiki's Order of Play page has a selector for the module.
    #[serde(skip)]
    pub on_wiki_page: bool,
}

/// Which part of a selection an id belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SelectionPart {
    /// The edition.
    Edition,
    /// The publisher's rule variant.
    Variant,
    /// The list of modules and expansions.
    Modules,
}

impl SelectionPart {
    /// The command line's option for it.
    pub const fn option(self) -> &'static str {
        match self {
            SelectionPart::Edition => "--edition",
            SelectionPart::Variant => "--variant",
            SelectionPart::Modules => "--with",
        }
    }
}

/// Help for an unknown module with no close id: where the ids are listed.
pub const MODULE_IDS_HELP: &str = "`carcassonne-rules modules` lists the ids";

/// What one part's unknown ids say: one message and its help, as the command
/// line and the JavaScript package say it (`unknown module … `x`` with its
/// suggestion, or `3 unknown module or expansion ids in --with`); `None`
/// without an error.
pub fn summary(errors: &[&SelectionError]) -> Option<(String, String)> {
    let first = errors.first()?;
    if let [only] = errors {
        return Some((only.message.clone(), only.help.clone().unwrap_or_else(|| MODULE_IDS_HELP.to_string())));
    }
    let what = first.message.split('`').next().unwrap_or("unknown id ").trim_end();
    Some((format!("{} {what} ids in {}", errors.len(), first.part.option()), MODULE_IDS_HELP.to_string()))
}

/// An id of a selection that names nothing: where it is and what might have
/// been meant. The command line turns it into a diagnostic. It holds the bad
/// id's place, not the option's value: a `--with` of thousands of unknown ids
/// makes as many errors, and the caller has the value already.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectionError {
    /// Which part of the selection.
    pub part: SelectionPart,
    /// The bad id's byte range in the part's value, as [`Catalog::config`] was given it.
    pub at: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// A label for the bad id.
    pub label: &'static str,
    /// A suggestion, or the valid ids where they are few; `None` for a module
    /// nothing is close to.
    pub help: Option<String>,
}

impl SelectionError {
    /// The bad id in `value`, the value of the part the error was made for.
    pub fn id<'v>(&self, value: &'v str) -> &'v str {
        value.get(self.at.clone()).unwrap_or_default()
    }
}

/// An expansion as [`Catalog::new`] takes it: id, name, edition ids, modules.
pub type ExpansionParts<'a> = (&'a str, &'a str, &'a [&'a str], &'a [ModuleId]);

impl Catalog {
    /// A catalog from its parts: editions (id, name, default variant),
    /// variants (id, name), modules by bit (id, name, on the wiki page) and
    /// expansions. The compiler builds its catalog this way, and the generated
    /// code rebuilds the same one.
    pub fn new(
        editions: &[(&str, &str, VariantId)],
        variants: &[(&str, &str)],
        modules: &[(&str, &str, bool)],
        expansions: &[ExpansionParts<'_>],
    ) -> Catalog {
        let modules: Vec<ModuleInfo> = modules
            .iter()
            .enumerate()
            .map(|(bit, &(id, name, on_wiki_page))| ModuleInfo {
                id: id.to_string(),
                name: name.to_string(),
                bit: ModuleId(bit as u8),
                on_wiki_page,
            })
            .collect();
        Catalog {
            editions: editions
                .iter()
                .map(|&(id, name, default_variant)| EditionInfo {
                    id: id.to_string(),
                    name: name.to_string(),
                    default_variant,
                })
                .collect(),
            variants: variants
                .iter()
                .map(|&(id, name)| VariantInfo { id: id.to_string(), name: name.to_string() })
                .collect(),
            expansions: expansions
                .iter()
                .map(|&(id, name, editions, members)| ExpansionInfo {
                    id: id.to_string(),
                    name: name.to_string(),
                    editions: editions.iter().map(|e| e.to_string()).collect(),
                    modules: members.iter().filter_map(|m| modules.get(usize::from(m.0))).cloned().collect(),
                })
                .collect(),
            modules,
            steps: Vec::new(),
            items: Vec::new(),
        }
    }

    /// The catalog with the rules' step ids (by [`StepId`]) and item ids (by
    /// [`ItemId`]): what a turn order's typed ids are named by in its output.
    #[must_use]
    pub fn with_ids<'s>(
        mut self,
        steps: impl IntoIterator<Item = &'s str>,
        items: impl IntoIterator<Item = &'s str>,
    ) -> Catalog {
        self.steps = steps.into_iter().map(str::to_string).collect();
        self.items = items.into_iter().map(str::to_string).collect();
        self
    }

    /// A step's id in the rules (`1B`); empty for a step these rules lack.
    pub fn step_name(&self, step: StepId) -> &str {
        self.steps.get(usize::from(step.0)).map_or("", String::as_str)
    }

    /// An item's id in the rules (`draw-tile`); empty for an item these rules lack.
    pub fn item_name(&self, item: ItemId) -> &str {
        self.items.get(usize::from(item.0)).map_or("", String::as_str)
    }

    /// An origin by name: the module's id, or [`Origin::BASE`].
    pub fn origin_name(&self, origin: Origin) -> &str {
        match origin {
            Origin::Base => Origin::BASE,
            Origin::Module(m) => self.modules.get(usize::from(m.0)).map_or("", |m| m.id.as_str()),
        }
    }

    /// The edition with this id.
    pub fn edition(&self, id: &str) -> Option<EditionId> {
        self.editions.iter().position(|e| e.id == id).map(|i| EditionId(i as u8))
    }

    /// The module with this id.
    pub fn module(&self, id: &str) -> Option<&ModuleInfo> {
        self.modules.iter().find(|m| m.id == id)
    }

    /// The expansion with this id.
    pub fn expansion(&self, id: &str) -> Option<&ExpansionInfo> {
        self.expansions.iter().find(|x| x.id == id)
    }

    /// The ids of the modules in `set`, sorted.
    pub fn module_ids(&self, set: ModuleSet) -> Vec<String> {
        // Modules are numbered in id order, so bit order is sorted order.
        set.iter().filter_map(|m| self.modules.get(usize::from(m.0))).map(|m| m.id.clone()).collect()
    }

    /// The selection an edition, an optional rule variant (else the edition's
    /// default) and a comma-separated list of module and expansion ids make.
    /// Every unknown id is reported, with a suggestion.
    pub fn config(&self, edition: &str, variant: Option<&str>, with: &str) -> Result<Config, Vec<SelectionError>> {
        let mut errors = Vec::new();
        let edition_ids = || self.editions.iter().map(|e| e.id.as_str());
        let edition = self.edition(edition).or_else(|| {
            errors.push(unknown(
                SelectionPart::Edition,
                edition,
                0..edition.len(),
                Unknown::Edition,
                listed(edition, "edition", edition_ids()),
            ));
            None
        });
        let variant = match variant {
            Some(v) => match self.variants.iter().position(|x| x.id == v) {
                Some(i) => Some(VariantId(i as u8)),
                None => {
                    let ids = self.variants.iter().map(|x| x.id.as_str());
                    errors.push(unknown(
                        SelectionPart::Variant,
                        v,
                        0..v.len(),
                        Unknown::Variant,
                        listed(v, "rule variant", ids),
                    ));
                    None
                }
            },
            None => edition.map(|e| self.editions[usize::from(e.0)].default_variant),
        };
        let mut modules = ModuleSet::EMPTY;
        let mut start = 0;
        for part in with.split(',') {
            let id = part.trim();
            let at = start + (part.len() - part.trim_start().len());
            start += part.len() + 1;
            if id.is_empty() {
                continue;
            }
            if let Some(x) = self.expansion(id) {
                x.modules.iter().for_each(|m| modules.insert(m.bit));
            } else if let Some(m) = self.module(id) {
                modules.insert(m.bit);
            } else {
                let ids =
                    self.expansions.iter().map(|x| x.id.as_str()).chain(self.modules.iter().map(|m| m.id.as_str()));
                // Too many to list: the caller says where to find them.
                let help = suggestion(id, ids);
                errors.push(unknown(SelectionPart::Modules, with, at..at + id.len(), Unknown::Module, help));
            }
        }
        match (edition, variant) {
            (Some(edition), Some(variant)) if errors.is_empty() => Ok(Config { edition, variant, modules }),
            _ => Err(errors),
        }
    }
}

/// A suggestion for `id`, else the few valid ids.
fn listed<'a>(id: &str, what: &str, known: impl Iterator<Item = &'a str> + Clone) -> Option<String> {
    Some(suggestion(id, known.clone()).unwrap_or_else(|| format!("{what}s: {}", known.collect::<Vec<_>>().join(", "))))
}

/// What an unknown id was meant to name.
#[derive(Clone, Copy)]
enum Unknown {
    Edition,
    Variant,
    Module,
}

impl Unknown {
    fn message(self) -> &'static str {
        match self {
            Unknown::Edition => "unknown edition",
            Unknown::Variant => "unknown rule variant",
            Unknown::Module => "unknown module or expansion",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Unknown::Edition => "not an edition id",
            Unknown::Variant => "not a rule variant id",
            Unknown::Module => "not a module or expansion id",
        }
    }
}

fn unknown(part: SelectionPart, value: &str, at: Range<usize>, what: Unknown, help: Option<String>) -> SelectionError {
    let id = &value[at.clone()];
    SelectionError {
        part,
        message: format!("{} `{}`", what.message(), crate::escape::terminal::quoted(id)),
        label: what.label(),
        at,
        help,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::new(
            &[("C1", "1st", VariantId(0)), ("C2", "new", VariantId(1))],
            &[("hig", "HiG"), ("rgg", "RGG")],
            &[("abbey", "Abbey", true), ("mayor", "Mayor", true)],
            &[("abbey_and_mayor", "Abbey & Mayor", &["C1"], &[ModuleId(0), ModuleId(1)])],
        )
    }

    #[test]
    fn expansions_select_their_modules_and_editions_their_default_variant() {
        let config = catalog().config("C2", None, " abbey_and_mayor ,").expect("valid");
        assert_eq!(config.modules.iter().map(|m| m.0).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(config.variant, VariantId(1));
        assert_eq!(catalog().config("C2", Some("hig"), "").expect("valid").variant, VariantId(0));
    }

    #[test]
    fn every_unknown_id_is_reported_where_it_stands() {
        let (edition, variant, with) = ("c1", "hg", "abey,mayor, zz");
        let errors = catalog().config(edition, Some(variant), with).expect_err("unknown ids");
        use SelectionPart::{Edition, Modules, Variant};
        let value = |part| match part {
            Edition => edition,
            Variant => variant,
            Modules => with,
        };
        let found: Vec<(SelectionPart, &str, Range<usize>)> =
            errors.iter().map(|e| (e.part, e.id(value(e.part)), e.at.clone())).collect();
        assert_eq!(
            found,
            [(Edition, "c1", 0..2), (Variant, "hg", 0..2), (Modules, "abey", 0..4), (Modules, "zz", 12..14)]
        );
        let said: Vec<(&str, &str)> = errors.iter().map(|e| (e.message.as_str(), e.label)).collect();
        assert_eq!(
            said,
            [
                ("unknown edition `c1`", "not an edition id"),
                ("unknown rule variant `hg`", "not a rule variant id"),
                ("unknown module or expansion `abey`", "not a module or expansion id"),
                ("unknown module or expansion `zz`", "not a module or expansion id"),
            ]
        );
        assert_eq!(errors[0].help.as_deref(), Some("did you mean `C1`?"));
        assert_eq!(errors[1].help.as_deref(), Some("did you mean `hig`?"));
        assert_eq!(errors[2].help.as_deref(), Some("did you mean `abbey`?"));
        assert_eq!(errors[3].help, None);
    }

    #[test]
    fn an_id_outside_the_value_is_empty_not_a_panic() {
        let errors = catalog().config("C1", None, "nope").expect_err("unknown id");
        assert_eq!(errors[0].id("nope"), "nope");
        assert_eq!(errors[0].id("no"), "", "a value other than the one the error was made for");
    }
}
