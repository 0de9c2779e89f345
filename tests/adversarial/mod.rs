//! A generator of adversarial rules folders (issue 36): each shape is the
//! bundled rules plus something a hostile contributor could add, small
//! enough to pass the reader's 8 MiB cap, and built to make some pass do
//! far more work than the rules' size suggests.
//!
//! The shapes the issue found (origins of a big flag named many times, a
//! xor of parity chains, many diagnostics in one file, orphaned translation
//! keys) and others: a flag that doubles at every level of its chain named
//! by many items (shared subexpressions, many references), a chain of flags
//! as deep as `check` allows under items nested as deep as it allows, one
//! random condition of 100,000 terms, and a long file of ordinary items.

// Test helpers, not library code: a failed setup step should stop the test.
#![allow(clippy::expect_used, dead_code)]

use std::fmt::Write as _;
use std::path::Path;

/// One shape: its name, and the file and item a command is pointed at.
pub struct Shape {
    pub name: &'static str,
    /// Writes the rules folder into the given (empty) folder.
    pub build: fn(&Path, &Size) -> Target,
}

/// What the commands are pointed at in a built shape.
pub struct Target {
    /// The file the language server opens, relative to the rules folder.
    pub file: String,
    /// The item `explain` explains.
    pub item: String,
    /// The modules `order` and `explain` select.
    pub with: String,
}

/// How big the shapes are: the sizes, or a tenth for a quick run.
pub struct Size {
    pub scale: usize,
}

impl Size {
    pub const FULL: Size = Size { scale: 10 };

    /// `n` at the size, scaled down for a quick run.
    fn of(&self, n: usize) -> usize {
        (n * self.scale / 10).max(1)
    }
}

pub const SHAPES: &[Shape] = &[
    Shape { name: "origins: a flag of 3,000 pairs named 1,000 times", build: origins },
    Shape { name: "parity: a xor of 8 parity chains as 128 terms", build: parity },
    Shape { name: "diagnostics: 30,000 unknown modules in one file", build: diagnostics },
    Shape { name: "orphans: 20,000 orphaned translation keys", build: orphans },
    Shape { name: "shared: a doubling flag named 30 times by 300 items", build: shared },
    Shape { name: "deep: a chain of 31 flags under items 31 deep", build: deep },
    Shape { name: "random: one condition of 100,000 random 3-literal terms", build: random },
    Shape { name: "long: 7 MB of ordinary items", build: long },
    Shape { name: "mentions: a flag of 6,000 terms named 300,000 times", build: mentions },
];

/// The rules bundled with the project.
fn bundled() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create a folder");
    for entry in std::fs::read_dir(from).expect("read a folder") {
        let entry = entry.expect("an entry");
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy a file");
        }
    }
}

/// The bundled rules in `dir`, no language required (the shapes' new
/// items have no translation), and the bundled modules' ids.
fn base(dir: &Path) -> Vec<String> {
    copy_dir(bundled(), dir);
    let languages = dir.join("translations/languages.yaml");
    let text = std::fs::read_to_string(&languages).expect("read").replace("required: true", "required: false");
    std::fs::write(languages, text).expect("write");
    let modules = std::fs::read_to_string(dir.join("modules.yaml")).expect("read");
    assert!(modules.contains("\nderived:\n"), "derived flags last");
    modules
        .split("{ id: ")
        .skip(1)
        .filter_map(|rest| rest.split(',').next())
        .map(|id| id.trim_matches('"').to_string())
        .collect()
}

/// Adds derived flags (`name: condition` lines) at the end of modules.yaml.
fn add_flags(dir: &Path, flags: &str) {
    let path = dir.join("modules.yaml");
    let mut text = std::fs::read_to_string(&path).expect("read");
    text.push('\n');
    text.push_str(flags);
    std::fs::write(path, text).expect("write");
}

/// Adds items (YAML at four spaces) to step 4A at the end of the abbot's
/// file, which has none there: a step, which every output writes (the wiki
/// page has no setup); its path.
fn add_items(dir: &Path, items: &str) -> String {
    let file = "expansions/the-abbot.yaml";
    let path = dir.join(file);
    let mut text = std::fs::read_to_string(&path).expect("read");
    assert!(!text.contains("\n  4A:"), "the file has no items in 4A yet");
    text.push_str("\n  4A:\n");
    text.push_str(items);
    std::fs::write(path, text).expect("write");
    file.to_string()
}

