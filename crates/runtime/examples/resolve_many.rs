//! Resolves one selection's turn order many times, for instruction counts
//! that do not depend on the machine's load (`docs/performance.md`):
//!
//! ```text
//! cargo build --release -p carcassonne-rules-runtime --example resolve_many
//! valgrind --tool=callgrind target/release/examples/resolve_many 1000 C1 \
//!     traders_and_builders,princess_and_dragon,abbey_and_mayor,count_king_and_robber
//! ```
//!
//! Arguments: how many times (default 1000), the edition (default `C1`), the
//! `--with` list (default the four expansions of the benchmark).

use std::hint::black_box;
use std::process::ExitCode;

use carcassonne_rules_runtime::{catalog, turn_order};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let times: usize = match args.next().map(|n| n.parse()) {
        None => 1000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("error: the first argument is how many times to resolve: {e}");
            return ExitCode::FAILURE;
        }
    };
    let edition = args.next().unwrap_or_else(|| "C1".to_owned());
    let with = args
        .next()
        .unwrap_or_else(|| "traders_and_builders,princess_and_dragon,abbey_and_mayor,count_king_and_robber".to_owned());
    let cfg = match catalog().config(&edition, None, &with) {
        Ok(cfg) => cfg,
        Err(errors) => {
            errors.iter().for_each(|e| eprintln!("error: {}", e.message));
            return ExitCode::FAILURE;
        }
    };
    let mut entries = 0;
    for _ in 0..times {
        let order = turn_order(black_box(&cfg));
        entries += order.steps().map(|s| s.items.len()).sum::<usize>();
        drop(black_box(order));
    }
    println!("{times} resolutions, {entries} top-level step items in all");
    ExitCode::SUCCESS
}
