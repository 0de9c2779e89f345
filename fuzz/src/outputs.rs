//! The outputs keep their structure whatever the rules' strings hold: shared
//! by the fuzz target `outputs` and by `crates/runtime/tests/outputs.rs`
//! (which includes this file by path) in `cargo test`.
//!
//! The bundled rules' model is compiled once; each input rewrites every name,
//! title, text, marker label and input file name of a copy of it (bypassing
//! `check`, which would refuse most of them), and every output is compared
//! with the same output for a *stand-in* model: the same strings with each
//! character replaced by a letter that is markup in no language (a CJK
//! ideograph; distinct characters get distinct letters, so that whatever an
//! emitter decides from a text's content, such as whether a text names its
//! publishers before its first `:`, it decides alike; `:` stays itself). What
//! is compared, per output:
//!
//! - **Rust** (`codegen`): parsed with `syn`, the list of items (kind, name,
//!   attributes, recursively in modules) is the stand-in's; no item is
//!   `unsafe` or `extern`, and no attribute but `doc` and `allow` appears.
//! - **HTML** (`site`, `index.html`): the sequence of tags (name and attribute
//!   names) and comments is the stand-in's, and the only scripts are the
//!   page's own two.
//! - **JavaScript** (`site`, `rules.js`): the code with every string literal and
//!   comment emptied is the stand-in's.
//! - **Wiki** (the wiki crate's `export`): the sequence of what can be wiki markup outside
//!   a character reference (`[[`, `]]`, `{{`, `}}`, `|`, `<`, `>`, `~`, `''`,
//!   `__`, `://`, a line's first character, `ISBN `, `RFC `, `PMID `) is the
//!   stand-in's.
//! - **Markdown** (`order --format markdown` on three selections): parsed with
//!   pulldown-cmark (CommonMark with tables and strikethrough), the sequence of
//!   events other than text is the stand-in's, with no raw HTML.
//! - **Terminal** (`order` text): no control character but line feeds, and as
//!   many lines as the stand-in's.
//!
//! The page, the wiki export and `order` are checked in English and in a
//! language whose every unit (names, titles, texts, the program's words) and
//! name is one of the strings too: a translation is as untrusted as the rules.

use std::collections::HashMap;
use std::path::Path;

use carcassonne_rules_backends::codegen;
use carcassonne_rules_backends::site;
use carcassonne_rules_compiler::diagnostics::{FileId, Span};
use carcassonne_rules_compiler::model::{Item, Rules, Wording, WordingPart};
use carcassonne_rules_compiler::translation::{Locale, State, Translated, Translations};
use carcassonne_rules_compiler::{Sources, compile_dir};
use carcassonne_rules_core::escape::terminal;
use carcassonne_rules_runtime::core::{Config, EditionId, ModuleSet};
use carcassonne_rules_runtime::render;
use carcassonne_rules_tools::interpret;
use carcassonne_rules_wiki::export;

/// The bundled model, compiled once.
pub struct Bed {
    rules: Rules,
    /// The files it was compiled from, which the wiki export's diagnostics name.
    sources: Sources,
    /// A translation of the rules (a hostile one, for a check).
    translations: Translations,
}

impl Bed {
    /// Compiles the rules folder `dir` (the bundled `rules/`).
    pub fn new(dir: &Path) -> Self {
        let compiled = compile_dir(dir);
        match compiled.result {
            Ok(mut rules) => {
                pieces_that_meet(&mut rules);
                Bed { rules, sources: compiled.sources, translations: Translations::default() }
            }
            Err(problems) => panic!("the rules at {} do not compile: {problems:?}", dir.display()),
        }
    }

    /// Rewrites every string of the model with `strings` (in turn, cycling)
    /// and checks every output against the stand-in's. Panics on a difference.
    pub fn check(&self, strings: &[String]) {
        for output in Output::ALL {
            self.check_only(strings, output);
        }
    }

