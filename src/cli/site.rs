//! `site`: write the order of play as a static web page.

use std::path::{Path, PathBuf};

use clap::Args;

use carcassonne_rules_backends::site::{self, Runtime};

use super::bundled::{self, Source};
use super::shared::{Outcome, print_out, write_error};
use crate::output;

#[derive(Args)]
pub struct SiteArgs {
    /// The folder to write the page into.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// The runtime compiled to WebAssembly and the JavaScript package's glue
/// (`js/`, in this crate's package): the page's "Play a turn" runs on them.
/// The module holds the bundled rules (`js/build.sh` builds it from the
/// runtime's generated code, which `gen --check` keeps equal to them).
const RUNTIME: Runtime<'static> =
    Runtime { module: include_str!("../../js/wasm.js"), glue: include_str!("../../js/carcassonne-rules.js") };

pub fn run(rules: Option<&Path>, args: &SiteArgs) -> Outcome {
    let out = &args.out;
    let compiled = Source::of(rules).compile();
    let checked = compiled.result?;
    // Other rules than the module's have no "Play a turn": it would play the bundled ones.
    let runtime = bundled::same_rules(&checked, &compiled.sources).then_some(RUNTIME);
    let page = site::generate_with(&checked, &compiled.translations, runtime);
    // The folder is empty, new, or holds a page written before.
    let names: Vec<&str> = page.iter().map(|f| f.name.as_str()).collect();
    output::owned_folder(out, &names).map_err(write_error)?;
    let files: Vec<(String, String)> = page.iter().map(|f| (f.name.to_string(), f.contents.clone())).collect();
    output::finish_writing_on_signal();
    let options = output::SetOptions { lock: false, keep_work_dir: false };
    output::write_set(out, &files, &options).map_err(write_error)?;
    let pages = files.iter().filter(|(name, _)| name.ends_with(".html")).count();
    print_out(format!(
        "wrote {} ({} languages) and its {} files\n",
        out.join("index.html").display(),
        pages,
        files.len() - pages
    ));
    Ok(())
}
