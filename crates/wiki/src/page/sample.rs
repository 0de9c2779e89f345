//! The selections the page is compared over: the base game and every module
//! alone in every edition, then random ones from a seed.

use super::*;

/// One selection to compare: a label (`C2 [abbey,builder]`) and the config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The edition and the module ids, as `C2 [abbey,builder]`.
    pub label: String,
    /// The edition (with its default rule variant) and modules.
    pub config: Config,
}

/// Selections to compare: the base game and every module alone, in every
/// edition, then `random` selections drawn from `seed` (each module chosen
/// with probability 1/10, the edition uniformly), all in each edition's default
/// rule variant. Modules the page has no selector for (`wiki: false`) are never
/// selected.
pub fn selections(catalog: &Catalog, random: usize, seed: u64) -> Vec<Selection> {
    // In the registry's order, so a seed draws the same selections as long as
    // the registry does not change.
    let mut modules: Vec<(ModuleId, &str)> = Vec::new();
    for m in catalog.expansions.iter().flat_map(|x| &x.modules).filter(|m| m.on_wiki_page) {
        if !modules.iter().any(|(bit, _)| *bit == m.bit) {
            modules.push((m.bit, m.id.as_str()));
        }
    }
    let selection = |edition: usize, with: &[(ModuleId, &str)]| {
        let info = &catalog.editions[edition];
        let ids: Vec<&str> = with.iter().map(|(_, id)| *id).collect();
        Selection {
            label: format!("{} [{}]", info.id, ids.join(",")),
            config: Config {
                edition: EditionId(edition as u8),
                variant: info.default_variant,
                modules: with.iter().map(|(bit, _)| *bit).collect(),
            },
        }
    };
    let mut out = Vec::new();
    for edition in 0..catalog.editions.len() {
        out.push(selection(edition, &[]));
        out.extend(modules.iter().map(|m| selection(edition, std::slice::from_ref(m))));
    }
    if catalog.editions.is_empty() {
        return out;
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    for _ in 0..random {
        let edition = rng.usize(..catalog.editions.len());
        let with: Vec<(ModuleId, &str)> = modules.iter().copied().filter(|_| rng.u8(..10) == 0).collect();
        out.push(selection(edition, &with));
    }
    out
}
