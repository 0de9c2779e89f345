//! The page against the rules, one selection at a time: each section's
//! visible top-level items, how many and from which modules, with the errata
//! that explain a difference; and the tally over many selections.

use super::*;

/// One section's comparison for one selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionComparison {
    /// `notes`, `any_time` or a step id.
    pub section: String,
    /// The page's visible top-level items (`None`: the page does not show the
    /// section).
    pub page: Option<Vec<PageItem>>,
    /// The rules' top-level items, without those of modules the page has no
    /// selector for (`None`: the step does not exist for the selection).
    pub rules: Option<Vec<RuleItem>>,
    /// Whether they agree.
    pub verdict: Verdict,
}

/// The outcome of comparing one section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The same number of items, from the same modules, in the same order.
    Agrees,
    /// Differs, as these errata say it should (by id).
    Explained(Vec<String>),
    /// Differs, and no erratum says why.
    Differs,
}

impl SectionComparison {
    /// Whether the page and the rules agree without any erratum.
    pub fn agrees(&self) -> bool {
        self.verdict == Verdict::Agrees
    }
}

/// The ids of the modules the wiki page has no selector for.
pub(super) fn off_page(rules: &Rules) -> Vec<&str> {
    rules.catalog.modules.iter().filter(|m| !m.on_wiki_page).map(|m| m.id.as_str()).collect()
}

/// Compares the page and a turn order of `cfg` section by section, taking the
/// errata's deliberate differences into account. Rule items whose origin is a
/// module the page has no selector for (`wiki: false`) are left out: the page
/// cannot show them.
pub fn compare(page: &Page, rules: &Rules, errata: &Errata, cfg: &Config, order: &TurnOrder) -> Vec<SectionComparison> {
    let off_page = off_page(rules);
    let top = |items: &[Entry]| {
        items
            .iter()
            .filter(|i| !off_page.contains(&i.origin_id()))
            .map(|i| RuleItem { origin: i.origin_id().to_string(), id: i.id().to_string() })
            .collect::<Vec<_>>()
    };
    let mut ours: Vec<(String, Vec<RuleItem>)> =
        SECTIONS.into_iter().map(|section| (section.name().to_string(), top(order.section(section)))).collect();
    ours.extend(order.steps().map(|s| (s.id.to_string(), top(&s.items))));
    let theirs = page.sections(rules, cfg);
    let errata: Vec<&Difference> = errata.applying(rules, cfg).collect();

    let mut sections: Vec<String> = ours.iter().map(|(s, _)| s.clone()).collect();
    for (s, _) in &theirs {
        if !sections.contains(s) {
            sections.push(s.clone());
        }
    }
    sections
        .into_iter()
        .map(|section| {
            let page_items = theirs.iter().find(|(s, _)| *s == section).map(|(_, items)| items.clone());
            let rule_items = ours.iter().find(|(s, _)| *s == section).map(|(_, items)| items.clone());
            let mut used: Vec<String> = Vec::new();
            let page_origins = kept(
                page_items.iter().flatten().map(|i| (i.origin.as_str(), &i.line)),
                |line| errata.iter().copied().find(|d| d.page_lines.contains(line)),
                &mut used,
            );
            let rule_origins = kept(
                rule_items.iter().flatten().map(|i| (i.origin.as_str(), &i.id)),
                |id| errata.iter().copied().find(|d| d.items.contains(id)),
                &mut used,
            );
            // A section missing on one side compares as an empty one (the page
            // has no header for a step with nothing in it).
            let verdict = if page_origins == rule_origins {
                if used.is_empty() { Verdict::Agrees } else { Verdict::Explained(used) }
            } else if let Some(d) = errata.iter().find(|d| d.steps.contains(&section)) {
                used.push(d.id.clone());
                Verdict::Explained(used)
            } else {
                Verdict::Differs
            };
            SectionComparison { section, page: page_items, rules: rule_items, verdict }
        })
        .collect()
}

