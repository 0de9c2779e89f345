//! Editions, rule variants, the module registry and derived flags.

use crate::codes::Code;
use carcassonne_rules_core::Catalog;
use carcassonne_rules_core::catalog::{EditionInfo, ExpansionParts, VariantInfo};

use super::*;

/// At most this many editions and rule variants: ids are bytes.
const MAX_EDITIONS: usize = u8::MAX as usize;

/// How long a chain of derived flags defined in terms of each other may be.
/// Binding a flag, and every walk over a condition, recurses once per flag
/// of the chain: a chain of 20,000 would overflow the stack. Real ones are 2.
pub const MAX_FLAG_DEPTH: usize = 32;

/// How many terms a derived flag may have with the flags it names expanded.
/// Conditions are evaluated with flags expanded, and a flag that names
/// another twice doubles it: forty such lines would make 2^40 terms. Real
/// flags have at most a dozen.
pub const MAX_FLAG_TERMS: usize = 10_000;

/// The size of a bound derived flag, with the flags it names expanded.
#[derive(Clone, Copy, Default)]
pub(super) struct FlagSize {
    /// The longest chain of flags it builds on, itself included.
    depth: usize,
    /// Its terms (names, tests, `not`, `and`, `or`), saturating.
    terms: usize,
}

/// The size of `cond`, a flag's bound definition, from the sizes of the
/// flags it names (flags not yet measured count as one term).
fn size_of(cond: &Cond, sizes: &[FlagSize]) -> FlagSize {
    match cond {
        Cond::Flag(f) => {
            let inner = sizes.get(*f).copied().unwrap_or_default();
            FlagSize { depth: inner.depth, terms: inner.terms.max(1) }
        }
        Cond::Not(c) => {
            let inner = size_of(c, sizes);
            FlagSize { depth: inner.depth, terms: inner.terms.saturating_add(1) }
        }
        Cond::All(cs) | Cond::Any(cs) => cs.iter().fold(FlagSize { depth: 0, terms: 1 }, |size, c| {
            let inner = size_of(c, sizes);
            FlagSize { depth: size.depth.max(inner.depth), terms: size.terms.saturating_add(inner.terms) }
        }),
        _ => FlagSize { depth: 0, terms: 1 },
    }
}

