//! The order of play as a static web page (`carcassonne-rules site --out DIR`).
//!
//! `index.html` holds every section, step and item of the rules once, in the
//! model's final order and nesting, each tagged with the number of its
//! condition (`data-c`); `rules.js` holds the catalog and those conditions
//! compiled to JavaScript from the same [`model`](carcassonne_rules_compiler::model) the Rust
//! dispatch is generated from: bit tests on a module mask, edition and variant
//! comparisons, one function per derived flag. `app.js` and `style.css` are
//! fixed assets that know no rule: the script reads the selection from the
//! controls (and the URL), evaluates the conditions and shows what they allow,
//! taking each item's origin as the runtime does (the module of the first of
//! its origin candidates that holds, else its parent's, else the base game).
//! Its "Play a turn" mode runs on the runtime itself, compiled to
//! WebAssembly ([`Runtime`]: `wasm.js` and its glue `carcassonne-rules.js`,
//! classic scripts beside `app.js`), for rules that module was built from:
//! the script sends the selection and the answers, and shows the prompt and
//! the trace it gets back with the page's own texts and words.
//!
//! Everything is local (no server, no external URL; classic scripts, so the
//! page works from `file://`), and the output is deterministic: model order
//! only, no timestamps, `\n` newlines.

use std::fmt::Write;

use carcassonne_rules_core::lang::Unit;
use carcassonne_rules_core::tables::{Flow, Role};
use carcassonne_rules_core::{EditionId, Repeat, Section};

use crate::codegen::GENERATOR;
use crate::escape::html;
use carcassonne_rules_compiler::model::{Item, Marker, Rules, Step, Wording, WordingPart};
use carcassonne_rules_compiler::translation::{Locale, SOURCE_LANG, State, Translations};
use carcassonne_rules_core::words::{self, Word, Words};

mod rules_js;

use rules_js::{Conds, rules_js};

/// The script that runs the page: reads the controls, evaluates the conditions.
const APP_JS: &str = include_str!("site/app.js");
/// The page's screen and print styles.
const STYLE_CSS: &str = include_str!("site/style.css");

/// The "Play a turn" mode's frame; `app.js` fills it from what the runtime
/// answers (the prompt and the trace, by ids) and the page's own texts. The
/// step line is the live region (a new step is announced); the focus moves
/// to each new question.
fn play_panel(page: &Page) -> String {
    format!(
        "<section id=\"play\" class=\"play\" aria-labelledby=\"play-title\" hidden>\n\
         <h2 id=\"play-title\">{play}</h2>\n\
         <p class=\"play-where\" id=\"play-where\" aria-live=\"polite\"></p>\n\
         <div class=\"play-prompt\" id=\"play-prompt\"></div>\n\
         <p class=\"play-error\" id=\"play-error\" role=\"alert\" hidden></p>\n\
         <p class=\"play-controls\"><button type=\"button\" id=\"play-undo\">{undo}</button> \
         <button type=\"button\" id=\"play-restart\">{restart}</button> \
         <button type=\"button\" id=\"play-leave\">{leave}</button></p>\n\
         <section class=\"play-any-time\" id=\"play-any-time\" aria-labelledby=\"play-any-time-title\" hidden>\n\
         <h3 id=\"play-any-time-title\">{any_time}</h3>\n<ul id=\"play-any-time-list\"></ul>\n</section>\n\
         <section class=\"play-log\" aria-labelledby=\"play-log-title\">\n\
         <h3 id=\"play-log-title\">{happened}</h3>\n<ol id=\"play-log\"></ol>\n</section>\n\
         </section>\n",
        play = page.word(Word::PlayATurn),
        undo = page.word(Word::Undo),
        restart = page.word(Word::StartOver),
        leave = page.word(Word::BackToOrder),
        any_time = html::text(page.words.heading(Section::AnyTime)),
        happened = page.word(Word::WhatHappened),
    )
}