/// The origins of `items` that no erratum takes out of the comparison; the
/// errata that take some out are added to `used`.
pub(super) fn kept<'a, K: 'a>(
    items: impl Iterator<Item = (&'a str, &'a K)>,
    erratum: impl Fn(&K) -> Option<&'a Difference>,
    used: &mut Vec<String>,
) -> Vec<&'a str> {
    let mut origins = Vec::new();
    for (origin, key) in items {
        match erratum(key) {
            Some(d) if !used.contains(&d.id) => used.push(d.id.clone()),
            Some(_) => {}
            None => origins.push(origin),
        }
    }
    origins
}

/// Page lines the errata name (`page_lines`) that hold no top-level item of
/// the page, as `(erratum id, line)`: an erratum left behind by an edit of the
/// page.
pub fn stale_page_lines(page: &Page, errata: &Errata) -> Vec<(String, usize)> {
    let lines: Vec<usize> = page.item_lines().collect();
    errata
        .differences
        .iter()
        .flat_map(|d| d.page_lines.iter().filter(|l| !lines.contains(l)).map(|&l| (d.id.clone(), l)))
        .collect()
}

/// Compares the page and the rules' interpreted turn order for `cfg`.
pub fn compare_selection(page: &Page, rules: &Rules, errata: &Errata, cfg: &Config) -> Vec<SectionComparison> {
    compare(page, rules, errata, cfg, &interpret::turn_order(rules, cfg))
}

/// Agreement over many selections.
#[derive(Debug, Default)]
pub struct Tally {
    /// Sections compared.
    pub compared: usize,
    /// Sections that agree without any erratum.
    pub agreeing: usize,
    /// Differences the errata explain: how many sections each erratum explains.
    pub explained: BTreeMap<String, usize>,
    /// Differences nothing explains: the selection's label and the comparison.
    pub unexplained: Vec<(String, SectionComparison)>,
}

impl Tally {
    /// Counts one selection's comparisons.
    pub fn add(&mut self, selection: &str, comparisons: &[SectionComparison]) {
        for c in comparisons {
            self.compared += 1;
            match &c.verdict {
                Verdict::Agrees => self.agreeing += 1,
                Verdict::Explained(ids) => {
                    for id in ids {
                        *self.explained.entry(id.clone()).or_default() += 1;
                    }
                }
                Verdict::Differs => self.unexplained.push((selection.to_string(), c.clone())),
            }
        }
    }

    /// Sections that differ as the errata say they should.
    pub fn explained_sections(&self) -> usize {
        self.compared - self.agreeing - self.unexplained.len()
    }

    /// `steps compared: …, agreeing: …, explained by errata: …, unexplained: …`,
    /// then one line per erratum used.
    pub fn summary(&self) -> String {
        let explained = self.explained_sections();
        let share = |n: usize| 100.0 * n as f64 / self.compared.max(1) as f64;
        let mut out = format!(
            "steps compared: {}, agreeing: {} ({:.2}%), explained by errata: {explained} ({:.2}%), unexplained: {} ({:.2}%)",
            self.compared,
            self.agreeing,
            share(self.agreeing),
            share(explained),
            self.unexplained.len(),
            share(self.unexplained.len()),
        );
        for (id, n) in &self.explained {
            out.push_str(&format!("\n  erratum {id}: {n} steps"));
        }
        out
    }
}

/// `1B: page [base@144, abbey@166], rules [abbey:abbey-play, base:draw-tile]`
pub fn describe(c: &SectionComparison) -> String {
    let list = |items: Option<Vec<String>>| match items {
        None => "(no such step)".to_string(),
        Some(items) => format!("[{}]", items.join(", ")),
    };
    let page = list(c.page.as_ref().map(|items| items.iter().map(|i| format!("{}@{}", i.origin, i.line)).collect()));
    let rules = list(c.rules.as_ref().map(|items| items.iter().map(|i| format!("{}:{}", i.origin, i.id)).collect()));
    let verdict = match &c.verdict {
        Verdict::Agrees => String::new(),
        Verdict::Explained(ids) => format!("  explained by {}", ids.join(", ")),
        Verdict::Differs => "  DIFFERS".to_string(),
    };
    format!("{}: page {page}, rules {rules}{verdict}", c.section)
}
