//! `site`: write the order of play as a static web page.

use std::path::{Path, PathBuf};

use clap::Args;

use super::bundled::Source;
use super::shared::{Outcome, print_out, write_error};
use crate::output;

#[derive(Args)]
pub struct SiteArgs {
    /// The folder to write the page into.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

pub fn run(rules: Option<&Path>, args: &SiteArgs) -> Outcome {
    let out = &args.out;
    let compiled = Source::of(rules).compile();
    let page = carcassonne_rules_backends::site::generate_in(&compiled.result?, &compiled.translations);
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
