//! Reading the rules folder: YAML files into raw, spanned records.
//!
//! Nothing here knows what a name means; `check` does that.

use std::path::Path;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_saphyr::{DefaultMessageFormatter, MessageFormatter};

use crate::diagnostics::{Diagnostic, FileId, Sources, Span};

/// A YAML value with the place it came from.
#[derive(Debug, Clone)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
    /// Offset of the value's first character when the scalar's text stands
    /// verbatim in the file (plain scalars, and quoted ones without escapes).
    pub verbatim_start: Option<usize>,
}

impl Spanned<String> {
    /// The span of `value[start..end]`, exact where the scalar is verbatim in
    /// the file, the whole scalar otherwise.
    pub fn sub_span(&self, start: usize, end: usize) -> Span {
        match self.verbatim_start {
            Some(base) => Span { file: self.span.file, start: base + start, len: end.saturating_sub(start).max(1) },
            None => self.span,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.value
    }
}

/// A YAML string with its place, as serde-saphyr reads it.
pub type S = serde_saphyr::Spanned<String>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EditionsYaml {
    editions: Vec<EditionYaml>,
    #[serde(default)]
    variants: Vec<VariantYaml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EditionYaml {
    id: S,
    name: S,
    variant: Option<S>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantYaml {
    id: S,
    name: S,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModulesYaml {
    expansions: Vec<ExpansionYaml>,
    #[serde(default)]
    derived: IndexMap<S, S>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpansionYaml {
    id: S,
    name: S,
    editions: Vec<S>,
    modules: Vec<ModuleYaml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModuleYaml {
    id: S,
    name: S,
    /// `false` for a module the wiki's Order of Play page has no selector for.
    #[serde(default = "yes")]
    wiki: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaseYaml {
    phases: Vec<PhaseYaml>,
    #[serde(default)]
    items: IndexMap<S, Vec<ItemYaml>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PhaseYaml {
    id: S,
    title: S,
    steps: Vec<StepYaml>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StepYaml {
    id: S,
    title: S,
    when: Option<S>,
    repeat: Option<S>,
    #[serde(default)]
    choose_one: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpansionFileYaml {
    expansion: S,
    #[serde(default)]
    items: IndexMap<S, Vec<ItemYaml>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemYaml {
    id: S,
    text: S,
    when: Option<S>,
    #[serde(default)]
    markers: Vec<S>,
    #[serde(default)]
    foreign: Vec<S>,
    after: Option<S>,
    before: Option<S>,
    under: Option<S>,
    effect: Option<S>,
    #[serde(default)]
    children: Vec<ItemYaml>,
}

// ---- the raw records handed to `check` --------------------------------------

#[derive(Debug)]
pub struct RawEdition {
    pub id: Spanned<String>,
    pub name: Spanned<String>,
    /// The default rule variant.
    pub variant: Option<Spanned<String>>,
}

#[derive(Debug)]
pub struct RawVariant {
    pub id: Spanned<String>,
    pub name: Spanned<String>,
}

#[derive(Debug)]
pub struct RawExpansion {
    pub id: Spanned<String>,
    pub name: Spanned<String>,
    pub editions: Vec<Spanned<String>>,
    pub modules: Vec<RawModule>,
}

#[derive(Debug)]
pub struct RawModule {
    pub id: Spanned<String>,
    pub name: Spanned<String>,
    /// Whether the wiki's Order of Play page has a selector for the module.
    pub on_wiki_page: bool,
}

#[derive(Debug)]
pub struct RawPhase {
    pub id: Spanned<String>,
    pub title: Spanned<String>,
    pub steps: Vec<RawStep>,
}

#[derive(Debug)]
pub struct RawStep {
    pub id: Spanned<String>,
    pub title: Spanned<String>,
    pub when: Option<Spanned<String>>,
    pub repeat: Option<Spanned<String>>,
    /// The player does exactly one of the step's items.
    pub choose_one: bool,
}

#[derive(Debug)]
pub struct RawItem {
    pub id: Spanned<String>,
    pub text: Spanned<String>,
    pub when: Option<Spanned<String>>,
    pub markers: Vec<Spanned<String>>,
    pub foreign: Vec<Spanned<String>>,
    pub after: Option<Spanned<String>>,
    pub before: Option<Spanned<String>>,
    pub under: Option<Spanned<String>>,
    pub effect: Option<Spanned<String>>,
    pub children: Vec<RawItem>,
}

/// The items of one file, by section key (`1B`, `setup`, …).
pub type RawSections = Vec<(Spanned<String>, Vec<RawItem>)>;

#[derive(Debug)]
pub struct RawExpansionFile {
    pub file: FileId,
    pub expansion: Spanned<String>,
    pub sections: RawSections,
}

/// Everything read from a rules folder. Files that failed to parse are absent
/// (their diagnostics are in `problems`).
#[derive(Debug, Default)]
pub struct RawRules {
    pub editions: Vec<RawEdition>,
    pub variants: Vec<RawVariant>,
    pub expansions: Vec<RawExpansion>,
    pub derived: Vec<(Spanned<String>, Spanned<String>)>,
    pub phases: Vec<RawPhase>,
    pub base_file: Option<FileId>,
    pub base_sections: RawSections,
    pub expansion_files: Vec<RawExpansionFile>,
    /// The files read, relative to the rules folder (`/`-separated), in reading order.
    pub inputs: Vec<String>,
}

pub const EDITIONS_FILE: &str = "editions.yaml";
pub const MODULES_FILE: &str = "modules.yaml";
pub const BASE_FILE: &str = "base.yaml";
pub const EXPANSIONS_DIR: &str = "expansions";

/// Reads every rules file under `dir`. Files are visited in name order so the
/// outcome never depends on the file system's listing order.
pub fn load_dir(dir: &Path, sources: &mut Sources, problems: &mut Vec<Diagnostic>) -> RawRules {
    let mut raw = RawRules::default();
    if !dir.is_dir() {
        problems.push(
            Diagnostic::global(format!("rules folder `{}` not found", dir.display()))
                .with_help("run from the repository root, or pass --rules DIR"),
        );
        return raw;
    }
    let mut loader = Loader { dir, sources, problems, inputs: Vec::new() };

    if let Some((file, yaml)) = loader.read::<EditionsYaml>(Path::new(EDITIONS_FILE)) {
        raw.editions = yaml
            .editions
            .into_iter()
            .map(|e| RawEdition {
                id: loader.spanned(file, e.id),
                name: loader.spanned(file, e.name),
                variant: e.variant.map(|v| loader.spanned(file, v)),
            })
            .collect();
        raw.variants = yaml
            .variants
            .into_iter()
            .map(|v| RawVariant { id: loader.spanned(file, v.id), name: loader.spanned(file, v.name) })
            .collect();
    }
    if let Some((file, yaml)) = loader.read::<ModulesYaml>(Path::new(MODULES_FILE)) {
        raw.expansions = yaml
            .expansions
            .into_iter()
            .map(|x| RawExpansion {
                id: loader.spanned(file, x.id),
                name: loader.spanned(file, x.name),
                editions: x.editions.into_iter().map(|e| loader.spanned(file, e)).collect(),
                modules: x
                    .modules
                    .into_iter()
                    .map(|m| RawModule {
                        id: loader.spanned(file, m.id),
                        name: loader.spanned(file, m.name),
                        on_wiki_page: m.wiki,
                    })
                    .collect(),
            })
            .collect();
        raw.derived =
            yaml.derived.into_iter().map(|(k, v)| (loader.spanned(file, k), loader.spanned(file, v))).collect();
    }
    if let Some((file, yaml)) = loader.read::<BaseYaml>(Path::new(BASE_FILE)) {
        raw.base_file = Some(file);
        raw.phases = yaml
            .phases
            .into_iter()
            .map(|p| RawPhase {
                id: loader.spanned(file, p.id),
                title: loader.spanned(file, p.title),
                steps: p
                    .steps
                    .into_iter()
                    .map(|s| RawStep {
                        id: loader.spanned(file, s.id),
                        title: loader.spanned(file, s.title),
                        when: s.when.map(|w| loader.spanned(file, w)),
                        repeat: s.repeat.map(|r| loader.spanned(file, r)),
                        choose_one: s.choose_one,
                    })
                    .collect(),
            })
            .collect();
        raw.base_sections = loader.sections(file, yaml.items);
    }

    let expansions_dir = dir.join(EXPANSIONS_DIR);
    let mut names: Vec<_> = match std::fs::read_dir(&expansions_dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml"))
            .collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    for name in names {
        let rel = Path::new(EXPANSIONS_DIR).join(&name);
        if let Some((file, yaml)) = loader.read::<ExpansionFileYaml>(&rel) {
            raw.expansion_files.push(RawExpansionFile {
                file,
                expansion: loader.spanned(file, yaml.expansion),
                sections: loader.sections(file, yaml.items),
            });
        }
    }
    raw.inputs = loader.inputs;
    raw
}

/// Reads and deserializes one YAML file, keeping its text in `sources`; a file
/// that cannot be read or does not fit `T` is a diagnostic at the mistake,
/// which names the file `name`.
pub fn read_yaml<T: for<'de> Deserialize<'de>>(
    path: &Path,
    name: &str,
    sources: &mut Sources,
) -> Result<(FileId, T), Diagnostic> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| Diagnostic::global(format!("cannot read `{}`: {err}", path.display())))?;
    let file = sources.add(path.display().to_string(), text);
    serde_saphyr::from_str::<T>(sources.text(file)).map(|value| (file, value)).map_err(|err| {
        let message = DefaultMessageFormatter.format_message(err.without_snippet()).into_owned();
        match err.location().map(|l| l.span()) {
            Some(span) if span.byte_offset().is_some() => {
                let start = span.byte_offset().unwrap_or(0) as usize;
                let len = span.byte_len().unwrap_or(0) as usize;
                Diagnostic::at(sources, Span { file, start, len: len.max(1) }, format!("invalid YAML in {name}"), message)
            }
            _ => Diagnostic::global(format!("invalid YAML in `{}`: {message}", path.display())),
        }
    })
}

/// A YAML string with its span in `file`, and where its text stands verbatim.
pub fn spanned(sources: &Sources, file: FileId, s: S) -> Spanned<String> {
    let span = s.referenced.span();
    let start = span.byte_offset().unwrap_or(0) as usize;
    let len = span.byte_len().unwrap_or(0) as usize;
    let text = sources.text(file);
    // A plain scalar starts right at its span; a quoted one one character later.
    let verbatim_start = [start, start + 1]
        .into_iter()
        .find(|&at| text.get(at..).is_some_and(|rest| rest.starts_with(s.value.as_str())));
    Spanned { value: s.value, span: Span { file, start, len: len.max(1) }, verbatim_start }
}

struct Loader<'a> {
    dir: &'a Path,
    sources: &'a mut Sources,
    problems: &'a mut Vec<Diagnostic>,
    inputs: Vec<String>,
}

impl Loader<'_> {
    /// Reads and deserializes one file; reports and returns `None` on failure.
    fn read<T: for<'de> Deserialize<'de>>(&mut self, rel: &Path) -> Option<(FileId, T)> {
        let name = rel.iter().map(|part| part.to_string_lossy()).collect::<Vec<_>>().join("/");
        let read = read_yaml(&self.dir.join(rel), &name, self.sources).map_err(|d| self.problems.push(d)).ok();
        self.inputs.push(name);
        read
    }

    fn spanned(&self, file: FileId, s: S) -> Spanned<String> {
        spanned(self.sources, file, s)
    }

    fn sections(&self, file: FileId, items: IndexMap<S, Vec<ItemYaml>>) -> RawSections {
        items
            .into_iter()
            .map(|(key, list)| (self.spanned(file, key), list.into_iter().map(|i| self.item(file, i)).collect()))
            .collect()
    }

    fn item(&self, file: FileId, item: ItemYaml) -> RawItem {
        let opt = |v: Option<S>| v.map(|v| self.spanned(file, v));
        let list = |v: Vec<S>| v.into_iter().map(|v| self.spanned(file, v)).collect();
        RawItem {
            id: self.spanned(file, item.id),
            text: self.spanned(file, item.text),
            when: opt(item.when),
            markers: list(item.markers),
            foreign: list(item.foreign),
            after: opt(item.after),
            before: opt(item.before),
            under: opt(item.under),
            effect: opt(item.effect),
            children: item.children.into_iter().map(|c| self.item(file, c)).collect(),
        }
    }
}
