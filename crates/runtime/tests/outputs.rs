//! Every output keeps its structure whatever the rules' names and texts hold
//! (issue 13): the checks of the fuzz target `outputs` (`fuzz/src/outputs.rs`,
//! included here), on hand-picked hostile strings and on random ones.

#[path = "../../../fuzz/src/outputs.rs"]
mod outputs;

use std::path::Path;
use std::sync::LazyLock;

use proptest::prelude::*;

static BED: LazyLock<outputs::Bed> = LazyLock::new(|| outputs::Bed::new(Path::new("../../rules")));

/// Strings a hostile rule author would try, one kind of attack each.
const NASTY: &[&str] = &[
    // Rust: end a literal, a raw literal, a comment, a block; a doc comment's line.
    "\"); pub fn injected() {} const _: &str = (\"",
    "\"#; #[unsafe(no_mangle)] pub extern \"C\" fn zz() {} r#\"",
    "*/ } ] ) // /* \\ \\\\ \\\"",
    "Mayor\n#[unsafe(no_mangle)] pub extern \"C\" fn zz() {}\n//",
    "a\r\nb\rc\u{0}d\u{7f}",
    // Terminal: ESC sequences, C1, bidi, separators.
    "\u{1b}[2J\u{1b}]52;c;ZWNobw==\u{7}\u{1b}]8;;https://x\u{1b}\\link",
    "\u{9b}31m\u{85}\u{9d}0;t\u{9c}",
    "\u{202e}\u{2066}abc\u{2069}\u{202c}\u{200f}\u{61c}",
    "\u{2028}\u{2029}\u{feff}\u{200b}",
    // HTML and JavaScript.
    "x--><img src=x onerror=alert(1)><!--.yaml",
    "</script><script>alert(1)</script>",
    "\" onclick=\"alert(1)\" x='",
    "'; alert(1); '",
    "${alert(1)}`",
    // Wiki.
    "_NOTOC_",
    "_",
    "x_",
    "{{Template|a=b}} [[Link|x]] ~~~~ '''bold''' ''",
    "* list\n# list\n: indent\n; term\n= h =\n----",
    "https://example.org ISBN 0-00-000000-0 RFC 1 PMID 2",
    "<nowiki>x</nowiki> &amp; &#60;",
    "|}\n{|",
    // Markdown.
    "text\n# Heading",
    "*a* _b_ `c` [d](javascript:alert(1)) ![e](f) <b>g</b>",
    "| a | b |\n|---|---|",
    "1. x",
    "- y",
    "    code",
    "> quote",
    "#",
    "",
    " ",
    "non-ASCII: «Glück» 2× 🂡 — ü",
    // Found by the fuzz target: whitespace inside `**…**` keeps it from closing.
    "- ",
    "x\u{3000}",
];

// Each string in every slot, then all of them in turn: in two tests, which
// the test harness runs at once (each check builds every output).
#[test]
fn the_first_half_of_the_hostile_strings_changes_no_output_s_structure() {
    for nasty in &NASTY[..NASTY.len() / 2] {
        BED.check(&[nasty.to_string()]);
    }
}

#[test]
fn the_other_half_and_all_hostile_strings_in_turn_change_no_output_s_structure() {
    for nasty in &NASTY[NASTY.len() / 2..] {
        BED.check(&[nasty.to_string()]);
    }
    BED.check(&NASTY.iter().map(|s| s.to_string()).collect::<Vec<_>>());
}

#[test]
fn a_fuzz_input_splits_into_strings_at_0xff() {
    assert_eq!(outputs::strings(b"a\xffb\xfe\xff"), ["a", "b\u{fffd}", ""]);
}

#[test]
fn the_checks_fail_on_a_planted_mistake() {
    // What an unescaped emitter would write: an item more, a tag more, a
    // comment ended, a heading opened, markup made.
    let code = |extra: &str| format!("pub const A: u8 = 1;{extra}");
    let items = |c: &str| syn::parse_file(c).map(|f| outputs::rust_items(&f.items)).unwrap_or_default();
    assert_ne!(items(&code("")), items(&code(" pub const B: u8 = 2;")));
    assert_ne!(outputs::html_tags("<!-- x&gt;y --><p>a</p>"), outputs::html_tags("<!-- x-->y<b> --><p>a</p>"));
    assert_ne!(outputs::html_tags("<p>a</p>"), outputs::html_tags("<p>a<img src=x onerror=y></p>"));
    assert_ne!(outputs::js_skeleton("// a\nf();"), outputs::js_skeleton("// a\u{2028}g();\nf();"));
    assert_ne!(outputs::js_skeleton("x = \"a\";"), outputs::js_skeleton("x = \"a\"; y();"));
    assert_ne!(outputs::wiki_markup("<li>x</li>"), outputs::wiki_markup("<li>x__NOTOC__</li>"));
    assert_ne!(outputs::wiki_markup("<li>x</li>"), outputs::wiki_markup("<li>x&#95;&#95;</li>\n* y"));
    assert_ne!(outputs::markdown_events("- a\n"), outputs::markdown_events("- a\n# b\n"));
    assert_ne!(outputs::markdown_events("- a\n"), outputs::markdown_events("- *a*\n"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Random strings of any characters, markup-heavy ones more often.
    #[test]
    fn random_names_and_texts_change_no_output_s_structure(
        strings in proptest::collection::vec("(\\PC|[\\x00-\\x1f\\x7f-\\x9f\"'`\\\\<>&|*_#\\[\\]{}~:;=\\- ])*", 1..8)
    ) {
        BED.check(&strings);
    }
}