/// The words `app.js` writes besides the counts (which it is given all of):
/// the selection's summary and status, and what the "Play a turn" mode says.
/// The script names each by its key in camel case (`word("variantRules")`).
const SCRIPT_WORDS: &[Word] = &[
    Word::VariantRules,
    Word::BaseGameOnly,
    Word::NotKnown,
    Word::ChooseOne,
    Word::ChooseOneOrNone,
    Word::TracePart,
    Word::TraceStep,
    Word::TraceFeature,
    Word::TraceYes,
    Word::TraceNo,
    Word::TraceChose,
    Word::TraceChoseNone,
    Word::TraceSkipped,
    Word::TraceNoFeatures,
    Word::TraceOnce,
    Word::TraceGoBack,
    Word::TraceAnyTime,
    Word::TraceTaken,
    Word::TraceLeftOut,
    Word::TraceEnd,
    Word::PlayNumber,
    Word::PlayNoneOfThem,
    Word::PlayHowMany,
    Word::PlayPleaseAnswer,
    Word::PlaySecondPart,
    Word::PlayOver,
    Word::PlayAnother,
    Word::PlayDoesItHold,
    Word::PlayYouMay,
    Word::PlayCarryOut,
    Word::PlayDid,
    Word::PlayDidNot,
    Word::PlayDone,
    Word::PlayCouldNot,
    Word::PlayMore,
    Word::PlayOk,
    Word::PlayLogYes,
    Word::PlayLogNo,
    Word::PlayNotAnyTime,
    Word::PlayOnlyOnce,
    Word::PlayMustChoose,
    Word::PlayMust,
    Word::PlayAMust,
    Word::PlayAsks,
    Word::ActorLeft,
    Word::ActorEach,
    Word::ActorEachFromLeft,
    Word::ActorOwner,
    Word::ActorScorers,
    Word::PlayNotOffered,
    Word::PlayWrongAnswer,
    Word::PlayRefused,
];

/// The words `app.js` writes, in the page's language, as data attributes
/// of a hidden element (`data-variant-rules`; a count's forms by plural
/// category: `data-items-count-one`), so the script knows no language.
fn words_element(page: &Page) -> String {
    let mut out = String::from("<span id=\"words\" hidden");
    let attribute = |key: &str| key.replace('_', "-");
    for &word in SCRIPT_WORDS {
        let _ = write!(out, " data-{}=\"{}\"", attribute(word.key()), page.word(word));
    }
    for word in Word::ALL.iter().filter(|w| w.is_plural()) {
        for (category, form) in words::plural_forms(page.words.get(*word)).unwrap_or_default() {
            let _ = write!(out, " data-{}-{category}=\"{}\"", attribute(word.key()), html::text(form));
        }
    }
    out.push_str("></span>\n");
    out
}

/// The switch to the other languages' pages; `app.js` keeps the selection
/// in their links.
fn language_switch(page: &Page) -> String {
    if page.languages.len() < 2 {
        return String::new();
    }
    let mut out = format!("<nav class=\"languages\" aria-label=\"{}\"><ul>", page.word(Word::Languages));
    for (lang, name, file) in page.languages {
        let (lang, name, file) = (html::text(lang), html::text(name), html::text(file));
        if *lang == *page.lang() {
            let _ = write!(out, "<li><span lang=\"{lang}\" aria-current=\"page\">{name}</span></li>");
        } else {
            let _ = write!(
                out,
                "<li><a href=\"{file}\" data-page=\"{file}\" hreflang=\"{lang}\" lang=\"{lang}\">{name}</a></li>"
            );
        }
    }
    out.push_str("</ul></nav>\n");
    out
}

/// The edition the page shows when the link names none, if the rules have it
/// (else their first edition): the game's current edition.
const DEFAULT_EDITION: &str = "C2";

/// One file of the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteFile {
    /// Its name inside the output folder.
    pub name: String,
    /// Its contents.
    pub contents: String,
}

/// The runtime compiled to WebAssembly, for the page's "Play a turn": the
/// module as a classic script (`js/wasm.js`: its base64, which sets
/// `CarcassonneRulesWasm`) and the package's glue (`js/carcassonne-rules.js`,
/// which sets `CarcassonneRules`). The module plays the rules it was built
/// from, so only a page of those rules carries it; this crate does not embed
/// them (they are outside its package): the command line passes them.
#[derive(Debug, Clone, Copy)]
pub struct Runtime<'a> {
    /// `wasm.js`.
    pub module: &'a str,
    /// `carcassonne-rules.js`.
    pub glue: &'a str,
}

/// The page's files: `index.html`, `rules.js`, `app.js` and `style.css`.
pub fn generate(rules: &Rules) -> Vec<SiteFile> {
    generate_in(rules, &Translations::default())
}