impl Checker<'_> {
    pub(super) fn editions(&mut self, raw: &RawRules) -> Vec<EditionInfo> {
        let mut out = Vec::new();
        self.check_case_collisions(IdKind::Edition, raw.editions.iter().map(|e| &e.id));
        for e in &raw.editions {
            self.check_id(&e.id, IdKind::Edition);
            self.check_text(&e.name, "an edition's name");
            if let Some(first) = first_definition(&mut self.editions, &e.id) {
                self.duplicate("edition", &e.id, first);
                continue;
            }
            let default_variant =
                e.variant.as_ref().and_then(|v| self.variant(&v.value, v.span)).unwrap_or(VariantId(0));
            out.push(EditionInfo { id: e.id.value.clone(), name: e.name.value.clone(), default_variant });
        }
        self.at_most(out.len(), MAX_EDITIONS, "editions", raw.editions.last().map(|e| e.id.span));
        out
    }

    pub(super) fn variants(&mut self, raw: &RawRules) -> Vec<VariantInfo> {
        let mut out = Vec::new();
        self.check_case_collisions(IdKind::Variant, raw.variants.iter().map(|v| &v.id));
        for v in &raw.variants {
            self.check_id(&v.id, IdKind::Variant);
            self.check_text(&v.name, "a rule variant's name");
            if let Some(first) = first_definition(&mut self.variants, &v.id) {
                self.duplicate("variant", &v.id, first);
                continue;
            }
            out.push(VariantInfo { id: v.id.value.clone(), name: v.name.value.clone() });
        }
        self.at_most(out.len(), MAX_EDITIONS, "rule variants", raw.variants.last().map(|v| v.id.span));
        out
    }

    /// Reports a table with more entries than its ids can number.
    fn at_most(&mut self, count: usize, max: usize, what: &str, last: Option<Span>) {
        if count > max {
            let message = format!("{count} {what}, but at most {max} are supported");
            match last {
                Some(span) => self.report(Code::TooMany, span, message, "one too many", None),
                None => self.problems.push(Diagnostic::global(Code::TooMany, message)),
            }
        }
    }

    pub(super) fn variant(&mut self, name: &str, span: Span) -> Option<VariantId> {
        let found = self.variants.get_index_of(name);
        if found.is_none() {
            self.unknown_in_editions(name, span, "rule variant", self.variants.keys().cloned().collect());
        }
        found.map(|i| VariantId(i as u8))
    }

    pub(super) fn edition(&mut self, name: &str, span: Span) -> Option<EditionId> {
        self.edition_beside(name, span, &[])
    }

    /// As [`Self::edition`], in a list that also names `beside`: an unknown
    /// name is not offered one of those, which would make it named twice.
    pub(super) fn edition_beside(&mut self, name: &str, span: Span, beside: &[&str]) -> Option<EditionId> {
        let found = self.editions.get_index_of(name);
        if found.is_none() {
            let free = self.editions.keys().filter(|e| !beside.contains(&e.as_str())).cloned().collect();
            self.unknown_in_editions(name, span, "edition", free);
        }
        found.map(|i| EditionId(i as u8))
    }

    /// Reports an edition or variant that editions.yaml does not declare
    /// (unless editions.yaml itself failed to load).
    fn unknown_in_editions(&mut self, name: &str, span: Span, what: &str, known: Vec<String>) {
        if !self.failed.editions {
            let message = format!("unknown {what} `{}`", quoted(name));
            self.report_unknown(
                Code::UnknownEdition,
                (span, message, "not in editions.yaml"),
                name,
                known.iter().map(String::as_str),
                None,
            );
        }
    }

    /// The expansions and their modules. Modules are numbered in the order of
    /// their ids, so that a module's bit does not depend on where it stands in
    /// `modules.yaml`, and adding one moves only the modules sorting after it.
    pub(super) fn registry(
        &mut self,
        raw: &RawRules,
        editions: Vec<EditionInfo>,
        variants: Vec<VariantInfo>,
    ) -> Catalog {
        let mut declared: Vec<(&Spanned<String>, &str, bool)> = Vec::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        // Modules, expansions and flags share one namespace.
        let names = raw.expansions.iter().flat_map(|x| std::iter::once(&x.id).chain(x.modules.iter().map(|m| &m.id)));
        self.check_case_collisions(IdKind::Module, names.chain(raw.derived.iter().map(|(name, _)| name)));
        for x in &raw.expansions {
            self.check_id(&x.id, IdKind::Expansion);
            self.check_text(&x.name, "an expansion's name");
            self.claim_name(&x.id, Named::Expansion(members.len()));
            let mut mine = Vec::new();
            for m in &x.modules {
                self.check_id(&m.id, IdKind::Module);
                self.check_text(&m.name, "a module's name");
                // Bits are assigned below, once every module is known.
                if self.claim_name(&m.id, Named::Module(ModuleId(0))) {
                    mine.push(declared.len());
                    declared.push((&m.id, &m.name.value, m.on_wiki_page));
                }
            }
            members.push(mine);
        }
        if let Some(&(first_extra, _, _)) = declared.get(ModuleSet::CAPACITY) {
            let message = format!("{} modules, but a module set holds at most {}", declared.len(), ModuleSet::CAPACITY);
            self.report(Code::TooMany, first_extra.span, message, "the first module beyond the limit", None);
            declared.truncate(ModuleSet::CAPACITY);
        }
        let mut by_id: Vec<usize> = (0..declared.len()).collect();
        by_id.sort_by(|&a, &b| declared[a].0.value.cmp(&declared[b].0.value));
        let mut bits = vec![ModuleId(0); declared.len()];
        for (bit, &d) in by_id.iter().enumerate() {
            bits[d] = ModuleId(bit as u8);
            self.names.insert(declared[d].0.value.clone(), (Named::Module(bits[d]), declared[d].0.span));
        }
        for x in &raw.expansions {
            self.unique_editions(&x.editions, "editions");
        }
        let expansion_editions: Vec<Vec<&str>> = raw
            .expansions
            .iter()
            .map(|x| {
                x.editions.iter().filter_map(|e| self.edition(&e.value, e.span).map(|_| e.value.as_str())).collect()
            })
            .collect();
        let expansion_modules: Vec<Vec<ModuleId>> =
            members.iter().map(|mine| mine.iter().filter_map(|&d| bits.get(d).copied()).collect()).collect();
        let expansions: Vec<ExpansionParts> = raw
            .expansions
            .iter()
            .enumerate()
            .map(|(i, x)| {
                (x.id.value.as_str(), x.name.value.as_str(), &expansion_editions[i][..], &expansion_modules[i][..])
            })
            .collect();
        let editions: Vec<(&str, &str, VariantId)> =
            editions.iter().map(|e| (e.id.as_str(), e.name.as_str(), e.default_variant)).collect();
        let variants: Vec<(&str, &str)> = variants.iter().map(|v| (v.id.as_str(), v.name.as_str())).collect();
        let modules: Vec<(&str, &str, bool)> =
            by_id.iter().map(|&d| (declared[d].0.value.as_str(), declared[d].1, declared[d].2)).collect();
        Catalog::new(&editions, &variants, &modules, &expansions)
    }

    /// Registers a module, expansion or derived-flag name. They share one
    /// namespace because conditions and `--with` accept them side by side.
    fn claim_name(&mut self, id: &Spanned<String>, named: Named) -> bool {
        if let Some(&(_, first)) = self.names.get(&id.value) {
            self.duplicate("name", id, first);
            return false;
        }
        self.names.insert(id.value.clone(), (named, id.span));
        true
    }

    pub(super) fn derived_flags(&mut self, raw: &RawRules) {
        for (name, definition) in &raw.derived {
            self.check_id(name, IdKind::Flag);
            if self.claim_name(name, Named::Derived(self.derived_source.len())) {
                self.derived_source.insert(name.value.clone(), definition.clone());
                self.derived_names.push(name.span);
            }
        }
        self.flags = vec![None; self.derived_source.len()];
        self.flag_sizes = vec![FlagSize::default(); self.derived_source.len()];
        for flag in 0..self.derived_source.len() {
            self.derived_flag(flag);
        }
    }

    /// A reference to derived flag `flag`, binding its definition on first
    /// use; `None` if the definition has an error or loops.
    pub(super) fn derived_flag(&mut self, flag: FlagIx) -> Option<Cond> {
        match self.flags.get(flag)? {
            Some(Some(_)) => return Some(Cond::Flag(flag)),
            Some(None) => return None,
            None => {}
        }
        let (name, source) = self.derived_source.get_index(flag).map(|(n, s)| (n.clone(), s.clone()))?;
        if self.binding.contains(&flag) {
            let mut path: Vec<&str> = self
                .binding
                .iter()
                .filter_map(|&f| self.derived_source.get_index(f).map(|(n, _)| n.as_str()))
                .collect();
            path.push(&name);
            let path = path.join(" → ");
            self.report(
                Code::FlagCycle,
                source.span,
                format!("derived flag `{name}` is defined in terms of itself"),
                path,
                None,
            );
            if let Some(slot) = self.flags.get_mut(flag) {
                *slot = Some(None);
            }
            return None;
        }
        if self.binding.len() >= MAX_FLAG_DEPTH {
            // Binding recurses into the flags a definition names: stop
            // before the stack runs out, and report the chain once.
            if !self.deep_flags_reported {
                self.deep_flags_reported = true;
                self.report_deep_flag(&name, &source);
            }
            if let Some(slot) = self.flags.get_mut(flag) {
                *slot = Some(None);
            }
            return None;
        }
        self.binding.push(flag);
        let bound = self.condition(&source);
        self.binding.pop();
        let bound = bound.and_then(|cond| {
            let mut size = size_of(&cond, &self.flag_sizes);
            size.depth += 1;
            if size.depth > MAX_FLAG_DEPTH {
                if !self.deep_flags_reported {
                    self.deep_flags_reported = true;
                    self.report_deep_flag(&name, &source);
                }
                return None;
            }
            if size.terms > MAX_FLAG_TERMS {
                self.report(
                    Code::TooComplex,
                    source.span,
                    format!("derived flag `{name}` expands to more than {MAX_FLAG_TERMS} terms"),
                    "conditions are evaluated with the flags they name expanded",
                    Some("a flag that names another twice doubles it: name each flag once".to_string()),
                );
                return None;
            }
            if let Some(slot) = self.flag_sizes.get_mut(flag) {
                *slot = size;
            }
            Some(cond)
        });
        if let Some(slot) = self.flags.get_mut(flag) {
            slot.get_or_insert(bound.clone());
        }
        bound.map(|_| Cond::Flag(flag))
    }

    fn report_deep_flag(&mut self, name: &str, source: &Spanned<String>) {
        self.report(
            Code::TooComplex,
            source.span,
            format!("derived flag `{name}` builds on a chain of more than {MAX_FLAG_DEPTH} derived flags"),
            format!("the chain of flags naming flags passes {MAX_FLAG_DEPTH} here"),
            Some("define it from modules, or from flags that build less on one another".to_string()),
        );
    }
}
