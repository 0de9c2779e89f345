//! The languages compiled into the runtime (its features `lang-nl` and
//! `lang-ru`, which this crate's tests turn on) against the compiler's
//! checked translations: every unit the same, and the same translated turn
//! order — fields, JSON and text — for every module alone and random
//! selections in every edition and variant. And the languages stand under
//! their features: the generated code compiles none in without them (the
//! build of a tiny engine without and with a language, and its size, is
//! `tests/language_cost.rs`).

// Helpers outside `#[test]` functions panic on a broken setup, as tests do.
#![allow(clippy::expect_used)]

use std::path::Path;

use carcassonne_rules_compiler::model::Rules as Model;
use carcassonne_rules_compiler::translation::Translations;
use carcassonne_rules_compiler::{compile_dir, diagnostics};
use carcassonne_rules_runtime::core::lang::{Kind, Language, Unit};
use carcassonne_rules_runtime::core::{Config, EditionId, ModuleSet, VariantId};
use carcassonne_rules_runtime::generated::RULES;
use carcassonne_rules_runtime::{Rules, catalog, languages, locale, render, turn_order, turn_order_in};

fn bundled() -> (Model, Translations) {
    let compiled = compile_dir(Path::new("../../rules"));
    match compiled.result {
        Ok(rules) => (rules, compiled.translations),
        Err(problems) => panic!("{}", diagnostics::render(&problems, false)),
    }
}

/// The base game, every module alone, everything, and 60 random selections
/// from a fixed seed.
fn selections(rules: &Model) -> Vec<ModuleSet> {
    let modules: Vec<_> = rules.catalog.modules.iter().map(|m| m.bit).collect();
    let mut out = vec![ModuleSet::EMPTY, modules.iter().copied().collect()];
    out.extend(modules.iter().map(|&m| ModuleSet::of(m)));
    let mut rng = fastrand::Rng::with_seed(23);
    for _ in 0..60 {
        out.push(modules.iter().copied().filter(|_| rng.u8(..6) == 0).collect());
    }
    out
}

/// A unit of the compiler's translations as the core's [`Unit`] names it.
fn unit(kind: Kind, id: &str) -> Unit<'_> {
    // A unit id is `kind.id`, an item's its id alone.
    let key = if kind.prefix().is_some() { id.split_once('.').map_or(id, |(_, key)| key) } else { id };
    Unit::new(kind, key).expect("a unit of the rules")
}

#[test]
fn every_language_of_the_rules_is_compiled_in_under_its_feature() {
    let (_, translations) = bundled();
    let tags: Vec<&str> = translations.locales.iter().map(|l| l.lang.as_str()).collect();
    assert_eq!(tags, ["nl", "ru"], "the languages of rules/translations/languages.yaml");
    // This crate's tests turn on `all-languages`.
    assert_eq!(languages().iter().map(|l| l.lang).collect::<Vec<_>>(), tags);
    assert_eq!(RULES.languages().len(), tags.len());
    for l in &translations.locales {
        let table = locale(&l.lang).expect("compiled in");
        assert_eq!((table.lang, table.name), (l.lang.as_str(), l.name.as_str()));
    }
    assert!(locale("en").is_none() && locale("de").is_none(), "English is the rules' own; German is not there");
}

#[test]
fn each_table_holds_exactly_the_compilers_translation_of_every_unit() {
    let (rules, translations) = bundled();
    for l in &translations.locales {
        let table = locale(&l.lang).expect("compiled in");
        let (mut translated, mut outdated) = (0, 0);
        for u in &translations.units {
            for e in 0..rules.catalog.editions.len() {
                let edition = EditionId(e as u8);
                let ours = table.text(unit(u.kind, &u.id), edition);
                assert_eq!(ours, l.text(unit(u.kind, &u.id), edition), "{} {} in {e}", l.lang, u.id);
                if e == 0 {
                    match ours.map(|(_, state)| state) {
                        Some(carcassonne_rules_runtime::core::order::Translation::Outdated) => outdated += 1,
                        Some(_) => translated += 1,
                        None => {}
                    }
                }
            }
        }
        let stats = l.statistics(&translations.units);
        assert_eq!((translated, outdated), (stats.translated, stats.outdated), "{}", l.lang);
        assert!(translated > 100, "{}: {translated} units", l.lang);
    }
}

#[test]
fn the_translated_turn_order_is_the_compilers_in_every_edition() {
    let (rules, translations) = bundled();
    let selections = selections(&rules);
    let mut compared = 0;
    for l in &translations.locales {
        let table = locale(&l.lang).expect("compiled in");
        for edition in 0..rules.catalog.editions.len() {
            for variant in 0..rules.catalog.variants.len() {
                for &modules in &selections {
                    let cfg = Config { edition: EditionId(edition as u8), variant: VariantId(variant as u8), modules };
                    let mut expected = turn_order(&cfg);
                    l.translate(&mut expected, catalog());
                    let ours = turn_order_in(&cfg, table);
                    assert_eq!(ours, expected, "{} {cfg:?}", l.lang);
                    assert_eq!(ours.lang.as_deref(), Some(l.lang.as_str()));
                    let json = |order: &carcassonne_rules_runtime::core::TurnOrder| render::json(order).expect("JSON");
                    assert_eq!(json(&ours), json(&expected), "{} {cfg:?}", l.lang);
                    assert_eq!(render::text(&ours), render::text(&expected), "{} {cfg:?}", l.lang);
                    assert_eq!(RULES.translated_turn_order(&cfg, table), ours);
                    compared += 1;
                }
            }
        }
    }
    println!("the runtime's languages and the compiler's agree on {compared} translated turn orders");
}