/// The page in English and in every language of `translations`: one
/// `index.html` per language (`index.nl.html`), each with a switch to the
/// others that keeps the selection, and the files they share. Without the
/// runtime, the page has no "Play a turn".
pub fn generate_in(rules: &Rules, translations: &Translations) -> Vec<SiteFile> {
    generate_with(rules, translations, None)
}

/// As [`generate_in`], and with `runtime` (for rules it was built from) the
/// "Play a turn" mode, which runs on it: `wasm.js` and
/// `carcassonne-rules.js` beside the other files.
pub fn generate_with(rules: &Rules, translations: &Translations, runtime: Option<Runtime<'_>>) -> Vec<SiteFile> {
    let mut languages = vec![(SOURCE_LANG.to_string(), "English".to_string(), page_file(SOURCE_LANG))];
    languages.extend(translations.locales.iter().map(|l| (l.lang.clone(), l.name.clone(), page_file(&l.lang))));
    let mut conds = Conds::new(rules);
    let mut files = Vec::new();
    let locales = std::iter::once(None).chain(translations.locales.iter().map(Some));
    for locale in locales {
        let page = Page::new(locale, &languages);
        let contents = index_html(rules, &mut conds, &page, runtime.is_some());
        files.push(SiteFile { name: page_file(page.lang()), contents });
    }
    let js = rules_js(rules, &conds);
    files.push(SiteFile { name: "rules.js".to_string(), contents: js });
    files.push(SiteFile { name: "app.js".to_string(), contents: APP_JS.to_string() });
    files.push(SiteFile { name: "style.css".to_string(), contents: STYLE_CSS.to_string() });
    if let Some(runtime) = runtime {
        files.push(SiteFile { name: WASM_JS.to_string(), contents: runtime.module.to_string() });
        files.push(SiteFile { name: GLUE_JS.to_string(), contents: runtime.glue.to_string() });
    }
    files
}

/// The runtime's files on the page.
const WASM_JS: &str = "wasm.js";
const GLUE_JS: &str = "carcassonne-rules.js";

/// The page of a language: `index.html` for English, `index.nl.html`.
fn page_file(lang: &str) -> String {
    if lang == SOURCE_LANG { "index.html".to_string() } else { format!("index.{lang}.html") }
}

/// What one language's page writes in it: its words, its translation of the
/// rules (none for English), and the languages to switch to.
struct Page<'a> {
    locale: Option<&'a Locale>,
    words: Words<'static>,
    /// Every language: its tag, its name, its page.
    languages: &'a [(String, String, String)],
}

impl<'a> Page<'a> {
    fn new(locale: Option<&'a Locale>, languages: &'a [(String, String, String)]) -> Self {
        let words = locale.map_or_else(Words::english, Locale::words);
        Page { locale, words, languages }
    }

    fn lang(&self) -> &str {
        self.locale.map_or(SOURCE_LANG, |l| l.lang.as_str())
    }

    /// A word of the program, as HTML text.
    fn word(&self, word: Word) -> String {
        html::text(self.words.get(word)).into_owned()
    }

    /// A word with its placeholder filled in, as HTML text.
    fn word_with(&self, word: Word, placeholder: &str, value: &str) -> String {
        html::text(&self.words.get(word).replace(placeholder, value)).into_owned()
    }

    /// A name or title in the page's language, as HTML: the English where
    /// there is no translation, marked as English on a translated page.
    fn name(&self, unit: Unit<'_>, english: &str) -> String {
        match (self.locale, self.locale.and_then(|l| l.get(unit))) {
            (_, Some(t)) => html::text(&t.text.render(EditionId(0))).into_owned(),
            (Some(_), None) => format!("<span lang=\"en\">{}</span>", html::text(english)),
            (None, None) => html::text(english).into_owned(),
        }
    }

    /// A name in the page's language as plain text (for an attribute).
    fn plain_name(&self, unit: Unit<'_>, english: &str) -> String {
        self.locale.and_then(|l| l.get(unit)).map_or_else(|| english.to_string(), |t| t.text.render(EditionId(0)))
    }