    /// As [`check`](Self::check), for one output only.
    pub fn check_only(&self, strings: &[String], output: Output) {
        if strings.is_empty() {
            return;
        }
        let mut next = 0;
        let mut hostile = self.rules.clone();
        rewrite(&mut hostile, &mut |_| {
            next += 1;
            strings[(next - 1) % strings.len()].clone()
        });
        let mut letters = HashMap::new();
        let mut stand_in = hostile.clone();
        rewrite(&mut stand_in, &mut |s| s.chars().map(|c| letter(&mut letters, c)).collect());
        // A translation with the strings in every unit (names, titles,
        // texts, the program's words), and its stand-in.
        let hostile_language = translation(&hostile, &mut |_| {
            next += 1;
            strings[(next - 1) % strings.len()].clone()
        });
        let stand_in_language = Translations {
            units: hostile_language.units.clone(),
            locales: hostile_language
                .locales
                .iter()
                .map(|l| Locale {
                    name: l.name.chars().map(|c| letter(&mut letters, c)).collect(),
                    units: l
                        .units
                        .iter()
                        .map(|(id, t)| {
                            let text = t.text.render(EditionId(0)).chars().map(|c| letter(&mut letters, c)).collect();
                            (id.clone(), Translated { text: Wording(vec![WordingPart::Literal(text)]), ..t.clone() })
                        })
                        .collect(),
                    ..l.clone()
                })
                .collect(),
        };
        let (hostile, stand_in) = (
            Bed { rules: hostile, sources: Sources::default(), translations: hostile_language },
            Bed { rules: stand_in, sources: Sources::default(), translations: stand_in_language },
        );
        match output {
            Output::Rust => check_rust(&hostile.rules, &stand_in.rules),
            Output::Site => check_site(&hostile, &stand_in),
            Output::Wiki => check_wiki(&hostile, &stand_in, &self.sources),
            Output::Order => check_order(&hostile, &stand_in),
        }
    }
}

/// The outputs checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// The generated Rust.
    Rust,
    /// The page: HTML and JavaScript.
    Site,
    /// The wiki export.
    Wiki,
    /// `order` as Markdown and as text.
    Order,
}

impl Output {
    /// Every output.
    pub const ALL: [Output; 4] = [Output::Rust, Output::Site, Output::Wiki, Output::Order];
}

/// Makes the first item's text three parts that meet on every page (a part
/// for all editions stands inline), as `x_{C1, C2, WE: _NOTOC_}_` does, and
/// the second item's two literal parts: escaping each part alone is not enough.
fn pieces_that_meet(rules: &mut Rules) {
    let all: Vec<EditionId> = (0..rules.catalog.editions.len()).map(|e| EditionId(e as u8)).collect();
    let items = rules.phases.iter_mut().flat_map(|p| &mut p.steps).flat_map(|s| &mut s.items);
    for (n, item) in items.take(2).enumerate() {
        let parts = match n {
            0 => vec![
                WordingPart::Literal("x_".into()),
                WordingPart::ByEdition(vec![(all.clone(), "_NOTOC_".into())]),
                WordingPart::Literal("_".into()),
            ],
            _ => vec![WordingPart::Literal("'".into()), WordingPart::Literal("'".into())],
        };
        item.text = Wording(parts);
    }
}

/// A translation of `rules` into a language `qps`, every unit's text (and
/// the language's name) from `next`.
fn translation(rules: &Rules, next: &mut dyn FnMut(&str) -> String) -> Translations {
    let units = carcassonne_rules_compiler::translation::units(rules);
    let at = Span { file: FileId(0), start: 0, len: 0 };
    let translated = units
        .iter()
        .map(|unit| {
            // The page bolds its modal words where a text holds them: which
            // depends on the texts, so here they are no word (and never bold);
            // crates/wiki/tests/export.rs tests the bolding.
            let written = if unit.id.starts_with("program.modal_") { "·".to_string() } else { next(&unit.english) };
            let text = Wording(vec![WordingPart::Literal(written)]);
            let state = State::Translated;
            let t = Translated { text, from: unit.english.clone(), state, span: at, from_span: at, key_span: at };
            (unit.id.clone(), t)
        })
        .collect();
    let locale = Locale {
        lang: "qps".to_string(),
        name: next("Pseudo"),
        required: false,
        units: translated,
        orphaned: Vec::new(),
    };
    Translations { units, locales: vec![locale] }
}

