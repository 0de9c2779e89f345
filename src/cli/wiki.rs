//! `wiki`: write the order of play as wiki source.

use std::path::{Path, PathBuf};

use clap::Args;

use super::bundled::Source;
use carcassonne_rules_wiki::export::{self, Options};

use super::shared::{LangArgs, Outcome, print_out, write_error};
use crate::output;

#[derive(Args)]
pub struct WikiArgs {
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    lang: LangArgs,
    /// Write the English source page of MediaWiki's Translate extension:
    /// every item's text and every title in `<translate>`, one `<!--T:…-->`
    /// unit each, named by its id.
    #[arg(long, conflicts_with = "lang")]
    translate: bool,
    /// Which sections to write: those the page has (`page`: the
    /// introduction, "at any time" and the steps), or `all` (Setup and
    /// Final scoring too).
    #[arg(long, value_enum, default_value_t = Sections::Page)]
    sections: Sections,
}

/// The sections `wiki` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Sections {
    /// Those the Order of Play page has.
    Page,
    /// Setup and Final scoring too.
    All,
}

pub fn run(rules: Option<&Path>, args: &WikiArgs) -> Outcome {
    let compiled = Source::of(rules).compile();
    let rules = compiled.result?;
    args.lang.check(&compiled.translations)?;
    let locale = compiled.translations.locale(&args.lang.lang);
    let options = Options { locale, translate: args.translate, all_sections: args.sections == Sections::All };
    // The run's budget, which `check` spent from: the export charges it too.
    let text = export::export_within(&rules, &compiled.sources, options, compiled.budget.clone())?;
    output::finish_writing_on_signal();
    output::write_file(&args.out, &text).map_err(write_error)?;
    print_out(format!("wrote {}\n", args.out.display()));
    Ok(())
}