    /// An item's text in the page's language, and the attributes of its
    /// span: `lang="en"` where it falls back to English, `outdated` where its
    /// English changed since it was translated.
    fn item_text<'i>(&self, item: &'i Item) -> (&'i Wording, String)
    where
        'a: 'i,
    {
        let Some(locale) = self.locale else { return (&item.text, String::new()) };
        match locale.units.get(&item.id) {
            Some(t) if t.state == State::Outdated => {
                (&t.text, format!(" data-translation=\"outdated\" title=\"{}\"", self.word(Word::OutdatedTranslation)))
            }
            Some(t) => (&t.text, String::new()),
            None if item.text.render(EditionId(0)).is_empty() && item.text.is_uniform() => (&item.text, String::new()),
            None => (
                &item.text,
                format!(" lang=\"en\" data-translation=\"missing\" title=\"{}\"", self.word(Word::Untranslated)),
            ),
        }
    }
}

/// Space-separated numbers, for data attributes.
fn numbers(ns: impl Iterator<Item = u8>) -> String {
    ns.map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
}

fn default_edition(rules: &Rules) -> usize {
    rules.catalog.editions.iter().position(|e| e.id == DEFAULT_EDITION).unwrap_or(0)
}

/// The files' header comment; `comment` makes an input's name safe in it.
fn header(rules: &Rules, open: &str, prefix: &str, close: &str, comment: fn(&str) -> String) -> String {
    let mut out = format!(
        "{open}@generated by {GENERATOR}: do not edit by hand. Edit the YAML under rules/\n\
         {prefix}and run `carcassonne-rules site --out DIR`. Compiled from these files of the rules folder:\n"
    );
    for input in &rules.inputs {
        let _ = writeln!(out, "{prefix}  {}", comment(input));
    }
    out.push_str(close);
    out
}

/// The page: the selection form from the catalog, the order of play from the model.
fn index_html(rules: &Rules, conds: &mut Conds<'_>, page: &Page, play: bool) -> String {
    let mut out = String::from("<!doctype html>\n");
    out.push_str(&header(rules, "<!-- ", "     ", "-->\n", html::comment));
    let _ = write!(
        out,
        "<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n\
         <link rel=\"stylesheet\" href=\"style.css\">\n\
         {runtime}<script src=\"rules.js\" defer></script>\n\
         <script src=\"app.js\" defer></script>\n\
         </head>\n<body>\n\
         <a class=\"skip\" href=\"#order\">{skip}</a>\n\
         <header class=\"top\">\n<h1>{title}</h1>\n{switch}\
         <p class=\"summary\" id=\"summary\"></p>\n{words}</header>\n\
         <div class=\"layout\">\n",
        lang = html::text(page.lang()),
        title = page.word(Word::PageTitle),
        skip = page.word(Word::SkipToOrder),
        switch = language_switch(page),
        words = words_element(page),
        // The module first: the glue reads it as it loads; all in order (defer).
        runtime = if play {
            format!("<script src=\"{WASM_JS}\" defer></script>\n<script src=\"{GLUE_JS}\" defer></script>\n")
        } else {
            String::new()
        },
    );
    selection_form(&mut out, rules, page);
    let _ = write!(
        out,
        "<main id=\"order\" class=\"order\" tabindex=\"-1\" aria-labelledby=\"order-title\">\n\
         <h2 id=\"order-title\" class=\"visually-hidden\">{order}</h2>\n\
         <noscript><p class=\"notice\">{noscript}</p></noscript>\n",
        order = page.word(Word::OrderOfPlay),
        noscript = page.word(Word::NeedsJavaScript),
    );
    if play {
        let _ = writeln!(
            out,
            "<p class=\"play-start\"><button type=\"button\" id=\"play-start\" hidden>{}</button></p>",
            page.word(Word::PlayATurn)
        );
        out.push_str(&play_panel(page));
    }
    out.push_str("<div id=\"turn\" hidden>\n");
    for outside in Section::BEFORE_STEPS {
        section(&mut out, conds, rules, outside, page);
    }
    for phase in &rules.phases {
        let _ = writeln!(
            out,
            "<section class=\"phase\" id=\"phase-{id}\" data-phase=\"{id}\" aria-labelledby=\"phase-{id}-title\">\n\
             <h2 id=\"phase-{id}-title\">{id}. {title}</h2>",
            id = html::text(&phase.id),
            title = page.name(Unit::Phase(&phase.id), &phase.title),
        );
        for step in &phase.steps {
            self::step(&mut out, conds, rules, step, page);
        }
        out.push_str("</section>\n");
    }
    for outside in Section::AFTER_STEPS {
        section(&mut out, conds, rules, outside, page);
    }
    out.push_str("</div>\n</main>\n</div>\n");
    // The placeholders survive the escaping; the command is markup.
    let footer = page
        .word(Word::GeneratedBy)
        .replace("{generator}", &html::text(GENERATOR))
        .replace("{command}", "<code>carcassonne-rules</code>");
    let _ = writeln!(out, "<footer class=\"foot\"><p>{footer}</p></footer>");
    out.push_str("</body>\n</html>\n");
    out
}