#[test]
fn a_translated_turn_order_borrows_its_texts_from_the_table() {
    let table = locale("nl").expect("Dutch");
    let cfg = carcassonne_rules_runtime::config(carcassonne_rules_runtime::generated::edition::C2);
    let order = turn_order_in(&cfg, table);
    let step = order.steps().next().expect("a step");
    assert!(matches!(step.title, std::borrow::Cow::Borrowed(_)), "{:?}", step.title);
    let item = order.steps().flat_map(|s| &s.items).next().expect("an item");
    assert!(matches!(item.text, std::borrow::Cow::Borrowed(_)), "{:?}", item.text);
    assert_ne!(order, turn_order(&cfg), "Dutch is not English");
}

/// The generated code of the bundled rules, and the runtime's manifest.
fn generated() -> (syn::File, String) {
    let code = std::fs::read_to_string("src/generated/turn_order.rs").expect("the generated code");
    let manifest = std::fs::read_to_string("Cargo.toml").expect("the manifest");
    (syn::parse_file(&code).expect("Rust"), manifest)
}

/// `#[cfg(feature = "…")]`'s feature, if `attrs` have one.
fn feature(attrs: &[syn::Attribute]) -> Option<String> {
    let attr = attrs.iter().find(|a| a.path().is_ident("cfg"))?;
    let meta: syn::MetaNameValue = attr.parse_args().ok()?;
    meta.path.is_ident("feature").then_some(())?;
    match meta.value {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
        _ => None,
    }
}

#[test]
fn without_its_feature_no_language_is_compiled_in() {
    let (_, translations) = bundled();
    let (code, manifest) = generated();
    let mut modules = Vec::new();
    let mut listed = Vec::new();
    for item in &code.items {
        match item {
            syn::Item::Mod(m) if m.ident.to_string().starts_with("lang_") => {
                modules.push((m.ident.to_string(), feature(&m.attrs)));
                // Its tables are a file of their own, included only here.
                let content = m.content.as_ref().map(|(_, items)| items.len());
                assert_eq!(content, Some(1), "{}: one include!", m.ident);
            }
            syn::Item::Static(s) if s.ident == "LANGUAGES" => {
                let syn::Expr::Reference(r) = s.expr.as_ref() else { panic!("LANGUAGES is &[…]") };
                let syn::Expr::Array(array) = r.expr.as_ref() else { panic!("LANGUAGES is &[…]") };
                for element in &array.elems {
                    let syn::Expr::Reference(e) = element else { panic!("an entry is &lang_…::LANG") };
                    listed.push(feature(&e.attrs));
                }
            }
            _ => {}
        }
    }
    let features: Vec<String> = translations.locales.iter().map(|l| format!("lang-{}", l.lang)).collect();
    let expected: Vec<(String, Option<String>)> =
        translations.locales.iter().map(|l| (format!("lang_{}", l.lang), Some(format!("lang-{}", l.lang)))).collect();
    assert_eq!(modules, expected, "one module per language, each under its feature");
    assert_eq!(listed, features.iter().cloned().map(Some).collect::<Vec<_>>(), "each entry under its feature");
    // Nothing else of a language is in the rules' own file.
    let text = std::fs::read_to_string("src/generated/turn_order.rs").expect("the generated code");
    assert!(!text.contains("Een tegel trekken"), "a Dutch title in the rules' own file");
    // Each feature is the runtime's (else cfg would never hold), and
    // `all-languages` turns on every one.
    let section = manifest.split("[features]").nth(1).expect("features").split("\n[").next().expect("a section");
    for f in &features {
        assert!(section.lines().any(|l| l.starts_with(&format!("{f} = []"))), "Cargo.toml declares {f}");
    }
    let all = section.lines().find(|l| l.starts_with("all-languages = ")).expect("all-languages");
    for f in &features {
        assert!(all.contains(&format!("\"{f}\"")), "all-languages turns on {f}: {all}");
    }
}

/// What an engine that asks for no language gets: only in a build without
/// the feature (this crate's own tests turn it on; `tests/language_cost.rs`
/// builds an engine without it).
#[cfg(not(feature = "lang-nl"))]
#[test]
fn a_build_without_the_feature_has_no_dutch() {
    assert!(locale("nl").is_none());
    assert!(languages().iter().all(|l| l.lang != "nl"));
}