fn item(out: &mut String, id: &str, when: &str) {
    let _ = writeln!(out, "    - id: {id}\n      when: {when}\n      text: Item {id}.");
}

fn origins(dir: &Path, size: &Size) -> Target {
    let ids = base(dir);
    let (firsts, seconds) = ids.split_at(40);
    let terms: Vec<String> =
        (0..size.of(3_000)).map(|n| format!("({} and {})", firsts[n % 40], seconds[n / 40 % seconds.len()])).collect();
    add_flags(dir, &format!("  hostile_pairs: {}\n", terms.join(" or ")));
    let mut items = String::new();
    item(&mut items, "hostile-references", &vec!["hostile_pairs"; size.of(1_000)].join(" or "));
    let file = add_items(dir, &items);
    Target { file, item: "hostile-references".into(), with: format!("{},{}", firsts[0], seconds[0]) }
}

fn parity(dir: &Path, size: &Size) -> Target {
    let ids = base(dir);
    let chains = if size.scale >= 10 { 8 } else { 5 };
    let mut flags = String::new();
    for c in 0..chains {
        // Ten of the first eleven modules and one of its own: chains that
        // share most modules, so that their xor decides quickly.
        let own: Vec<&String> = (0..11).filter(|&k| k != c).map(|k| &ids[k]).chain([&ids[11 + c]]).collect();
        let m = |k: usize| own[k];
        let _ = writeln!(flags, "  par{c}_1: ({} and not {}) or (not {} and {})", m(0), m(1), m(0), m(1));
        for k in 2..=10 {
            let (p, x) = (format!("par{c}_{}", k - 1), m(k));
            let _ = writeln!(flags, "  par{c}_{k}: ({p} and not {x}) or (not {p} and {x})");
        }
    }
    add_flags(dir, &flags);
    // Every assignment of the chains with an odd number true: their xor.
    let terms: Vec<String> = (0..1u32 << chains)
        .filter(|a| a.count_ones() % 2 == 1)
        .map(|a| {
            let lits: Vec<String> =
                (0..chains).map(|c| format!("{}par{c}_10", if a & (1 << c) != 0 { "" } else { "not " })).collect();
            format!("({})", lits.join(" and "))
        })
        .collect();
    let mut items = String::new();
    item(&mut items, "hostile-xor", &terms.join(" or "));
    let file = add_items(dir, &items);
    Target { file, item: "hostile-xor".into(), with: ids[0].clone() }
}

fn diagnostics(dir: &Path, size: &Size) -> Target {
    base(dir);
    let mut items = String::new();
    for n in 0..size.of(30_000) {
        item(&mut items, &format!("hostile-item-{n}"), &format!("no_such_module_{n}"));
    }
    let file = add_items(dir, &items);
    Target { file, item: "hostile-item-0".into(), with: String::new() }
}

fn orphans(dir: &Path, size: &Size) -> Target {
    base(dir);
    let file = "translations/nl/expansions/the-abbot.yaml";
    let path = dir.join(file);
    let mut text = std::fs::read_to_string(&path).expect("read");
    for n in 0..size.of(20_000) {
        let _ = write!(text, "  no-such-item-{n}:\n    from: \"Nothing {n}\"\n    text: \"Niets {n}\"\n");
    }
    std::fs::write(path, text).expect("write");
    Target { file: file.into(), item: "abbot-deploy".into(), with: "abbot".into() }
}