fn selection_form(out: &mut String, rules: &Rules, page: &Page) {
    let catalog = &rules.catalog;
    let default = default_edition(rules);
    let _ = write!(
        out,
        "<form id=\"selection\" class=\"selection\" aria-labelledby=\"selection-title\">\n\
         <h2 id=\"selection-title\">{}</h2>\n\
         <fieldset class=\"choice\" id=\"editions\">\n<legend>{}</legend>\n",
        page.word(Word::YourGame),
        page.word(Word::EditionLegend),
    );
    for (i, edition) in catalog.editions.iter().enumerate() {
        let _ = writeln!(
            out,
            "<label><input type=\"radio\" name=\"edition\" value=\"{id}\" data-index=\"{i}\" data-name=\"{plain}\"{checked}> \
             {name} <span class=\"code\">({id})</span></label>",
            id = html::text(&edition.id),
            name = page.name(Unit::Edition(&edition.id), &edition.name),
            plain = html::text(&page.plain_name(Unit::Edition(&edition.id), &edition.name)),
            checked = if i == default { " checked" } else { "" },
        );
    }
    out.push_str("</fieldset>\n");
    let default_variant = catalog.editions.get(default).map_or(0, |e| usize::from(e.default_variant.0));
    if !catalog.variants.is_empty() {
        let _ = write!(
            out,
            "<fieldset class=\"choice\" id=\"variants\" aria-describedby=\"variants-help\">\n\
             <legend>{}</legend>\n",
            page.word(Word::PublishersRules),
        );
        for (i, variant) in catalog.variants.iter().enumerate() {
            let _ = writeln!(
                out,
                "<label><input type=\"radio\" name=\"variant\" value=\"{id}\" data-index=\"{i}\" data-name=\"{plain}\"{checked}> \
                 {name}</label>",
                id = html::text(&variant.id),
                name = page.name(Unit::Variant(&variant.id), &variant.name),
                plain = html::text(&page.plain_name(Unit::Variant(&variant.id), &variant.name)),
                checked = if i == default_variant { " checked" } else { "" },
            );
        }
        let _ = writeln!(
            out,
            "<p class=\"help\" id=\"variants-help\">{}</p>\n</fieldset>",
            page.word(Word::PublishersHelp)
        );
    }
    let _ = write!(
        out,
        "<fieldset class=\"expansions\" id=\"expansions\">\n\
         <legend>{} <span id=\"selected-count\" class=\"count\"></span></legend>\n\
         <p class=\"help\">{}</p>\n\
         <p class=\"actions\"><button type=\"button\" id=\"clear\">{}</button></p>\n\
         <ul class=\"expansion-list\">\n",
        page.word(Word::Expansions),
        page.word(Word::ExpansionsHelp),
        page.word(Word::ClearSelection),
    );
    for expansion in &catalog.expansions {
        let editions = expansion.editions.iter().map(|e| html::text(e)).collect::<Vec<_>>();
        let _ = write!(out, "<li class=\"expansion\" data-editions=\"{}\">", editions.join(" "));
        let tags = format!(
            " <span class=\"editions\" title=\"{}\">{}</span>",
            page.word_with(Word::PublishedFor, "{editions}", &expansion.editions.join(", ")),
            editions.join(" · ")
        );
        let expansion_name = page.name(Unit::Expansion(&expansion.id), &expansion.name);
        let plain_expansion = page.plain_name(Unit::Expansion(&expansion.id), &expansion.name);
        let names = |module: &carcassonne_rules_core::catalog::ModuleInfo| {
            format!(
                " data-name=\"{}\" data-expansion-name=\"{}\"",
                html::text(&page.plain_name(Unit::Module(&module.id), &module.name)),
                html::text(&plain_expansion)
            )
        };
        match expansion.modules.as_slice() {
            [module] => {
                // One module: the expansion's box is the module's.
                let _ = write!(
                    out,
                    "<label><input type=\"checkbox\" data-expansion=\"{x}\" data-module=\"{m}\" data-bit=\"{bit}\"{names}> \
                     {name}</label>{tags}",
                    x = html::text(&expansion.id),
                    m = html::text(&module.id),
                    bit = module.bit.0,
                    names = names(module),
                    name = expansion_name,
                );
            }
            modules => {
                let _ = write!(
                    out,
                    "<label><input type=\"checkbox\" data-expansion=\"{x}\" data-expansion-name=\"{plain}\"{disabled}> \
                     {name}</label>{tags}\n\
                     <ul class=\"modules\" aria-label=\"{label}\">\n",
                    x = html::text(&expansion.id),
                    name = expansion_name,
                    plain = html::text(&plain_expansion),
                    label = page.word_with(Word::ModulesOf, "{expansion}", &plain_expansion),
                    disabled = if modules.is_empty() { " disabled" } else { "" },
                );
                for module in modules {
                    let _ = writeln!(
                        out,
                        "<li><label><input type=\"checkbox\" data-module=\"{m}\" data-bit=\"{bit}\"{names}> {name}</label></li>",
                        m = html::text(&module.id),
                        bit = module.bit.0,
                        names = names(module),
                        name = page.name(Unit::Module(&module.id), &module.name),
                    );
                }
                out.push_str("</ul>");
            }
        }
        out.push_str("</li>\n");
    }
    let _ = write!(
        out,
        "</ul>\n</fieldset>\n\
         <fieldset class=\"view\">\n<legend>{view}</legend>\n\
         <label><input type=\"checkbox\" id=\"changes\" aria-describedby=\"changes-help\"> {changed}</label>\n\
         <p class=\"help\" id=\"changes-help\">{changed_help}</p>\n\
         </fieldset>\n\
         <p class=\"share\"><label for=\"share-url\">{link}</label>\n\
         <input id=\"share-url\" type=\"text\" readonly>\n\
         <button type=\"button\" id=\"copy\">{copy}</button></p>\n\
         <p id=\"status\" class=\"status\" role=\"status\" aria-live=\"polite\"></p>\n\
         </form>\n",
        view = page.word(Word::View),
        changed = page.word(Word::WhatChanged),
        changed_help = page.word(Word::WhatChangedHelp),
        link = page.word(Word::LinkToSelection),
        copy = page.word(Word::CopyLink),
    );
}