/// Splits a fuzz input into strings: at each byte 0xFF (never in UTF-8),
/// each piece read as UTF-8 with invalid bytes replaced.
pub fn strings(input: &[u8]) -> Vec<String> {
    input.split(|&b| b == 0xff).map(|piece| String::from_utf8_lossy(piece).into_owned()).collect()
}

/// A letter that is markup in no output, one per distinct character; `:` is itself.
fn letter(letters: &mut HashMap<char, char>, c: char) -> char {
    if c == ':' {
        return c;
    }
    let n = letters.len() as u32;
    *letters.entry(c).or_insert_with(|| char::from_u32(0x4e00 + n % 20_000).unwrap_or('x'))
}

/// Replaces every name, title, text, marker label and input file name.
fn rewrite(rules: &mut Rules, f: &mut dyn FnMut(&str) -> String) {
    let catalog = &mut rules.catalog;
    catalog.editions.iter_mut().for_each(|e| e.name = f(&e.name));
    catalog.variants.iter_mut().for_each(|v| v.name = f(&v.name));
    catalog.modules.iter_mut().for_each(|m| m.name = f(&m.name));
    let names: Vec<String> = catalog.modules.iter().map(|m| m.name.clone()).collect();
    for x in &mut catalog.expansions {
        x.name = f(&x.name);
        x.modules.iter_mut().for_each(|m| m.name = names[usize::from(m.bit.0)].clone());
    }
    for phase in &mut rules.phases {
        phase.title = f(&phase.title);
        for step in &mut phase.steps {
            step.title = f(&step.title);
            items(&mut step.items, f);
        }
    }
    for (_, section) in rules.sections.iter_mut() {
        items(section, f);
    }
    rules.inputs.iter_mut().for_each(|i| *i = f(i));
}

fn items(items: &mut [Item], f: &mut dyn FnMut(&str) -> String) {
    for item in items {
        for part in &mut item.text.0 {
            match part {
                WordingPart::Literal(s) => *s = f(s),
                WordingPart::ByEdition(alternatives) => alternatives.iter_mut().for_each(|(_, s)| *s = f(s)),
            }
        }
        item.markers.iter_mut().for_each(|m| m.label = f(&m.label));
        self::items(&mut item.children, f);
    }
}

/// Panics at the first difference of `got` and `want` (the lists an output
/// and the stand-in's output give), showing it in context.
fn same(got: &[String], want: &[String], what: &str, output: &str, stand_in: &str) {
    let Some(at) = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)) else { return };
    let around = |list: &[String]| list[at.saturating_sub(3)..(at + 3).min(list.len())].to_vec();
    // The line the difference is on, where the list names it (`502: …`), else the start.
    let line = got.get(at).or(want.get(at)).and_then(|t| t.split(':').next()?.parse::<usize>().ok());
    let clip = |s: &str| match line {
        Some(n) => s.lines().skip(n.saturating_sub(2)).take(3).collect::<Vec<_>>().join("\n"),
        None => s.chars().take(4000).collect::<String>(),
    };
    panic!(
        "{what} differ from the stand-in's at {at}:\n  got  {:?}\n  want {:?}\n---- output\n{}\n---- stand-in\n{}",
        around(got),
        around(want),
        clip(output),
        clip(stand_in)
    );
}

// ---- Rust ---------------------------------------------------------------------

fn check_rust(hostile: &Rules, stand_in: &Rules) {
    let code = codegen::generate(hostile);
    let file = match syn::parse_file(&code) {
        Ok(file) => file,
        Err(err) => panic!("the generated code does not parse: {err}\n{code}"),
    };
    let shape = rust_items(&file.items);
    let expected = match syn::parse_file(&codegen::generate(stand_in)) {
        Ok(file) => rust_items(&file.items),
        Err(err) => panic!("the stand-in's generated code does not parse: {err}"),
    };
    same(&shape, &expected, "the generated items", &code, "");
}