/// `sh_k` names `sh_{k-1}` twice, so it doubles with every level: the last
/// fits check's 10,000 expanded terms, and every item names it 30 times:
/// 245,000 terms an item once expanded, which `check` never does.
fn shared(dir: &Path, size: &Size) -> Target {
    let ids = base(dir);
    let mut flags = format!("  sh_0: {} or {}\n", ids[0], ids[1]);
    for k in 1..=9 {
        let _ =
            writeln!(flags, "  sh_{k}: (sh_{} and {}) or (sh_{} and not {})", k - 1, ids[k + 1], k - 1, ids[k + 20]);
    }
    add_flags(dir, &flags);
    let when = vec!["sh_9"; size.of(30)].join(" or ");
    let mut items = String::new();
    for n in 0..size.of(300) {
        item(&mut items, &format!("hostile-shared-{n}"), &when);
    }
    let file = add_items(dir, &items);
    Target { file, item: "hostile-shared-0".into(), with: format!("{},{}", ids[0], ids[2]) }
}

/// A chain of flags each naming the one before and a module, as long as
/// `check` takes, named by items nested as deep as it takes.
fn deep(dir: &Path, size: &Size) -> Target {
    let ids = base(dir);
    let mut flags = format!("  deep_0: {}\n", ids[0]);
    for k in 1..31 {
        let _ =
            writeln!(flags, "  deep_{k}: (deep_{} and {}) or {}", k - 1, ids[k % ids.len()], ids[(k + 40) % ids.len()]);
    }
    add_flags(dir, &flags);
    let when = vec!["deep_30"; size.of(100)].join(" or ");
    let mut items = String::new();
    for n in 0..size.of(20) {
        let _ = writeln!(items, "    - id: hostile-deep-{n}-0\n      when: {when}\n      text: Deep {n}.");
        for d in 1..31 {
            let pad = "  ".repeat(d * 2);
            let _ = writeln!(
                items,
                "{pad}  children:\n{pad}    - id: hostile-deep-{n}-{d}\n{pad}      when: deep_{}\n{pad}      text: Deep {n} {d}.",
                30 - d
            );
        }
    }
    let file = add_items(dir, &items);
    Target { file, item: "hostile-deep-0-30".into(), with: ids[0].clone() }
}

/// One condition of random terms of three literals over every module (a
/// fixed seed: the same rules every run).
fn random(dir: &Path, size: &Size) -> Target {
    let ids = base(dir);
    let mut state = 36u64;
    let mut next = |n: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize % n
    };
    let terms: Vec<String> = (0..size.of(100_000))
        .map(|_| {
            let lits: Vec<String> =
                (0..3).map(|_| format!("{}{}", if next(2) == 0 { "not " } else { "" }, ids[next(ids.len())])).collect();
            format!("({})", lits.join(" and "))
        })
        .collect();
    let mut items = String::new();
    item(&mut items, "hostile-random", &terms.join(" or "));
    let file = add_items(dir, &items);
    Target { file, item: "hostile-random".into(), with: format!("{},{}", ids[0], ids[1]) }
}

/// Many ordinary items, each with a long text and a small condition.
fn long(dir: &Path, size: &Size) -> Target {
    let ids = base(dir);
    let text = "A long text of an ordinary item, as rules authors write them. ".repeat(4);
    let mut items = String::new();
    for n in 0..size.of(20_000) {
        let other = n + 1 + (n / ids.len()) % (ids.len() - 1);
        let when = format!("{} and not {}", ids[n % ids.len()], ids[other % ids.len()]);
        let _ = writeln!(items, "    - id: hostile-long-{n}\n      when: {when}\n      text: {text}{n}.");
    }
    let file = add_items(dir, &items);
    Target { file, item: "hostile-long-0".into(), with: ids[0].clone() }
}

/// A flag that doubles at every level but stands for one module (its BDD
/// is one node, so `check` decides it in a moment), named 300,000 times by
/// one item: evaluated at every mention it is 1.8 billion terms.
fn mentions(dir: &Path, size: &Size) -> Target {
    let ids = base(dir);
    let mut flags = format!("  x_0: {}\n", ids[0]);
    for k in 1..=10 {
        let _ = writeln!(flags, "  x_{k}: (x_{} and {}) or (x_{} and {})", k - 1, ids[0], k - 1, ids[0]);
    }
    add_flags(dir, &flags);
    let mut items = String::new();
    item(&mut items, "hostile-mentions", &vec!["x_10"; size.of(300_000)].join(" or "));
    let file = add_items(dir, &items);
    Target { file, item: "hostile-mentions".into(), with: ids[1].clone() }
}