/// What the play mode words an item's question by, where it is not a must
/// action: ` data-role="condition"` ("Does this hold?"; `group` and `note`
/// are no "at any time" button), ` data-flow="optional"` ("You may:").
fn flow_attrs(flow: Flow) -> String {
    let mut out = String::new();
    let role = match flow.role {
        Role::Action => None,
        Role::Condition => Some("condition"),
        Role::Group => Some("group"),
        Role::Note => Some("note"),
    };
    if let Some(role) = role {
        let _ = write!(out, " data-role=\"{role}\"");
    }
    if flow.optional {
        out.push_str(" data-flow=\"optional\"");
    }
    out
}

/// A section outside the steps (notes, setup, any time, final scoring).
fn section(out: &mut String, conds: &mut Conds<'_>, rules: &Rules, section: Section, page: &Page) {
    let (id, title, items) = (section.name(), page.words.heading(section), rules.section(section));
    let _ = writeln!(
        out,
        "<section class=\"section\" id=\"{id}\" data-section=\"{id}\" aria-labelledby=\"{id}-title\">\n\
         <h2 id=\"{id}-title\">{title}</h2>",
        id = html::text(id),
        title = html::text(title),
    );
    list(out, conds, rules, "ul", items, page);
    out.push_str("</section>\n");
}

