//! The types shared by the carcassonne-rules compiler, the Rust code it
//! generates, and the runtime that executes that code.
//!
//! - [`select`]: a selection of edition, rule variant and modules ([`Config`]).
//! - [`catalog`]: the editions, variants, expansions and modules a rule set knows,
//!   and turning a command line's `--edition`/`--with` into a [`Config`].
//! - [`tables`]: the static description of compiled rules (steps, items, texts).
//! - [`visible`]: what one selection shows, as bit sets over those tables.
//! - [`order`]: a selection's turn order, resolved into printable values that
//!   borrow the tables, with typed ids and origins; the shared labels.
//! - [`lang`]: a language's translations of the rules' texts (the compiler's,
//!   or the generated [`LangTable`]), and turning a turn order into it.
//! - `escape` (hidden: the workspace's crates share it): text for the terminal
//!   and for Markdown, shown as written, and untrusted values quoted in messages.
//!
//! Nothing here knows any particular rules: ids and names come from the rules
//! the compiler reads.

#![forbid(unsafe_code)]

mod bits;
pub mod catalog;
// The escapers are shared with the compiler, the language server and the wiki
// crate, not an engine's API.
#[doc(hidden)]
pub mod escape;
pub mod lang;
pub mod order;
pub mod section;
pub mod select;
pub mod suggest;
pub mod tables;
pub mod visible;
pub mod words;

pub use catalog::Catalog;
pub use lang::{LangTable, Language};
pub use order::{DoubleTurnBlock, Effect, Entry, NamedEffect, Origin, PhaseOrder, Repeat, StepOrder, Str, TurnOrder};
pub use section::{Section, Sections};
pub use select::{Config, EditionId, ModuleId, ModuleSet, VariantId};
pub use tables::{Actor, Flow, ItemId, ItemRepeat, MarkerId, OriginId, Role, StepId, Tables};
pub use visible::{BitSet, Visible};