/// Each item as `kind name [attributes]`, with a module's items after it.
/// The constants of `mod marker` are named after the markers' labels, which
/// the check rewrites: there only their kinds count.
pub fn rust_items(items: &[syn::Item]) -> Vec<String> {
    items_of(items, true)
}

fn items_of(items: &[syn::Item], named: bool) -> Vec<String> {
    let mut out = Vec::new();
    for item in items {
        let (kind, name, attrs) = match item {
            syn::Item::Const(c) => ("const", c.ident.to_string(), &c.attrs),
            syn::Item::Static(s) => ("static", s.ident.to_string(), &s.attrs),
            syn::Item::Fn(f) => {
                assert!(f.sig.unsafety.is_none() && f.sig.abi.is_none(), "unsafe or extern fn {}", f.sig.ident);
                ("fn", f.sig.ident.to_string(), &f.attrs)
            }
            syn::Item::Mod(m) => ("mod", m.ident.to_string(), &m.attrs),
            syn::Item::Type(t) => ("type", t.ident.to_string(), &t.attrs),
            syn::Item::Use(u) => ("use", use_tree(&u.tree), &u.attrs),
            _ => panic!("an item of an unexpected kind in the generated code, after {out:?}"),
        };
        let attrs: Vec<String> = attrs.iter().map(|a| path(a.path())).collect();
        for attr in &attrs {
            assert!(attr == "doc" || attr == "allow", "attribute #[{attr}] on {kind} {name}");
        }
        let shown = if named || kind == "use" { name.as_str() } else { "_" };
        out.push(format!("{kind} {shown} {attrs:?}"));
        if let syn::Item::Mod(syn::ItemMod { ident, content: Some((_, inner)), .. }) = item {
            let named = named && ident != "marker";
            out.extend(items_of(inner, named).into_iter().map(|line| format!("  {line}")));
        }
    }
    out
}

fn path(p: &syn::Path) -> String {
    p.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::")
}

fn use_tree(tree: &syn::UseTree) -> String {
    match tree {
        syn::UseTree::Path(p) => format!("{}::{}", p.ident, use_tree(&p.tree)),
        syn::UseTree::Name(n) => n.ident.to_string(),
        syn::UseTree::Rename(r) => format!("{} as {}", r.ident, r.rename),
        syn::UseTree::Glob(_) => "*".to_string(),
        syn::UseTree::Group(g) => format!("{{{}}}", g.items.iter().map(use_tree).collect::<Vec<_>>().join(", ")),
    }
}

// ---- HTML and JavaScript --------------------------------------------------------

fn check_site(hostile: &Bed, stand_in: &Bed) {
    let files = site::generate_in(&hostile.rules, &hostile.translations);
    let expected = site::generate_in(&stand_in.rules, &stand_in.translations);
    assert_eq!(files.len(), expected.len());
    for (file, want) in files.iter().zip(&expected) {
        match file.name.as_str() {
            name if name.ends_with(".html") => {
                let tags = html_tags(&file.contents);
                same(&tags, &html_tags(&want.contents), "index.html's tags", &file.contents, &want.contents);
                let scripts = tags.iter().filter(|t| t.starts_with("script")).count();
                assert_eq!(scripts, 2, "index.html has {scripts} scripts");
            }
            "rules.js" => {
                let (got, want_js) = (js_skeleton(&file.contents), js_skeleton(&want.contents));
                let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
                same(&lines(&got), &lines(&want_js), "rules.js's code", &file.contents, &want.contents);
            }
            _ => assert_eq!(file.contents, want.contents, "{} is a fixed asset", file.name),
        }
    }
}