fn step(out: &mut String, conds: &mut Conds<'_>, rules: &Rules, step: &Step, page: &Page) {
    let id = html::text(&step.id);
    let _ = write!(
        out,
        "<section class=\"step\" id=\"step-{id}\" data-step=\"{id}\"{c} aria-labelledby=\"step-{id}-title\">\n\
         <h3 id=\"step-{id}-title\">{word} {id}: {title}",
        word = page.word(Word::Step),
        c = conds.attr(&step.when),
        title = page.name(Unit::Step(&step.id), &step.title),
    );
    if let Some((repeat, when)) = &step.repeat {
        let name = match repeat {
            Repeat::DoubleTurn => "double_turn",
            Repeat::PerFeature => "per_feature",
        };
        let text = page.word(repeat.word());
        let _ = write!(
            out,
            " <span class=\"badge repeat\" data-repeat=\"{name}\"{c} hidden>{text}</span>",
            c = conds.attr(when),
        );
    }
    out.push_str("</h3>\n");
    let _ = writeln!(out, "<p class=\"lead empty\" hidden>{}</p>", page.word(Word::NoActions));
    if step.choose_one {
        let _ = writeln!(out, "<p class=\"lead choose\" hidden>{}</p>", page.word(Word::ChooseOneLead));
    }
    list(out, conds, rules, "ol", &step.items, page);
    out.push_str("</section>\n");
}

fn list(out: &mut String, conds: &mut Conds<'_>, rules: &Rules, tag: &str, items: &[Item], page: &Page) {
    let _ = writeln!(out, "<{tag} class=\"items\">");
    for item in items {
        self::item(out, conds, rules, item, page);
    }
    let _ = writeln!(out, "</{tag}>");
}

fn item(out: &mut String, conds: &mut Conds<'_>, rules: &Rules, item: &Item, page: &Page) {
    let id = html::text(&item.id);
    let _ = write!(out, "<li class=\"item\" id=\"item-{id}\" data-id=\"{id}\"{}", conds.attr(&item.when));
    out.push_str(&conds.origins(item));
    if !item.foreign.is_empty() {
        let _ = write!(out, " data-f=\"{}\"", numbers(item.foreign.iter().map(|e| e.0)));
    }
    out.push_str(&flow_attrs(item.flow));
    out.push_str(" hidden>");
    let (wording, attributes) = page.item_text(item);
    let _ = write!(out, "<div class=\"line\"><span class=\"text\"{attributes}>");
    text(out, wording);
    out.push_str("</span>");
    for marker in &item.markers {
        self::marker(out, conds, marker, page);
    }
    if !item.foreign.is_empty() {
        let eds: Vec<&str> = rules
            .catalog
            .editions
            .iter()
            .enumerate()
            .filter(|(i, _)| !item.foreign.contains(&EditionId(*i as u8)))
            .map(|(_, e)| e.id.as_str())
            .collect();
        let _ = write!(
            out,
            " <span class=\"badge foreign-badge\" hidden title=\"{title}\">\
             <span class=\"visually-hidden\">{foreign}: </span>{from}</span>",
            title = page.word_with(Word::RuleOfEdition, "{editions}", &eds.join("/")),
            foreign = page.word(Word::FromAnotherEdition),
            from = html::text(&eds.join("/")),
        );
    }
    let _ = write!(
        out,
        " <span class=\"badge origin\" hidden></span>\
         <span class=\"badge added-badge\" hidden>{}</span></div>",
        page.word(Word::Added)
    );
    if !item.children.is_empty() {
        out.push('\n');
        list(out, conds, rules, "ul", &item.children, page);
    }
    out.push_str("</li>\n");
}

fn marker(out: &mut String, conds: &mut Conds<'_>, marker: &Marker, page: &Page) {
    let _ = write!(
        out,
        " <span class=\"badge marker\"{c} hidden><span class=\"visually-hidden\">{word}: </span>{label}</span>",
        c = conds.attr(&marker.when),
        word = page.word(Word::Marker),
        label = html::text(
            &page.locale.and_then(|l| l.marker_label(&marker.label)).unwrap_or_else(|| marker.label.clone())
        ),
    );
}

