//! Editions, rule variants, the module registry and derived flags.

use super::*;

impl Checker<'_> {
    pub(super) fn editions(&mut self, raw: &RawRules) -> Vec<model::Edition> {
        let mut out = Vec::new();
        for e in &raw.editions {
            if let Some(first) = first_definition(&mut self.editions, &e.id) {
                self.duplicate("edition", &e.id, first);
                continue;
            }
            let default_variant = e.variant.as_ref().and_then(|v| self.variant(&v.value, v.span)).unwrap_or(0);
            out.push(model::Edition { id: e.id.value.clone(), name: e.name.value.clone(), default_variant });
        }
        out
    }

    pub(super) fn variants(&mut self, raw: &RawRules) -> Vec<model::Variant> {
        let mut out = Vec::new();
        for v in &raw.variants {
            if let Some(first) = first_definition(&mut self.variants, &v.id) {
                self.duplicate("variant", &v.id, first);
                continue;
            }
            out.push(model::Variant { id: v.id.value.clone(), name: v.name.value.clone() });
        }
        out
    }

    pub(super) fn variant(&mut self, name: &str, span: Span) -> Option<usize> {
        let found = index_or_help(&self.variants, name);
        self.found(found, name, span, "rule variant")
    }

    pub(super) fn edition(&mut self, name: &str, span: Span) -> Option<EditionIx> {
        let found = index_or_help(&self.editions, name);
        self.found(found, name, span, "edition")
    }

    /// Reports a name that `index_or_help` did not find.
    fn found(&mut self, found: Result<usize, Option<String>>, name: &str, span: Span, what: &str) -> Option<usize> {
        found.map_err(|help| self.report(span, format!("unknown {what} `{name}`"), "not in editions.yaml", help)).ok()
    }

    pub(super) fn registry(&mut self, raw: &RawRules) -> (Vec<model::Expansion>, Vec<model::Module>) {
        let mut expansions = Vec::new();
        let mut modules = Vec::new();
        for x in &raw.expansions {
            self.check_case(&x.id, "expansion", '_');
            self.claim_name(&x.id, Named::Expansion(expansions.len()));
            let editions = x.editions.iter().filter_map(|e| self.edition(&e.value, e.span)).collect();
            let mut members = Vec::new();
            for (id, name) in &x.modules {
                self.check_case(id, "module", '_');
                if self.claim_name(id, Named::Module(modules.len())) {
                    members.push(modules.len());
                    modules.push(model::Module { id: id.value.clone(), name: name.value.clone() });
                }
            }
            expansions.push(model::Expansion {
                id: x.id.value.clone(),
                name: x.name.value.clone(),
                editions,
                modules: members,
            });
        }
        if modules.len() > MAX_MODULES {
            let message = format!("{} modules, but a module set holds at most {MAX_MODULES}", modules.len());
            match raw.expansions.last() {
                Some(x) => self.report(x.id.span, message, "one expansion too many", None),
                None => self.problems.push(Diagnostic::global(message)),
            }
        }
        (expansions, modules)
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
            self.check_case(name, "derived flag", '_');
            if self.claim_name(name, Named::Derived) {
                self.derived_source.insert(name.value.clone(), definition.clone());
            }
        }
        let names: Vec<String> = self.derived_source.keys().cloned().collect();
        for name in names {
            self.derived_flag(&name);
        }
    }

    /// The condition a derived flag stands for; `None` after an error.
    pub(super) fn derived_flag(&mut self, name: &str) -> Option<Cond> {
        if let Some(done) = self.derived.get(name) {
            return done.clone();
        }
        let source = self.derived_source.get(name)?.clone();
        if self.resolving.iter().any(|n| n == name) {
            let path = format!("{} → {name}", self.resolving.join(" → "));
            self.report(source.span, format!("derived flag `{name}` is defined in terms of itself"), path, None);
            self.derived.insert(name.to_string(), None);
            return None;
        }
        self.resolving.push(name.to_string());
        let resolved = self.condition(&source);
        self.resolving.pop();
        self.derived.entry(name.to_string()).or_insert(resolved).clone()
    }

    /// The derived flags that resolved, in definition order.
    pub(super) fn derived_by_name(&self) -> Vec<(String, Cond)> {
        self.derived_source.keys().filter_map(|name| Some((name.clone(), self.derived.get(name)?.clone()?))).collect()
    }
}