/// The tags of an HTML document (`name attr attr`, `/name`) and its comments
/// (`<!---->`), in order, as a browser's tokenizer reads them.
pub fn html_tags(html: &str) -> Vec<String> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        if let Some(comment) = rest.strip_prefix("!--") {
            let end = comment.find("-->").unwrap_or(comment.len());
            tags.push("<!---->".to_string());
            rest = comment.get(end + 3..).unwrap_or("");
            continue;
        }
        let mut tag = String::new();
        let mut chars = rest.char_indices().peekable();
        let mut consumed = rest.len();
        let mut in_name = true;
        while let Some((i, c)) = chars.next() {
            match c {
                '>' => {
                    consumed = i + 1;
                    break;
                }
                '"' | '\'' => {
                    // An attribute value: up to its closing quote.
                    for (_, d) in chars.by_ref() {
                        if d == c {
                            break;
                        }
                    }
                }
                '=' => {
                    in_name = false;
                    // An unquoted value: up to whitespace or `>`.
                    while let Some(&(_, d)) = chars.peek() {
                        if d.is_whitespace() || d == '>' || d == '"' || d == '\'' {
                            break;
                        }
                        chars.next();
                    }
                }
                c if c.is_whitespace() => {
                    in_name = true;
                    if !tag.ends_with(' ') {
                        tag.push(' ');
                    }
                }
                c if in_name => tag.push(c),
                _ => {}
            }
        }
        tags.push(tag.trim().to_string());
        rest = rest.get(consumed..).unwrap_or("");
    }
    tags
}

/// JavaScript with every string literal emptied (`""`) and every comment
/// reduced to its opening.
pub fn js_skeleton(js: &str) -> String {
    let mut out = String::with_capacity(js.len());
    let mut chars = js.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\'' | '`' => {
                out.push(c);
                while let Some(d) = chars.next() {
                    if d == '\\' {
                        chars.next();
                    } else if d == c {
                        break;
                    }
                }
                out.push(c);
            }
            '/' if chars.peek() == Some(&'/') => {
                out.push_str("//");
                for d in chars.by_ref() {
                    // What JavaScript takes for a line's end.
                    if matches!(d, '\n' | '\r' | '\u{2028}' | '\u{2029}') {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                out.push_str("/**/");
                let mut star = false;
                for d in chars.by_ref() {
                    if star && d == '/' {
                        break;
                    }
                    star = d == '*';
                }
            }
            c => out.push(c),
        }
    }
    out
}

// ---- wiki ---------------------------------------------------------------------

fn check_wiki(hostile: &Bed, stand_in: &Bed, sources: &Sources) {
    let locales = hostile.translations.locales.first().into_iter().zip(stand_in.translations.locales.first());
    // English, Translate's source page (its units around the texts), and the language.
    let languages =
        [(None, None, false), (None, None, true)].into_iter().chain(locales.map(|(a, b)| (Some(a), Some(b), false)));
    for (locale, stand_in_locale, translate) in languages {
        let options = |locale| export::Options { locale, translate, all_sections: true };
        match (
            export::export_with(&hostile.rules, sources, options(locale)),
            export::export_with(&stand_in.rules, sources, options(stand_in_locale)),
        ) {
            (Ok(page), Ok(want)) => {
                same(&wiki_markup(&page), &wiki_markup(&want), "the wiki source's markup", &page, &want);
            }
            (Err(_), Err(_)) => {}
            (page, want) => {
                panic!("the export and the stand-in's differ in success: {:?} / {:?}", page.err(), want.err())
            }
        }
    }
}