/// An item's text: literal parts as they are, edition alternatives each in a
/// span naming its editions (the script shows the selected edition's).
fn text(out: &mut String, text: &Wording) {
    for part in &text.0 {
        match part {
            WordingPart::Literal(s) => out.push_str(&html::text(s)),
            WordingPart::ByEdition(alternatives) => {
                for (editions, s) in alternatives {
                    let _ = write!(
                        out,
                        "<span class=\"ed\" data-ed=\"{}\">{}</span>",
                        numbers(editions.iter().map(|e| e.0)),
                        html::text(s)
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of the words `app.js` asks for, in snake case: every
    /// literal in camel case (`"variantRules"` → `variant_rules`: the script
    /// has no other), and the literal first argument of each call of its word
    /// functions (`word("undo"`), with whether it asks for it as a count.
    fn script_keys() -> Vec<(String, bool)> {
        let snake = |key: &str| {
            key.chars().fold(String::new(), |mut out, c| {
                if c.is_ascii_uppercase() {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
                out
            })
        };
        let mut keys: Vec<(String, bool)> = string_literals(APP_JS)
            .iter()
            .filter(|l| {
                l.starts_with(|c: char| c.is_ascii_lowercase())
                    && l.contains(|c: char| c.is_ascii_uppercase())
                    && l.chars().all(|c| c.is_ascii_alphabetic())
            })
            .map(|l| (snake(l), l.ends_with("Count")))
            .collect();
        for (call, plural) in [("word(\"", false), ("line(\"", false), ("counted(\"", true)] {
            for rest in APP_JS.split(call).skip(1) {
                keys.push((snake(rest.split('"').next().unwrap_or_default()), plural));
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }

    /// The string literals of a script (`"…"`, `'…'`, `` `…` ``), its comments left out.
    fn string_literals(script: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = script.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '/' if chars.peek() == Some(&'/') => {
                    for c in chars.by_ref() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                '/' if chars.peek() == Some(&'*') => {
                    let mut last = ' ';
                    for c in chars.by_ref() {
                        if last == '*' && c == '/' {
                            break;
                        }
                        last = c;
                    }
                }
                '"' | '\'' | '`' => {
                    let mut literal = String::new();
                    while let Some(d) = chars.next() {
                        match d {
                            '\\' => literal.extend(chars.next()),
                            d if d == c => break,
                            d => literal.push(d),
                        }
                    }
                    out.push(literal);
                }
                _ => {}
            }
        }
        out
    }

    #[test]
    fn the_script_takes_every_word_it_writes_from_the_page() {
        let keys = script_keys();
        assert!(keys.len() > 40, "{keys:?}");
        // Each word it asks for is a word of the program that the page gives it.
        for (key, plural) in &keys {
            let word = Word::ALL.iter().find(|w| w.key() == key);
            let Some(word) = word else { panic!("app.js asks for `{key}`, which is not a word of the program") };
            assert_eq!(word.is_plural(), *plural, "app.js asks for `{key}` as a count: {plural}");
            assert!(word.is_plural() || SCRIPT_WORDS.contains(word), "the page does not give app.js `{key}`");
        }
        // The page gives it no word it does not use.
        for word in SCRIPT_WORDS {
            assert!(keys.iter().any(|(key, _)| key == word.key()), "app.js does not use `{}`", word.key());
        }
        let page = Page::new(None, &[]);
        let element = words_element(&page);
        for word in SCRIPT_WORDS {
            let attribute = format!(" data-{}=\"", word.key().replace('_', "-"));
            assert!(element.contains(&attribute), "{attribute} is not in {element}");
        }
        // No English word of the program is a literal of the script: none of
        // its phrases (a part around the placeholders with a space in it, or
        // a capitalised one: ids, classes and events are lower-case words).
        let literals = string_literals(APP_JS);
        assert!(literals.iter().any(|l| l == "play-any-time-title"), "{literals:?}");
        for word in Word::ALL {
            for part in word.english().split(['{', '}']).step_by(2) {
                let part = part.trim_matches(|c: char| !c.is_alphanumeric());
                for phrase in part.split(" | ").flat_map(|p| p.split(": ")) {
                    let phrase = phrase.trim_matches(|c: char| !c.is_alphanumeric());
                    let prose = phrase.contains(' ') || phrase.starts_with(|c: char| c.is_ascii_uppercase());
                    if !prose || phrase.len() < 2 || ["one", "other"].contains(&phrase) {
                        continue;
                    }
                    for literal in &literals {
                        // As words of their own (`Step`, not `playNoSuchStep`).
                        let apart = |c: Option<char>| !c.is_some_and(char::is_alphanumeric);
                        let says = literal.match_indices(phrase).any(|(at, _)| {
                            apart(literal[..at].chars().next_back())
                                && apart(literal[at + phrase.len()..].chars().next())
                        });
                        assert!(!says, "app.js writes {literal:?}: {phrase:?} is English ({})", word.key());
                    }
                }
            }
        }
    }
}
