//! A compiled rule set, whichever rules it was compiled from: the bundled
//! ones ([`crate::generated`]) or an engine's own, compiled in its `build.rs`
//! with `carcassonne-rules-build` and brought in with
//! [`include_rules!`](crate::include_rules). Both run through the same
//! resolver and driver.

use carcassonne_rules_core::{Catalog, Config, EditionId, LangTable, ModuleSet, TurnOrder, VariantId};

/// What the runtime needs of compiled rules. [`include_rules!`](crate::include_rules)
/// implements it for the generated code it includes; nothing else needs to.
pub trait Rules {
    /// The editions, variants, expansions and modules these rules know.
    fn catalog(&self) -> &'static Catalog;

    /// The turn order of `cfg` under these rules, borrowing their tables.
    fn turn_order(&self, cfg: &Config) -> TurnOrder<'static>;

    /// The languages of these rules compiled in, in `languages.yaml`'s
    /// order: for the bundled rules those the runtime's features ask for
    /// (`lang-nl`, `lang-ru`, `all-languages`), for an engine's rules those its
    /// build script asks for; none unless asked for.
    fn languages(&self) -> &'static [&'static LangTable];

    /// The language `tag` (`nl`), if it is compiled in.
    fn locale(&self, tag: &str) -> Option<&'static LangTable> {
        self.languages().iter().copied().find(|l| l.lang == tag)
    }

    /// The turn order of `cfg` in the language `lang` (one of
    /// [`languages`](Rules::languages)): its titles, texts, marker labels and
    /// words where the language has them, English elsewhere; the order's
    /// `lang`, each entry's `translation` state and its `words` set, exactly
    /// as the compiler's translation gives them. The texts borrow the
    /// language's static table: nothing is copied.
    fn translated_turn_order(&self, cfg: &Config, lang: &LangTable) -> TurnOrder<'static> {
        let mut order = self.turn_order(cfg);
        carcassonne_rules_core::lang::translate(lang, &mut order, self.catalog());
        order
    }

    /// `edition` under its default rule variant, with no module selected:
    /// `rules.config(edition::C2).with(module::BUILDER)`. An edition these
    /// rules do not list (only a hand-made [`EditionId`] can be one) gets the
    /// first variant.
    fn config(&self, edition: EditionId) -> Config {
        let variant = self.catalog().editions.get(usize::from(edition.0)).map_or(VariantId(0), |e| e.default_variant);
        Config { edition, variant, modules: ModuleSet::EMPTY }
    }
}

/// Includes rules compiled by `carcassonne-rules-build` (by default
/// `$OUT_DIR/carcassonne_rules.rs`) into the current module, and gives them
/// the same API as the bundled rules of [`crate::generated`]: the typed ids
/// `edition`, `variant`, `module`, `step`, `item` and `marker`, `LANGUAGES`
/// (the languages the build script compiled in), and `RULES`, the
/// [`Rules`](crate::Rules) value that resolves their turn orders.
///
/// ```ignore
/// mod rules {
///     carcassonne_rules_runtime::include_rules!();
/// }
/// use carcassonne_rules_runtime::Rules as _;
/// let cfg = rules::RULES.config(rules::edition::C2).with(rules::module::BUILDER);
/// let order = rules::RULES.turn_order(&cfg);
/// ```
///
/// A rule set numbers its own modules (in the order of their ids), so use the
/// constants of the rules you include, never those of another rule set.
/// `include_rules!(concat!(…))` includes another file, as `include!` does.
#[macro_export]
macro_rules! include_rules {
    () => {
        $crate::include_rules!(concat!(env!("OUT_DIR"), "/carcassonne_rules.rs"));
    };
    ($($file:tt)+) => {
        /// The generated dispatch and tables, whole; the module around them
        /// re-exports what an engine uses.
        #[allow(unused, missing_docs, clippy::all)]
        pub(crate) mod compiled {
            // The generated code names the shared types by their crate, which
            // an engine reaches through the runtime.
            #[allow(unused_imports)]
            use $crate::core as carcassonne_rules_core;
            include!($($file)+);
        }
        pub use self::compiled::{LANGUAGES, edition, item, marker, module, step, variant};
        #[allow(unused_imports)]
        pub(crate) use self::compiled::{TABLES, Visible, visible};

        /// These rules, compiled: resolves their turn orders.
        #[derive(Debug, Clone, Copy, Default)]
        pub struct CompiledRules;

        /// These rules, compiled.
        pub const RULES: CompiledRules = CompiledRules;

        impl $crate::Rules for CompiledRules {
            fn catalog(&self) -> &'static $crate::core::Catalog {
                static CATALOG: $crate::__private::LazyLock<$crate::core::Catalog> =
                    $crate::__private::LazyLock::new(self::compiled::catalog);
                &CATALOG
            }

            fn turn_order(&self, cfg: &$crate::core::Config) -> $crate::core::TurnOrder<'static> {
                $crate::__private::turn_order(&self::compiled::TABLES, self.catalog(), &self::compiled::visible(cfg), cfg)
            }

            fn languages(&self) -> &'static [&'static $crate::core::LangTable] {
                self::compiled::LANGUAGES
            }
        }
    };
}