/// What can be wiki markup outside character references, in order.
pub fn wiki_markup(page: &str) -> Vec<String> {
    const PAIRS: [&str; 7] = ["[[", "]]", "{{", "}}", "''", "__", "://"];
    const WORDS: [&str; 3] = ["ISBN ", "RFC ", "PMID "];
    let mut out = Vec::new();
    for (n, line) in page.split('\n').enumerate() {
        let n = n + 1;
        // What a line starts with is markup when it is one of these (a list,
        // an indent, a heading, a rule, preformatted text, a table, a tag); a
        // translated line may start with any other character (a reference
        // such as `&#42;` stands for text).
        if let Some(first) = line.chars().next().filter(|c| "*#:; =-{|!<".contains(*c)) {
            out.push(format!("{n}: line start {first:?}"));
        }
        let mut i = 0;
        while i < line.len() {
            let rest = &line[i..];
            let c = rest.chars().next().unwrap_or(' ');
            if let Some(len) = reference(rest) {
                // A character reference stands for text.
                i += len;
                continue;
            }
            if let Some(token) = PAIRS.iter().chain(&WORDS).find(|t| rest.starts_with(**t)) {
                out.push(format!("{n}: {token}"));
                i += token.len();
                continue;
            }
            if matches!(c, '|' | '<' | '>' | '~' | '[' | ']' | '{' | '}') {
                out.push(format!("{n}: {c}"));
            }
            i += c.len_utf8();
        }
    }
    out
}

/// The length of the character reference `text` starts with (`&amp;`, `&#91;`).
fn reference(text: &str) -> Option<usize> {
    let body = text.strip_prefix('&')?;
    let end = body.find(';')?;
    let name = &body[..end];
    let numeric = name.strip_prefix('#').is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let named = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric());
    (numeric || named).then_some(end + 2)
}

// ---- Markdown and the terminal -----------------------------------------------------

fn check_order(hostile: &Bed, stand_in: &Bed) {
    let languages = hostile.translations.locales.iter().map(Some).zip(stand_in.translations.locales.iter().map(Some));
    for (locale, stand_in_locale) in [(None, None)].into_iter().chain(languages) {
        check_order_in(hostile, stand_in, locale, stand_in_locale);
    }
}

fn check_order_in(hostile: &Bed, stand_in: &Bed, locale: Option<&Locale>, stand_in_locale: Option<&Locale>) {
    let (hostile, stand_in) = (&hostile.rules, &stand_in.rules);
    for cfg in selections(hostile) {
        let mut order = interpret::turn_order(hostile, &cfg);
        let mut want = interpret::turn_order(stand_in, &cfg);
        if let (Some(locale), Some(stand_in_locale)) = (locale, stand_in_locale) {
            locale.translate(&mut order, &hostile.catalog);
            stand_in_locale.translate(&mut want, &stand_in.catalog);
        }
        let md = markdown_events(&render::markdown(&order));
        let (text, want_text) = (render::markdown(&order), render::markdown(&want));
        same(&md, &markdown_events(&want_text), "the Markdown's events", &text, &want_text);
        assert!(!md.iter().any(|e| e.contains("Html")), "raw HTML in the Markdown");
        let text = render::text(&order);
        assert!(!text.chars().any(|c| terminal::is_unsafe(c) && c != '\n'), "a control character in {text:?}");
        assert_eq!(text.lines().count(), render::text(&want).lines().count(), "the text has other lines");
    }
}

/// The base game, every module in the first and last editions.
fn selections(rules: &Rules) -> Vec<Config> {
    let catalog = &rules.catalog;
    let last = catalog.editions.len().saturating_sub(1);
    let all: ModuleSet = catalog.modules.iter().map(|m| m.bit).collect();
    let cfg = |e: usize, modules: ModuleSet| Config {
        edition: EditionId(e as u8),
        variant: catalog.editions[e].default_variant,
        modules,
    };
    vec![cfg(0, ModuleSet::default()), cfg(0, all), cfg(last, all)]
}

/// The parser's events other than text, as their debug form.
pub fn markdown_events(md: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Options, Parser};
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    Parser::new_ext(md, options)
        .filter_map(|event| match event {
            Event::Text(_) => None,
            // The escaper's break of a GitHub mention or autolink is no markup.
            Event::InlineHtml(html) if &*html == carcassonne_rules_runtime::core::escape::markdown::BREAK => None,
            Event::Code(_) => Some("Code".to_string()),
            other => Some(format!("{other:?}")),
        })
        .collect()
}
