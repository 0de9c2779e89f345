//! `completions`: the shell completion script for the whole command line,
//! made by clap_complete from the command's own definition (no rules read).

use clap::Args;
use clap_complete::Shell;

use super::shared::{Outcome, print_out};

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Prints the script that completes `command` in the chosen shell.
pub fn run(mut command: clap::Command, args: &CompletionsArgs) -> Outcome {
    let name = command.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, name, &mut script);
    print_out(script);
    Ok(())
}
