//! `man`: the manual pages of the command line, made by clap_mangen from the
//! command's own definition (no rules read), written like `gen`'s files:
//! never through a link, never half a set.

use std::path::PathBuf;

use clap::Args;
use clap_mangen::Man;

use super::shared::{Outcome, print_out, write_error};
use crate::output;

#[derive(Args)]
pub struct ManArgs {
    /// The folder to write the pages into.
    #[arg(long, default_value = ".", value_name = "DIR")]
    out: PathBuf,
}

/// Writes `command`'s page and one per subcommand into `--out`.
pub fn run(command: clap::Command, args: &ManArgs) -> Outcome {
    let files = pages(command).map_err(write_error)?;
    output::finish_writing_on_signal();
    let options = output::SetOptions { lock: false, keep_work_dir: false };
    let written = output::write_set(&args.out, &files, &options).map_err(write_error)?;
    if written.is_empty() {
        print_out(format!("{} is up to date ({} pages)\n", args.out.display(), files.len()));
    }
    for path in written {
        print_out(format!("wrote {}\n", path.display()));
    }
    Ok(())
}

/// The pages as clap_mangen names them (`carcassonne-rules.1`,
/// `carcassonne-rules-order.1`, …), each with its roff source.
fn pages(command: clap::Command) -> Result<Vec<(String, String)>, String> {
    // `help` is a page's own section, not a page (as clap_mangen::generate_to does).
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    add_pages(command, &mut pages)?;
    Ok(pages)
}

/// Adds the page of `command`, then those of its visible subcommands.
fn add_pages(command: clap::Command, pages: &mut Vec<(String, String)>) -> Result<(), String> {
    let subcommands: Vec<clap::Command> = command.get_subcommands().filter(|s| !s.is_hide_set()).cloned().collect();
    let man = Man::new(command);
    let mut roff = Vec::new();
    man.render(&mut roff).map_err(|e| format!("cannot render {}: {e}", man.get_filename()))?;
    let text = String::from_utf8(roff).map_err(|e| format!("{} is not UTF-8: {e}", man.get_filename()))?;
    pages.push((man.get_filename(), text));
    for subcommand in subcommands {
        add_pages(subcommand, pages)?;
    }
    Ok(())
}
