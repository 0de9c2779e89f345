//! The order-of-play page (`carcassonne-rules site`) in a real, headless
//! Chromium driven over WebDriver, showing for every selection what the
//! runtime computes.
//!
//! The browser test sets the controls by clicking them as a user would (edition,
//! publisher, expansions, modules, "clear", "what changed"), reads what is
//! rendered (visible items with their ids, order, nesting, texts, markers,
//! foreign and origin badges; steps with their repeats and leads) and compares
//! it with `carcassonne_rules_runtime::turn_order` — what `order --format json`
//! prints — for random selections from a fixed seed, at desktop and phone
//! widths; it reloads the page from its shareable link and checks the selection
//! is restored, and opens a hand-written link. Then it sets thousands of
//! selections through the controls (every module alone, every pair, 300
//! random) and compares every shown item's origin badge with the runtime's.
//!
//! "Play a turn" (the runtime in WebAssembly, on a page of the bundled rules
//! only) is played through the page (its buttons) and through `play --format
//! json --answers -` with the same random answers, for 30 random selections:
//! the same prompts (who answers each and whether it is a must included, as
//! the page shows them) and trace, and the log's words those of the trace
//! with the edition's texts. Each prompt of another player than the active
//! one names them, a must shows one button ("Done") and no way to decline
//! it, and a link that declines one is refused as `play` refuses it. Undo is
//! checked against `play` of the answers kept; a turn reloaded mid-way
//! resumes at the same prompt, Back leaves the play mode, and the 101st
//! go-back is refused as `play` refuses it.
//!
//! The browser tests need Chromium (`/usr/bin/chromium` and
//! `/usr/bin/chromedriver`, or `CARCASSONNE_CHROMIUM` and
//! `CARCASSONNE_CHROMEDRIVER`): `cargo test` leaves this package out, `cargo
//! test -p carcassonne-rules-browser-tests` reports them as ignored, and
//! `cargo build && cargo test -p carcassonne-rules-browser-tests -- --ignored`
//! (as `.ci/run` does) runs them, failing
//! where Chromium is missing. `CARCASSONNE_SITE_SCREENSHOT=FILE` also
//! writes a screenshot of the page (C2, Abbey & Mayor and the builder),
//! `CARCASSONNE_SITE_PLAY_SCREENSHOT=FILE` one of "Play a turn" on a phone.

// Helpers outside `#[test]` functions panic when the page misbehaves, as tests do.
#![allow(clippy::expect_used)]

use std::collections::{BTreeSet, HashSet};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

// The compiler's test helpers (copying a rules folder), shared as a file.
#[path = "../../compiler/tests/common/mod.rs"]
mod common;
// Writing the page and reading its files, as the page's own tests do.
#[path = "../../../tests/site_page/mod.rs"]
mod site_page;
use site_page::{build_site, build_site_of, fixture};

use carcassonne_rules_runtime::core::{Catalog, Entry, Origin, Repeat, Section, TurnOrder};
use carcassonne_rules_runtime::{catalog, turn_order};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// Random selections compared in the browser.
const SELECTIONS: usize = 60;
/// The seed of those selections.
const SEED: u64 = 0x0c4a_2c45;
/// Random selections whose origins are compared, besides every module alone and every pair.
const ORIGIN_SELECTIONS: usize = 300;
/// Selections set in one script run of the origin comparison.
const ORIGIN_BATCH: usize = 250;
/// How long the whole browser session may take before it counts as stalled.
const SESSION_LIMIT: Duration = Duration::from_secs(360);
/// The flags Chromium needs here: as root, in a container without network.
const CHROMIUM_FLAGS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];
/// A desktop and a phone viewport.
const DESKTOP: (u32, u32) = (1280, 1000);
const PHONE: (u32, u32) = (390, 844);

type Outcome<T> = Result<T, String>;

/// The command line this package tests: `CARCASSONNE_BINARY`, else the
/// workspace's debug build in the same target folder, which must be newer than every source it is built
/// from (`cargo build` first, as `.ci/run` does): this package cannot depend on
/// a binary, and an old one would test old code.
fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("CARCASSONNE_BINARY") {
        return PathBuf::from(path);
    }
    // Cargo puts this test in `<target>/debug/deps/`, the binary in `<target>/debug/`.
    let exe = std::env::current_exe().expect("the test's own path");
    let path = exe.parent().and_then(Path::parent).expect("the target folder").join("carcassonne-rules");
    let built = std::fs::metadata(&path).and_then(|m| m.modified());
    let built = built.unwrap_or_else(|_| panic!("{} not found: run `cargo build` first", path.display()));
    let sources = ["src", "crates", "rules", "js/wasm.js", "js/carcassonne-rules.js", "build.rs", "Cargo.lock"]
        .map(|p| repo().join(p));
    if let Some(newer) = sources.iter().find_map(|p| newer_than(p, built)) {
        panic!("{} is older than {}: run `cargo build` first", path.display(), newer.display());
    }
    path
}

/// A file under `path` changed after `time`, leaving out what the binary is
/// not built from (tests, benches, build output).
fn newer_than(path: &Path, time: std::time::SystemTime) -> Option<PathBuf> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.is_dir() {
        if path
            .file_name()
            .is_some_and(|n| ["target", "tests", "benches", "node_modules"].iter().any(|skip| n == *skip))
        {
            return None;
        }
        let entries = std::fs::read_dir(path).ok()?;
        return entries.flatten().find_map(|e| newer_than(&e.path(), time));
    }
    (meta.modified().ok()? > time).then(|| path.to_path_buf())
}

/// The repository (this package is `crates/browser-tests`).
fn repo() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().and_then(Path::parent).expect("crates/browser-tests in the repository").to_path_buf()
}

// ---- The browser -------------------------------------------------------------------

/// Where Chromium and its driver are, if they are.
fn browser() -> (PathBuf, PathBuf) {
    let path = |var: &str, default: &str| std::env::var_os(var).map_or_else(|| PathBuf::from(default), PathBuf::from);
    let chromium = path("CARCASSONNE_CHROMIUM", "/usr/bin/chromium");
    let driver = path("CARCASSONNE_CHROMEDRIVER", "/usr/bin/chromedriver");
    assert!(
        chromium.exists() && driver.exists(),
        "{} or {} not found (apt-get install chromium chromium-driver)",
        chromium.display(),
        driver.display()
    );
    (chromium, driver)
}

/// A chromedriver we started, shut down (with its browsers) when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start(path: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let driver = Driver { child, port };
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(20), "chromedriver did not listen on port {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // chromedriver's own shutdown ends the browsers it started; kill it if it lingers.
        if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let _ = write!(stream, "GET /shutdown HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            let _ = stream.read_to_end(&mut Vec::new());
        }
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(3) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Chromium session through `driver`, with its profile in `profile`.
async fn chromium_session(chromium: &Path, profile: &Path, driver: &Driver) -> Outcome<Client> {
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|f| f.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    args.push(format!("--window-size={},{}", DESKTOP.0, DESKTOP.1));
    args.push("--hide-scrollbars".to_string());
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".to_string(), json!({ "binary": chromium, "args": args }));
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .map_err(|e| format!("cannot start a Chromium session: {e}"))
}

/// The summary, the status and the share link of the page at `index`, as
/// opened and after `click` (a selector) is clicked, if given.
async fn page_state(client: &Client, index: &Path, click: Option<&str>) -> Outcome<[String; 3]> {
    let url = format!("file://{}", index.display());
    client.goto(&url).await.map_err(|e| format!("cannot open {url}: {e}"))?;
    if let Some(selector) = click {
        self::click(client, selector).await?;
    }
    let read = run_js(
        client,
        "return [document.getElementById('summary').innerText, document.getElementById('status').innerText, \
         document.getElementById('share-url').value];",
    )
    .await?;
    let field = |i: usize| read[i].as_str().unwrap_or_default().to_string();
    Ok([field(0), field(1), field(2)])
}

#[test]
#[ignore = "needs Chromium and chromedriver (apt-get install chromium chromium-driver); .ci/run runs it with --ignored"]
fn the_page_works_for_rules_without_variants_or_expansions() {
    let (chromium, chromedriver) = browser();
    // The minimal fixture has no publisher variants; its one-edition copy has
    // no expansions either.
    let minimal = fixture(&[], &[]);
    let one_edition = fixture(
        &[
            ("editions.yaml", "  - { id: C2, name: New edition }\n  - { id: WE, name: Winter edition }\n", ""),
            (
                "modules.yaml",
                &std::fs::read_to_string(repo().join("crates/compiler/tests/fixtures/minimal/modules.yaml"))
                    .expect("read"),
                "expansions: []\n",
            ),
            ("base.yaml", "double_turn: { from: 1B, to: 4A, when: builder }\n", ""),
            ("base.yaml", ", when: dragon", ""),
            ("base.yaml", "{C1: follower | C2, WE: meeple}", "follower"),
        ],
        &["expansions"],
    );
    let profile = tempfile::tempdir().expect("profile dir");
    let driver = Driver::start(&chromedriver);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let outcome: Outcome<()> = runtime.block_on(async {
        let client = chromium_session(&chromium, profile.path(), &driver).await?;
        let mut result = Ok(());
        for (rules, click) in [
            (&minimal, Some("input[data-module=builder], input[data-expansion=traders_and_builders]")),
            (&one_edition, None),
        ] {
            let site = build_site_of(rules.path());
            let [summary, status, link] = page_state(&client, &site.path().join("index.html"), click).await?;
            let items: usize = status.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
            let problem = if !summary.starts_with("1st edition (C1)") && !summary.starts_with("New edition (C2)") {
                Some(format!("the summary names no edition: {summary:?}"))
            } else if summary.contains("'s rules") {
                Some(format!("the summary names a variant the rules do not have: {summary:?}"))
            } else if items == 0 || !status.contains(" items") {
                Some(format!("the status counts no items: {status:?}"))
            } else if !link.starts_with("file://") {
                Some(format!("no share link: {link:?}"))
            } else if click.is_some() && !(link.contains("with=builder") && summary.contains("Builder")) {
                Some(format!("the module clicked is not in the link or the summary: {link:?}, {summary:?}"))
            } else {
                None
            };
            if let Some(problem) = problem {
                result = Err(format!("{}: {problem}", rules.path().display()));
                break;
            }
        }
        let _ = client.close().await;
        result
    });
    drop(driver);
    if let Err(problem) = outcome {
        panic!("{problem}");
    }
}

#[test]
#[ignore = "needs Chromium and chromedriver (apt-get install chromium chromium-driver); .ci/run runs it with --ignored"]
fn the_page_shows_what_the_runtime_computes() {
    let (chromium, chromedriver) = browser();
    let site = build_site();
    let profile = tempfile::tempdir().expect("profile dir");
    let driver = Driver::start(&chromedriver);
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let outcome = runtime.block_on(async {
        let client = chromium_session(&chromium, profile.path(), &driver).await?;
        let index = site.path().join("index.html");
        let result = tokio::time::timeout(SESSION_LIMIT, session(&client, &index)).await;
        let _ = client.close().await;
        result.map_err(|_| format!("the browser session took longer than {SESSION_LIMIT:?}"))?
    });
    drop(driver);
    match outcome {
        Ok(stats) => {
            let _ = writeln!(
                std::io::stderr(),
                "site in Chromium: {} selections compared ({} items, {} clicks, {} key presses, {} reloads from the \
                 link), the origins of {} items in {} more, in {:.1?}",
                stats.selections,
                stats.items,
                stats.clicks,
                stats.keys,
                stats.reloads,
                stats.origin_items,
                stats.origin_selections,
                started.elapsed()
            );
            assert!(stats.selections >= 50);
            assert!(stats.origin_selections >= ORIGIN_SELECTIONS + catalog().modules.len());
        }
        Err(problem) => panic!("{problem}"),
    }
}

#[derive(Default)]
struct Stats {
    selections: usize,
    items: usize,
    clicks: usize,
    keys: usize,
    reloads: usize,
    origin_selections: usize,
    origin_items: usize,
}

/// What the controls should say: the test's own model of the page.
#[derive(Debug, Clone, PartialEq)]
struct Selection {
    edition: usize,
    variant: usize,
    modules: BTreeSet<String>,
    changes: bool,
}

impl Selection {
    fn order(&self, catalog: &Catalog) -> TurnOrder<'static> {
        let with: Vec<&str> = self.modules.iter().map(String::as_str).collect();
        let cfg = catalog
            .config(&catalog.editions[self.edition].id, Some(&catalog.variants[self.variant].id), &with.join(","))
            .expect("a valid selection");
        turn_order(&cfg)
    }

    fn base(&self, catalog: &Catalog) -> TurnOrder<'static> {
        Selection { modules: BTreeSet::new(), ..self.clone() }.order(catalog)
    }
}

/// One thing a user does on the form.
#[derive(Debug, Clone)]
enum Action {
    Edition(usize),
    Variant(usize),
    Expansion(usize),
    Module(String),
    Clear,
    Changes,
}

impl Action {
    fn selector(&self, catalog: &Catalog) -> String {
        match self {
            Action::Edition(e) => format!("input[name=edition][value=\"{}\"]", catalog.editions[*e].id),
            Action::Variant(v) => format!("input[name=variant][value=\"{}\"]", catalog.variants[*v].id),
            Action::Expansion(x) => format!("input[data-expansion=\"{}\"]", catalog.expansions[*x].id),
            Action::Module(m) => format!("input[data-module=\"{m}\"]"),
            Action::Clear => "#clear".to_string(),
            Action::Changes => "#changes".to_string(),
        }
    }

    /// What the action does to the selection, as the page promises it.
    fn apply(&self, catalog: &Catalog, s: &mut Selection) {
        match self {
            Action::Edition(e) => {
                if s.variant == usize::from(catalog.editions[s.edition].default_variant.0) {
                    s.variant = usize::from(catalog.editions[*e].default_variant.0);
                }
                s.edition = *e;
            }
            Action::Variant(v) => s.variant = *v,
            Action::Expansion(x) => {
                let ids: Vec<String> = catalog.expansions[*x].modules.iter().map(|m| m.id.clone()).collect();
                if ids.iter().all(|m| s.modules.contains(m)) {
                    for m in &ids {
                        s.modules.remove(m);
                    }
                } else {
                    s.modules.extend(ids);
                }
            }
            Action::Module(m) => {
                if !s.modules.remove(m) {
                    s.modules.insert(m.clone());
                }
            }
            Action::Clear => s.modules.clear(),
            Action::Changes => s.changes = !s.changes,
        }
    }
}

/// A user's next few clicks.
fn actions(rng: &mut fastrand::Rng, catalog: &Catalog, s: &Selection) -> Vec<Action> {
    let mut out = Vec::new();
    if s.modules.len() > 20 {
        out.push(Action::Clear);
    }
    if rng.u8(0..3) == 0 {
        out.push(Action::Edition(rng.usize(0..catalog.editions.len())));
    }
    if rng.u8(0..5) == 0 {
        out.push(Action::Variant(rng.usize(0..catalog.variants.len())));
    }
    if rng.u8(0..6) == 0 {
        out.push(Action::Changes);
    }
    for _ in 0..rng.usize(1..=5) {
        let action = match rng.u8(0..100) {
            0..45 => Action::Expansion(rng.usize(0..catalog.expansions.len())),
            45..85 => Action::Module(catalog.modules[rng.usize(0..catalog.modules.len())].id.clone()),
            85..96 if !s.modules.is_empty() => {
                // Untick one module, possibly of an expansion ticked whole.
                let ids: Vec<&String> = s.modules.iter().collect();
                Action::Module(ids[rng.usize(0..ids.len())].clone())
            }
            _ => Action::Clear,
        };
        out.push(action);
    }
    out
}

async fn click(client: &Client, selector: &str) -> Outcome<()> {
    let element =
        client.find(Locator::Css(selector)).await.map_err(|e| format!("no element `{selector}` on the page: {e}"))?;
    element.click().await.map_err(|e| format!("cannot click `{selector}`: {e}"))
}

/// Focuses an element and presses the space bar, as a keyboard user toggles a box.
async fn press_space(client: &Client, selector: &str) -> Outcome<()> {
    let element =
        client.find(Locator::Css(selector)).await.map_err(|e| format!("no element `{selector}` on the page: {e}"))?;
    element.send_keys(" ").await.map_err(|e| format!("cannot type into `{selector}`: {e}"))
}

/// Waits until the page opened last has run its script (`ready` on the root
/// element, added as the script's last step): on a loaded machine `goto` may
/// return before that, and the controls would still show the page's defaults.
async fn settled(client: &Client) -> Outcome<()> {
    const READY: &str =
        "return document.readyState === 'complete' && document.documentElement.classList.contains('ready');";
    let start = Instant::now();
    while run_js(client, READY).await? != json!(true) {
        if start.elapsed() > Duration::from_secs(10) {
            let state = run_js(client, "return [location.href, document.readyState];").await?;
            return Err(format!("the page's script did not finish in 10 s: {state}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// Presses and releases `key` (a WebDriver key code) wherever the focus is,
/// as the keyboard does: no element is picked, so none need be visible.
async fn press(client: &Client, key: char) -> Result<(), fantoccini::error::CmdError> {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let keys =
        KeyActions::new("keyboard".into()).then(KeyAction::Down { value: key }).then(KeyAction::Up { value: key });
    client.perform_actions(keys).await
}

async fn run_js(client: &Client, script: &str) -> Outcome<Value> {
    client.execute(script, Vec::new()).await.map_err(|e| format!("script failed: {e}"))
}

/// The whole session: random selections by clicks, reloads from the link, a
/// hand-written link, and the screenshot if asked for.
async fn session(client: &Client, index: &Path) -> Outcome<Stats> {
    let catalog = catalog();
    let url = format!("file://{}", index.display());
    client.goto(&url).await.map_err(|e| format!("cannot open {url}: {e}"))?;
    let default_edition = catalog.edition("C2").map_or(0, |e| usize::from(e.0));
    let mut s = Selection {
        edition: default_edition,
        variant: usize::from(catalog.editions[default_edition].default_variant.0),
        modules: BTreeSet::new(),
        changes: false,
    };
    let mut stats = Stats::default();
    check(client, catalog, &s, "the page as opened").await?;
    let problems = run_js(client, ACCESSIBILITY).await?;
    if problems != json!([]) {
        return Err(format!("controls a screen reader or keyboard user cannot use: {problems}"));
    }
    // The skip link, taken with the keyboard, moves the focus and keeps the selection.
    let before = client.current_url().await.map_err(|e| e.to_string())?;
    // From the top of the page, as a keyboard user: Tab reaches the skip link
    // first (it shows only when focused), Enter takes it.
    run_js(client, "window.scrollTo(0, 0); document.activeElement.blur(); return null;").await?;
    press(client, '\u{E004}').await.map_err(|e| format!("cannot press Tab: {e}"))?;
    let first = run_js(client, "return document.activeElement.className;").await?;
    if first != "skip" {
        return Err(format!("Tab from the top of the page reached `{first}`, not the skip link"));
    }
    press(client, '\u{E007}').await.map_err(|e| format!("cannot press Enter on the skip link: {e}"))?;
    let focused = run_js(client, "return document.activeElement.id;").await?;
    let after = client.current_url().await.map_err(|e| e.to_string())?;
    if focused != "order" || before != after {
        return Err(format!("the skip link focused `{focused}` and changed the link from {before} to {after}"));
    }

    let mut rng = fastrand::Rng::with_seed(SEED);
    for round in 0..SELECTIONS {
        if round == SELECTIONS / 2 {
            client.set_window_size(PHONE.0, PHONE.1).await.map_err(|e| format!("cannot resize: {e}"))?;
        }
        let actions = actions(&mut rng, catalog, &s);
        for action in &actions {
            if matches!(action, Action::Module(_)) && rng.u8(0..4) == 0 {
                press_space(client, &action.selector(catalog)).await?;
                stats.keys += 1;
            } else {
                click(client, &action.selector(catalog)).await?;
                stats.clicks += 1;
            }
            action.apply(catalog, &mut s);
        }
        let what = format!("selection {round} after {actions:?}");
        stats.items += check(client, catalog, &s, &what).await?;
        stats.selections += 1;
        if round % 5 == 4 {
            // The link, opened afresh, restores the selection.
            let link = client.current_url().await.map_err(|e| e.to_string())?;
            client.goto("about:blank").await.map_err(|e| e.to_string())?;
            client.goto(link.as_str()).await.map_err(|e| e.to_string())?;
            settled(client).await.map_err(|e| format!("{what}, reloaded from {link}: {e}"))?;
            check(client, catalog, &s, &format!("{what}, reloaded from {link}")).await?;
            stats.reloads += 1;
        }
    }

    // Every expansion ticked, one click each.
    client.set_window_size(DESKTOP.0, DESKTOP.1).await.map_err(|e| format!("cannot resize: {e}"))?;
    click(client, "#clear").await?;
    Action::Clear.apply(catalog, &mut s);
    for x in 0..catalog.expansions.len() {
        click(client, &Action::Expansion(x).selector(catalog)).await?;
        Action::Expansion(x).apply(catalog, &mut s);
        stats.clicks += 1;
    }
    stats.items += check(client, catalog, &s, "every expansion").await?;
    stats.selections += 1;

    // A hand-written link: expansion and module ids as `--with` takes them, an unknown id ignored.
    let shared = format!("{url}#edition=C1&variant=rgg&with=princess_and_dragon,abbey,no_such_module&changes=1");
    client.goto("about:blank").await.map_err(|e| e.to_string())?;
    client.goto(&shared).await.map_err(|e| e.to_string())?;
    let edition = catalog.edition("C1").map_or(0, |e| usize::from(e.0));
    let variant = catalog.variants.iter().position(|v| v.id == "rgg").ok_or("no rgg variant")?;
    let mut modules: BTreeSet<String> =
        ["dragon", "fairy", "princess", "magic_portal", "abbey"].map(String::from).into();
    modules.retain(|m| catalog.module(m).is_some());
    let restored = Selection { edition, variant, modules, changes: true };
    stats.items += check(client, catalog, &restored, "a hand-written link").await?;
    let status = run_js(client, "return document.getElementById('status').innerText;").await?;
    if !status.as_str().is_some_and(|s| s.contains("no_such_module")) {
        return Err(format!("the status does not name the ignored id: {status}"));
    }
    stats.selections += 1;

    compare_origins(client, catalog, &mut stats).await?;

    if let Some(path) = std::env::var_os("CARCASSONNE_SITE_SCREENSHOT") {
        screenshot(client, &url, Path::new(&path)).await?;
    }
    Ok(stats)
}

/// Sets each selection in turn through the controls (Chromium throttles
/// changes of the link, so not through it): "clear", then the edition, the
/// publisher and each module ticked, each with the `change` event a click
/// sends. Reads every shown item as `id=module`, `module` the origin badge's
/// module or `base` where no badge shows; sorted.
const READ_ORIGINS: &str = r##"
const [selections] = arguments;
const tick = (box) => {
  box.checked = true;
  box.dispatchEvent(new Event("change", { bubbles: true }));
};
return selections.map(([edition, variant, modules]) => {
  document.getElementById("clear").click();
  tick(document.querySelector(`input[name=edition][value="${edition}"]`));
  tick(document.querySelector(`input[name=variant][value="${variant}"]`));
  modules.forEach((m) => tick(document.querySelector(`input[data-module="${m}"]`)));
  return Array.from(document.querySelectorAll("li.item"))
    .filter((li) => !li.closest("[hidden]"))
    .map((li) => {
      const badge = li.querySelector(":scope > .line > .origin");
      return li.dataset.id + "=" + (badge.hidden ? "base" : badge.dataset.module);
    })
    .sort();
});
"##;

/// Every shown item as `id=origin`, sorted: what `READ_ORIGINS` should read.
fn origins(order: &TurnOrder) -> Vec<String> {
    fn walk(entries: &[Entry], out: &mut Vec<String>) {
        for e in entries {
            out.push(format!("{}={}", e.id(), e.origin_id()));
            walk(&e.children, out);
        }
    }
    let mut out = Vec::new();
    for (_, list) in order.sections.iter() {
        walk(list, &mut out);
    }
    order.steps().for_each(|s| walk(&s.items, &mut out));
    out.sort();
    out
}

/// Origins on the page against the runtime's: every module alone, every pair
/// and random selections, editions and variants cycling.
async fn compare_origins(client: &Client, catalog: &Catalog, stats: &mut Stats) -> Outcome<()> {
    let ids: Vec<&str> = catalog.modules.iter().map(|m| m.id.as_str()).collect();
    let mut sets: Vec<Vec<&str>> = ids.iter().map(|&m| vec![m]).collect();
    for (i, &a) in ids.iter().enumerate() {
        sets.extend(ids[i + 1..].iter().map(|&b| vec![a, b]));
    }
    let mut rng = fastrand::Rng::with_seed(SEED ^ 14);
    sets.extend((0..ORIGIN_SELECTIONS).map(|_| (0..rng.usize(1..=12)).map(|_| ids[rng.usize(..ids.len())]).collect()));
    let selections: Vec<(Value, Vec<String>)> = sets
        .iter()
        .enumerate()
        .map(|(n, with)| {
            let edition = &catalog.editions[n % catalog.editions.len()];
            let variant = &catalog.variants[(n / catalog.editions.len()) % catalog.variants.len()];
            let cfg = catalog.config(&edition.id, Some(&variant.id), &with.join(",")).expect("a valid selection");
            (json!([edition.id, variant.id, with]), origins(&turn_order(&cfg)))
        })
        .collect();
    for batch in selections.chunks(ORIGIN_BATCH) {
        let controls: Vec<&Value> = batch.iter().map(|(controls, _)| controls).collect();
        let shown = client.execute(READ_ORIGINS, vec![json!(controls)]).await.map_err(|e| e.to_string())?;
        let shown: Vec<Vec<String>> = serde_json::from_value(shown).map_err(|e| e.to_string())?;
        for ((selection, want), shown) in batch.iter().zip(&shown) {
            if shown != want {
                let wrong: Vec<&String> = shown.iter().filter(|s| !want.contains(s)).collect();
                let missing: Vec<&String> = want.iter().filter(|w| !shown.contains(w)).collect();
                return Err(format!("origins for {selection}: the page shows {wrong:?}, the runtime {missing:?}"));
            }
            stats.origin_items += want.len();
        }
        stats.origin_selections += batch.len();
    }
    Ok(())
}

async fn screenshot(client: &Client, url: &str, path: &Path) -> Outcome<()> {
    client.set_window_size(1280, 1600).await.map_err(|e| e.to_string())?;
    client.goto("about:blank").await.map_err(|e| e.to_string())?;
    client.goto(&format!("{url}#edition=C2&with=abbey_and_mayor,builder")).await.map_err(|e| e.to_string())?;
    let png = client.screenshot().await.map_err(|e| e.to_string())?;
    std::fs::write(path, png).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Controls without an accessible name, and elements that break the focus
/// order (a positive tabindex); the skip link must come first.
const ACCESSIBILITY: &str = r##"
const problems = [];
for (const el of document.querySelectorAll("input, button, select, textarea")) {
  const named = (el.labels && el.labels.length) || el.getAttribute("aria-label") ||
    (el.tagName === "BUTTON" && el.textContent.trim());
  if (!named) problems.push("no label: " + el.outerHTML.slice(0, 80));
}
for (const el of document.querySelectorAll("[tabindex]")) {
  if (el.tabIndex > 0) problems.push("positive tabindex: " + el.outerHTML.slice(0, 80));
}
const first = document.querySelector("a[href], input, button, select, textarea");
if (!first || !first.classList.contains("skip")) problems.push("the skip link is not the first stop");
for (const set of document.querySelectorAll("fieldset")) {
  if (!set.querySelector(":scope > legend")) problems.push("fieldset without legend");
}
if (document.querySelectorAll("h1").length !== 1) problems.push("not one h1");
return problems;
"##;

/// The controls' state, as rendered.
const READ_CONTROLS: &str = r##"
const checked = (sel) => Array.from(document.querySelectorAll(sel)).filter((b) => b.checked);
return {
  edition: checked("input[name=edition]").map((b) => b.value),
  variant: checked("input[name=variant]").map((b) => b.value),
  modules: Array.from(new Set(checked("input[data-module]").map((b) => b.dataset.module))).sort(),
  partial: Array.from(document.querySelectorAll("input[data-expansion]"))
    .filter((b) => b.indeterminate).map((b) => b.dataset.expansion).sort(),
  changes: document.getElementById("changes").checked,
};
"##;

/// The order of play, as rendered: only what a reader sees.
const READ_ORDER: &str = r##"
const vis = (el) => !!el && el.checkVisibility();
const norm = (s) => s.replace(/\s+/g, " ").trim();
const items = (list) => !vis(list) ? [] : Array.from(list.children)
  .filter((li) => li.matches("li.item") && vis(li))
  .map((li) => {
    const line = li.querySelector(":scope > .line");
    const origin = line.querySelector(":scope > .origin");
    return {
      id: li.dataset.id,
      origin: vis(origin) ? norm(origin.innerText) : null,
      text: norm(line.querySelector(":scope > .text").innerText),
      markers: Array.from(line.querySelectorAll(":scope > .marker")).filter(vis)
        .map((m) => norm(m.innerText).replace(/^marker: /, "")),
      foreign: vis(line.querySelector(":scope > .foreign-badge")),
      added: vis(line.querySelector(":scope > .added-badge")),
      children: items(li.querySelector(":scope > .items")),
    };
  });
const section = (id) => items(document.querySelector("#" + id + " > .items"));
const lead = (step) => {
  const shown = Array.from(step.querySelectorAll(":scope > .lead")).filter(vis);
  return shown.length ? norm(shown.map((l) => l.innerText).join(" ")) : null;
};
return {
  notes: section("notes"),
  setup: section("setup"),
  any_time: section("any_time"),
  phases: Array.from(document.querySelectorAll("#turn > .phase")).filter(vis).map((p) => ({
    title: norm(p.querySelector("h2").innerText),
    steps: Array.from(p.querySelectorAll(":scope > .step")).filter(vis).map((s) => {
      const h3 = s.querySelector("h3");
      const repeat = h3.querySelector(".repeat");
      return {
        title: norm(h3.firstChild.textContent),
        repeat: vis(repeat) ? norm(repeat.innerText) : null,
        lead: lead(s),
        items: items(s.querySelector(":scope > .items")),
      };
    }),
  })),
  final_scoring: section("final_scoring"),
};
"##;

/// What the page should show for `s`, in the shape `READ_ORDER` reads.
fn expected(catalog: &Catalog, s: &Selection) -> (Value, usize) {
    let order = s.order(catalog);
    let mut base = HashSet::new();
    collect_ids(&s.base(catalog), &mut base);
    let mut count = 0;
    let mut items = |entries: &[Entry]| entries_json(catalog, entries, &base, s.changes, &mut count);
    let value = json!({
        "notes": items(order.section(Section::Notes)),
        "setup": items(order.section(Section::Setup)),
        "any_time": items(order.section(Section::AnyTime)),
        "phases": order.phases.iter().map(|p| json!({
            "title": format!("{}. {}", p.id, p.title),
            "steps": p.steps.iter().map(|step| json!({
                "title": format!("Step {}: {}", step.id, step.title),
                "repeat": step.repeat.map(|r| match r {
                    Repeat::DoubleTurn => "once, or twice on a double turn",
                    Repeat::PerFeature => "once per completed feature",
                }),
                "lead": if step.items.is_empty() {
                    Some(carcassonne_rules_runtime::render::NO_ACTIONS)
                } else if step.choose_one {
                    Some(carcassonne_rules_runtime::render::CHOOSE_ONE)
                } else {
                    None
                },
                "items": items(&step.items),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "final_scoring": items(order.section(Section::FinalScoring)),
    });
    (value, count)
}

fn collect_ids(order: &TurnOrder, out: &mut HashSet<String>) {
    fn walk(entries: &[Entry], out: &mut HashSet<String>) {
        for e in entries {
            out.insert(e.id().to_string());
            walk(&e.children, out);
        }
    }
    for (_, list) in order.sections.iter() {
        walk(list, out);
    }
    order.steps().for_each(|s| walk(&s.items, out));
}

fn entries_json(
    catalog: &Catalog,
    entries: &[Entry],
    base: &HashSet<String>,
    changes: bool,
    count: &mut usize,
) -> Vec<Value> {
    entries
        .iter()
        .map(|e| {
            *count += 1;
            json!({
                "id": e.id(),
                // The badge names the module; the base game has none.
                "origin": (e.origin != Origin::Base).then(|| catalog.module(e.origin_id()).map_or(e.origin_id(), |m| m.name.as_str())),
                "text": e.text.split_whitespace().collect::<Vec<_>>().join(" "),
                "markers": e.markers,
                "foreign": e.foreign,
                "added": changes && !base.contains(e.id()),
                "children": entries_json(catalog, &e.children, base, changes, count),
            })
        })
        .collect()
}

/// Checks the controls, the order of play and the link against `s`; returns
/// the number of items compared.
async fn check(client: &Client, catalog: &Catalog, s: &Selection, what: &str) -> Outcome<usize> {
    // The controls.
    let controls = run_js(client, READ_CONTROLS).await?;
    let partial: Vec<&str> = catalog
        .expansions
        .iter()
        .filter(|x| {
            let n = x.modules.iter().filter(|m| s.modules.contains(&m.id)).count();
            n > 0 && n < x.modules.len()
        })
        .map(|x| x.id.as_str())
        .collect();
    let mut partial = partial;
    partial.sort_unstable();
    let want = json!({
        "edition": [catalog.editions[s.edition].id],
        "variant": [catalog.variants[s.variant].id],
        "modules": s.modules,
        "partial": partial,
        "changes": s.changes,
    });
    if controls != want {
        return Err(format!("{what}: the controls show\n{controls}\nnot\n{want}"));
    }

    // The order of play.
    let shown = run_js(client, READ_ORDER).await?;
    let (want, count) = expected(catalog, s);
    if let Some(difference) = difference(&shown, &want, "") {
        return Err(format!("{what}: the page differs from the runtime's turn order at {difference}"));
    }

    // The link names the same selection, as `--with` would.
    let link = client.current_url().await.map_err(|e| e.to_string())?;
    let params: Vec<(String, String)> =
        link.fragment().map(url_pairs).ok_or_else(|| format!("{what}: the link {link} has no selection"))?;
    let get = |key: &str| params.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let cfg = catalog
        .config(get("edition").unwrap_or(""), get("variant"), get("with").unwrap_or(""))
        .map_err(|e| format!("{what}: the link {link} does not parse as a selection: {e:?}"))?;
    let want_cfg = catalog
        .config(
            &catalog.editions[s.edition].id,
            Some(&catalog.variants[s.variant].id),
            &s.modules.iter().map(String::as_str).collect::<Vec<_>>().join(","),
        )
        .map_err(|e| format!("{e:?}"))?;
    if cfg != want_cfg || (get("changes") == Some("1")) != s.changes {
        return Err(format!("{what}: the link {link} names another selection"));
    }
    Ok(count)
}

/// `a=1&b=x,y` (percent-decoded).
fn url_pairs(fragment: &str) -> Vec<(String, String)> {
    fragment.split('&').filter_map(|pair| pair.split_once('=')).map(|(k, v)| (decode(k), decode(v))).collect()
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1..i + 3)) {
            (b'%', Some(hex)) => {
                let n = std::str::from_utf8(hex).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match n {
                    Some(n) => {
                        out.push(n);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            (b, _) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The first place where two JSON values differ, with both sides.
fn difference(shown: &Value, want: &Value, path: &str) -> Option<String> {
    match (shown, want) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            keys.into_iter().find_map(|k| {
                let sub = format!("{path}.{k}");
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => difference(x, y, &sub),
                    _ => Some(format!("{sub}: key missing on one side")),
                }
            })
        }
        (Value::Array(a), Value::Array(b)) => {
            let id = |v: &Value| v.get("id").or_else(|| v.get("title")).cloned().unwrap_or(Value::Null);
            if a.len() != b.len() || a.iter().map(id).ne(b.iter().map(id)) {
                let ids = |l: &[Value]| l.iter().map(|v| id(v).to_string()).collect::<Vec<_>>().join(", ");
                if a.first().is_some_and(Value::is_object) || b.first().is_some_and(Value::is_object) {
                    return Some(format!("{path}:\n  page:    [{}]\n  runtime: [{}]", ids(a), ids(b)));
                }
            }
            if a.len() != b.len() {
                return Some(format!("{path}:\n  page:    {shown}\n  runtime: {want}"));
            }
            a.iter().zip(b).enumerate().find_map(|(i, (x, y))| {
                let label = id(y);
                difference(
                    x,
                    y,
                    &format!("{path}[{}]", if label.is_null() { i.to_string() } else { label.to_string() }),
                )
            })
        }
        (a, b) if a == b => None,
        (a, b) => Some(format!("{path}:\n  page:    {a}\n  runtime: {b}")),
    }
}

// ---- Play a turn -------------------------------------------------------------------

/// Random turns played through the page and through `play`.
const PLAYS: usize = 30;
/// The seed of those turns: their selections and answers.
const PLAY_SEED: u64 = 0x9a1e_70c5;
/// A turn longer than this is a page that does not end it.
const MAX_PROMPTS: usize = 600;

/// The pending prompt as the page shows it, in the shape of `play`'s
/// `prompts` (null when the turn is over), and what is not part of `play`'s
/// prompt: the "at any time" items that can be used now (`any_time`), the
/// line that says who is asked (`asks`, null where none shows), the
/// question and the answer buttons' labels (`question`, `buttons`). A `do`
/// prompt is a must where the page offers no way to decline it (no "no"
/// button), a `choose` prompt where it offers no "none of them"; the actor
/// is the one the prompt is shown for.
const READ_PROMPT: &str = r##"
const box = document.getElementById("play-prompt");
const d = box.dataset;
if (!box.checkVisibility() || d.kind === "over") return null;
const text = (e) => e.textContent.replace(/\s+/g, " ").trim();
const p = { seq: Number(d.seq), kind: d.kind, part: Number(d.part), step: d.step,
  feature: d.feature ? d.feature.split(" ").map(Number) : null };
if (d.kind === "do") {
  p.item = d.item;
  p.must = !box.querySelector("button[data-answer=no]");
}
if (d.kind === "choose") {
  p.options = Array.from(box.querySelectorAll("button[data-option]")).filter((b) => b.checkVisibility())
    .map((b) => b.dataset.option);
  p.may_pass = !!box.querySelector("button[data-pass]");
  p.of = d.of === undefined ? null : d.of;
  p.must = !p.may_pass;
}
p.actor = d.actor;
const asks = box.querySelector(".play-actor");
p.asks = asks && asks.checkVisibility() ? text(asks) : null;
const question = box.querySelector(".play-question");
p.question = question ? text(question) : null;
p.buttons = Array.from(box.querySelectorAll("button:not([data-option])")).filter((b) => b.checkVisibility()).map(text);
p.any_time = Array.from(document.querySelectorAll("#play-any-time button[data-any-time]"))
  .filter((b) => !b.disabled && b.checkVisibility()).map((b) => b.dataset.anyTime);
return p;
"##;

/// Clicks the element `arguments[0]` (a selector), then reads the prompt as `READ_PROMPT`.
fn click_and_read() -> String {
    format!("document.querySelector(arguments[0]).click();\n{READ_PROMPT}")
}

/// What the page's log recorded, event by event.
const READ_TRACE: &str =
    "return Array.from(document.querySelectorAll('#play-log > li')).map((li) => JSON.parse(li.dataset.event));";

/// A turn played on the page: the answers given (JSON Lines for `play`), the
/// prompts answered, the trace, and whether it is over.
#[derive(Debug, Default)]
struct Played {
    answers: Vec<Value>,
    prompts: Vec<Value>,
}

/// A random answer to `prompt` and the selector of the button that gives it.
fn random_answer(rng: &mut fastrand::Rng, prompt: &Value) -> (Value, String) {
    let any_time: Vec<&str> =
        prompt["any_time"].as_array().map_or_else(Vec::new, |a| a.iter().filter_map(Value::as_str).collect());
    if !any_time.is_empty() && rng.u8(0..8) == 0 {
        let item = any_time[rng.usize(..any_time.len())];
        return (json!({ "any_time": item }), format!("#play-any-time button[data-any-time=\"{item}\"]"));
    }
    match prompt["kind"].as_str().unwrap_or_default() {
        // A must has one answer, its one button.
        "do" if prompt["must"] == true => (json!({ "do": true }), "#play-prompt button[data-answer=yes]".to_string()),
        "do" => {
            let done = rng.bool();
            (json!({ "do": done }), format!("#play-prompt button[data-answer={}]", if done { "yes" } else { "no" }))
        }
        "choose" => {
            let options = prompt["options"].as_array().cloned().unwrap_or_default();
            if options.is_empty() || prompt["may_pass"] == true && rng.u8(0..4) == 0 {
                (json!({ "choose": null }), "#play-prompt button[data-pass]".to_string())
            } else {
                let option = options[rng.usize(..options.len())].as_str().unwrap_or_default().to_string();
                (json!({ "choose": option }), format!("#play-prompt button[data-option=\"{option}\"]"))
            }
        }
        _ => {
            let n = rng.u32(0..=3);
            (json!({ "count": n }), format!("#play-prompt button[data-count=\"{n}\"]"))
        }
    }
}

/// The prompt without what `play` does not print.
fn as_play_prompt(prompt: &Value) -> Value {
    let mut p = prompt.clone();
    if let Some(object) = p.as_object_mut() {
        for key in ["any_time", "asks", "question", "buttons"] {
            object.remove(key);
        }
    }
    p
}

/// Checks what the English page says of a prompt (as `READ_PROMPT` reads
/// it) against its actor and must: who is asked, named in the program's
/// words, where it is not the active player, and nowhere else; a `do` prompt
/// that is a must an instruction ("Carry out:", "a must") acknowledged with
/// "Done" alone, any other a question with two answers.
fn says_who_and_must(prompt: &Value) -> Outcome<()> {
    use carcassonne_rules_runtime::core::Actor;
    use carcassonne_rules_runtime::core::words::{Word, Words};
    let words = Words::english();
    let actor = prompt["actor"].as_str().unwrap_or_default();
    let Some(&(_, known)) = Actor::ALL.iter().find(|(name, _)| *name == actor) else {
        return Err(format!("the page shows a prompt for no actor it knows: {prompt}"));
    };
    let asks = match known {
        Actor::Active => Value::Null,
        other => json!(capitalized(&words.fill(Word::PlayAsks, &[("actor", words.actor(other))]))),
    };
    if prompt["asks"] != asks {
        return Err(format!("the page says {} of who is asked, not {asks}: {prompt}", prompt["asks"]));
    }
    if prompt["kind"] == "do" {
        let buttons = prompt["buttons"].as_array().map_or(0, Vec::len);
        let must = format!("{} {}", words.get(Word::PlayCarryOut), words.get(Word::PlayAMust));
        let ok = if prompt["must"] == true {
            prompt["buttons"] == json!([words.get(Word::PlayDone)]) && prompt["question"] == json!(must)
        } else {
            buttons == 2 && prompt["question"] != json!(must)
        };
        if !ok {
            return Err(format!("the page shows a do prompt (must: {}) as {prompt}", prompt["must"]));
        }
    }
    Ok(())
}

/// Answers the page's prompts at random until the turn is over (or `limit`
/// answers), one script call per answer.
async fn play_on_page(client: &Client, rng: &mut fastrand::Rng, limit: usize, played: &mut Played) -> Outcome<Value> {
    let mut prompt = run_js(client, READ_PROMPT).await?;
    while !prompt.is_null() && played.answers.len() < limit {
        if played.answers.len() >= MAX_PROMPTS {
            return Err(format!("the turn does not end after {MAX_PROMPTS} answers: {:?}", played.answers));
        }
        says_who_and_must(&prompt).map_err(|problem| format!("after answers {:?}: {problem}", played.answers))?;
        let (answer, selector) = random_answer(rng, &prompt);
        if answer.get("any_time").is_none() {
            played.prompts.push(as_play_prompt(&prompt));
        }
        played.answers.push(answer);
        prompt =
            client.execute(&click_and_read(), vec![json!(selector)]).await.map_err(|e| format!("{selector}: {e}"))?;
    }
    Ok(prompt)
}

/// `play`'s JSON for a selection and answers; `rules` for other rules than the bundled ones.
fn play_json(rules: Option<&Path>, selection: &[String], answers: &[Value]) -> Value {
    let out = play_output(rules, selection, answers);
    assert!(out.status.success(), "play {selection:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("play prints JSON")
}

/// What `play` does with a selection and answers.
fn play_output(rules: Option<&Path>, selection: &[String], answers: &[Value]) -> std::process::Output {
    let mut command = Command::new(binary());
    command.current_dir(repo()).env("NO_COLOR", "1");
    if let Some(rules) = rules {
        command.arg("--rules").arg(rules);
    }
    let mut child = command
        .arg("play")
        .args(selection)
        .args(["--format", "json", "--answers", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run play");
    let lines: String = answers.iter().map(|a| format!("{a}\n")).collect();
    child.stdin.take().expect("stdin").write_all(lines.as_bytes()).expect("write the answers");
    child.wait_with_output().expect("play's output")
}

/// Answers on the page, by clicks from a script, "yes" to `item` and to
/// every must (which has no "no") and no to every other item, the first
/// option, no feature, until the page refuses an answer (or the turn is
/// over): the answers (the refused one last) and the page's message.
const GO_BACK_UNTIL_REFUSED: &str = r##"
const [item] = arguments;
const box = document.getElementById("play-prompt");
const error = document.getElementById("play-error");
const answers = [];
for (let n = 0; n < 2000; n++) {
  if (!error.hidden) return { answers, error: error.textContent, seq: Number(box.dataset.seq) };
  const d = box.dataset;
  let answer, selector;
  if (d.kind === "do") {
    answer = { do: d.item === item || !box.querySelector("button[data-answer=no]") };
    selector = answer.do ? "button[data-answer=yes]" : "button[data-answer=no]";
  } else if (d.kind === "choose") {
    const option = box.querySelector("button[data-option]");
    answer = { choose: option ? option.dataset.option : null };
    selector = option ? "button[data-option]" : "button[data-pass]";
  } else if (d.kind === "count") {
    answer = { count: 0 };
    selector = 'button[data-count="0"]';
  } else {
    break;
  }
  answers.push(answer);
  box.querySelector(selector).click();
}
return { answers, error: null, seq: Number(box.dataset.seq) };
"##;

/// The page refuses what `play` refuses, and changes nothing: the go-back
/// after the hundredth (a tile with no legal spot, again and again).
async fn refuses_as_play_does(client: &Client, url: &str) -> Outcome<()> {
    open_play(client, &format!("{url}#edition=C2")).await?;
    let run = client
        .execute(GO_BACK_UNTIL_REFUSED, vec![json!("place-tile-no-legal-spot")])
        .await
        .map_err(|e| e.to_string())?;
    let answers: Vec<Value> = serde_json::from_value(run["answers"].clone()).map_err(|e| e.to_string())?;
    let Some((refused, taken)) = answers.split_last() else { return Err("no answer given".to_string()) };
    let message = run["error"].as_str().unwrap_or_default();
    if message != "The turn went back 100 times; giving up." || run["seq"] != json!(taken.len()) {
        return Err(format!("after {} answers the page says {message:?} at prompt {}", answers.len(), run["seq"]));
    }
    let selection = play_selection("C2", None, &[]);
    let before = play_json(None, &selection, taken);
    let trace = run_js(client, READ_TRACE).await?;
    if let Some(d) = difference(&trace, &before["trace"], "trace") {
        return Err(format!("the refused answer changed the page's trace: {d}"));
    }
    let out = play_output(None, &selection, &answers);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(1) || !stderr.contains("went back 100 times") {
        return Err(format!("play took the answer the page refused ({refused}): {stderr}"));
    }
    Ok(())
}

/// Whether the page shows its refusal, and the link.
const READ_ERROR: &str = "const e = document.getElementById('play-error'); \
    return { error: e.hidden ? null : e.textContent, hash: location.hash };";

/// A must is no question, and declining it is refused as `play` refuses it:
/// a link that answers "no" to drawing the tile (as links made before it
/// was a must could) opens at that prompt with the refusal in the page's
/// words (the reason `must`), the answer dropped from the link, and one
/// "Done" to acknowledge it; `play` refuses the same answer. A prompt of
/// other players names them: C2's choose-scoring-order, asked of each
/// player who scores, in the prompt and in the log.
async fn musts_and_actors(client: &Client, url: &str) -> Outcome<()> {
    use carcassonne_rules_runtime::core::words::{Word, Words};
    let words = Words::english();
    client.goto("about:blank").await.map_err(|e| e.to_string())?;
    let link = format!("{url}#edition=C2&play=n");
    client.goto(&link).await.map_err(|e| format!("cannot open {link}: {e}"))?;
    settled(client).await?;
    let prompt = run_js(client, READ_PROMPT).await?;
    let seen = run_js(client, READ_ERROR).await?;
    if prompt["item"] != "draw-tile" || prompt["must"] != true || prompt["seq"] != 0 {
        return Err(format!("{link} opens at {prompt}, not at drawing the tile, a must"));
    }
    says_who_and_must(&prompt)?;
    let hash = seen["hash"].as_str().unwrap_or_default();
    if seen["error"] != words.get(Word::PlayMust) || hash.contains("play=n") {
        return Err(format!("{link}: the page says {} and links {hash:?}", seen["error"]));
    }
    let out = play_output(None, &play_selection("C2", None, &[]), &[json!({ "do": false })]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() != Some(1) || !stderr.contains("cannot be declined") {
        return Err(format!("play takes {{\"do\": false}} to drawing the tile: {stderr}"));
    }
    // Acknowledged, the turn goes on, the refusal gone; then on to the scoring order.
    let mut prompt = client
        .execute(&click_and_read(), vec![json!("#play-prompt button[data-answer=yes]")])
        .await
        .map_err(|e| e.to_string())?;
    if prompt["item"] != "show-tile" || run_js(client, READ_ERROR).await?["error"] != Value::Null {
        return Err(format!("after \"Done\" the page shows {prompt}"));
    }
    for _ in 0..MAX_PROMPTS {
        if prompt.is_null() || prompt["item"] == "choose-scoring-order" {
            break;
        }
        let selector = match prompt["kind"].as_str().unwrap_or_default() {
            "do" => "#play-prompt button[data-answer=yes]".to_string(),
            "choose" => format!("#play-prompt button[data-option=\"{}\"]", prompt["options"][0].as_str().unwrap_or("")),
            _ => "#play-prompt button[data-count=\"1\"]".to_string(),
        };
        prompt = client.execute(&click_and_read(), vec![json!(selector)]).await.map_err(|e| e.to_string())?;
    }
    let asks = capitalized(&words.fill(Word::PlayAsks, &[("actor", words.get(Word::ActorScorers))]));
    if prompt["actor"] != "scorers" || prompt["asks"] != json!(asks) {
        return Err(format!("choose-scoring-order is asked as {prompt}, not with {asks:?}"));
    }
    says_who_and_must(&prompt)?;
    let log = client
        .execute(&format!("document.querySelector('#play-prompt button[data-answer=no]').click();\n{READ_LOG}"), vec![])
        .await
        .map_err(|e| e.to_string())?;
    let by = format!(" ({})", words.get(Word::ActorScorers));
    if !log.as_array().is_some_and(|lines| lines.iter().any(|l| l.as_str().is_some_and(|l| l.ends_with(&by)))) {
        return Err(format!("the log does not say who answered ({by:?}): {log}"));
    }
    Ok(())
}

/// `play`'s command-line selection for the page's link.
fn play_selection(edition: &str, variant: Option<&str>, with: &[String]) -> Vec<String> {
    let mut args = vec!["--edition".to_string(), edition.to_string()];
    if let Some(variant) = variant {
        args.extend(["--variant".to_string(), variant.to_string()]);
    }
    if !with.is_empty() {
        args.extend(["--with".to_string(), with.join(",")]);
    }
    args
}

/// The page's link for a selection.
fn play_link(url: &str, edition: &str, variant: Option<&str>, with: &[String]) -> String {
    let mut link = format!("{url}#edition={edition}");
    if let Some(variant) = variant {
        link.push_str(&format!("&variant={variant}"));
    }
    if !with.is_empty() {
        link.push_str(&format!("&with={}", with.join(",")));
    }
    link
}

/// Opens the page on a selection and enters "Play a turn" with a real click.
async fn open_play(client: &Client, link: &str) -> Outcome<()> {
    client.goto("about:blank").await.map_err(|e| e.to_string())?;
    client.goto(link).await.map_err(|e| format!("cannot open {link}: {e}"))?;
    // The button shows once the rules' module is loaded.
    settled(client).await?;
    click(client, "#play-start").await
}

/// Compares the page's turn with `play`'s for the same answers.
fn compare_turns(what: &str, page_prompts: &[Value], page_trace: &Value, play: &Value) -> Outcome<()> {
    let want: Vec<Value> = play["prompts"]
        .as_array()
        .map(|ps| ps.iter().filter(|p| p.get("pending").is_none()).cloned().collect())
        .unwrap_or_default();
    if let Some(d) = difference(&json!(page_prompts), &json!(want), "prompts") {
        return Err(format!("{what}: the page's prompts differ from play's at {d}"));
    }
    if let Some(d) = difference(page_trace, &play["trace"], "trace") {
        return Err(format!("{what}: the page's trace differs from play's at {d}"));
    }
    Ok(())
}

/// How often the random turns met each construct of the flow.
#[derive(Debug, Default)]
struct Met {
    turns: usize,
    answers: usize,
    double_turns: usize,
    go_backs: usize,
    skipped: usize,
    chose: usize,
    chose_none: usize,
    features: usize,
    once: usize,
    any_time: usize,
    /// Options taken without asking (`taken`), items left out (`left_out`).
    taken: usize,
    left_out: usize,
    /// Answers of another player than the active one, in the trace.
    others: usize,
    /// Lines of the log that name an item by its text.
    named: usize,
}

impl Met {
    fn count(&mut self, trace: &Value) {
        for event in trace.as_array().into_iter().flatten() {
            match event["event"].as_str().unwrap_or_default() {
                "part" => self.double_turns += 1,
                "go_back" => self.go_backs += 1,
                "skipped" => self.skipped += 1,
                "chose" if event["item"].is_null() => self.chose_none += 1,
                "chose" => self.chose += 1,
                "step" if !event["feature"].is_null() => self.features += 1,
                "once" => self.once += 1,
                "any_time" => self.any_time += 1,
                "taken" => self.taken += 1,
                "left_out" => self.left_out += 1,
                _ => {}
            }
            if event.get("actor").is_some_and(|a| a != "active") {
                self.others += 1;
            }
        }
    }
}

/// Plays `PLAYS` random turns of random selections on the page and with `play`.
async fn random_turns(client: &Client, url: &str) -> Outcome<Met> {
    let catalog = catalog();
    let mut rng = fastrand::Rng::with_seed(PLAY_SEED);
    let mut met = Met::default();
    client.set_window_size(PHONE.0, PHONE.1).await.map_err(|e| format!("cannot resize: {e}"))?;
    for round in 0..PLAYS {
        let edition = &catalog.editions[rng.usize(..catalog.editions.len())].id;
        let variant = &catalog.variants[rng.usize(..catalog.variants.len())].id;
        let mut with: BTreeSet<String> =
            (0..rng.usize(0..=10)).map(|_| catalog.modules[rng.usize(..catalog.modules.len())].id.clone()).collect();
        // Half the turns can be builder double turns.
        if round % 2 == 0 {
            with.insert("builder".to_string());
        }
        // A third can skip 2B with the princess; a fifth has "only once" items at any time.
        if round % 3 == 0 {
            with.insert("princess".to_string());
        }
        if round % 5 == 0 {
            with.extend(["plague", "tower"].map(String::from));
        }
        let with: Vec<String> = with.into_iter().collect();
        open_play(client, &play_link(url, edition, Some(variant), &with)).await?;
        let mut played = Played::default();
        let end = play_on_page(client, &mut rng, usize::MAX, &mut played).await?;
        let what = format!("turn {round} ({edition}, {variant}, {with:?}), answers {:?}", played.answers);
        if !end.is_null() {
            return Err(format!("{what}: the turn is not over"));
        }
        let trace = run_js(client, READ_TRACE).await?;
        let play = play_json(None, &play_selection(edition, Some(variant), &with), &played.answers);
        if play["over"] != true {
            return Err(format!("{what}: play says the turn is not over"));
        }
        compare_turns(&what, &played.prompts, &trace, &play)?;
        let cfg = catalog.config(edition, Some(variant), &with.join(",")).map_err(|e| format!("{what}: {e:?}"))?;
        met.named += log_words(&turn_order(&cfg), &trace, &run_js(client, READ_LOG).await?)
            .map_err(|problem| format!("{what}: {problem}"))?;
        met.count(&trace);
        met.turns += 1;
        met.answers += played.answers.len();
    }
    Ok(met)
}

/// What the page's log says, line by line.
const READ_LOG: &str = "return Array.from(document.querySelectorAll('#play-log > li')).map((li) => li.textContent);";

/// A text in one line, as the page's script and tests write it.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Its first letter in upper case, as the page's script opens a line.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Checks the words of the English page's log against `trace`: each line is
/// the program's words for its event, an item named by its text in the
/// selection's edition as `order` prints it (one edition's wording, never two
/// glued), and who answered where it was another than the active player
/// (" (each player who scores)"); returns how many lines named an item.
fn log_words(order: &TurnOrder, trace: &Value, lines: &Value) -> Outcome<usize> {
    use carcassonne_rules_runtime::core::Actor;
    use carcassonne_rules_runtime::core::words::{Word, Words};
    fn walk(entries: &[Entry], out: &mut std::collections::HashMap<String, String>) {
        for e in entries {
            out.insert(e.id().to_string(), one_line(&e.text));
            walk(&e.children, out);
        }
    }
    let mut texts = std::collections::HashMap::new();
    for (_, list) in order.sections.iter() {
        walk(list, &mut texts);
    }
    order.steps().for_each(|s| walk(&s.items, &mut texts));
    let words = Words::english();
    let events = trace.as_array().cloned().unwrap_or_default();
    let lines = lines.as_array().cloned().unwrap_or_default();
    if events.len() != lines.len() {
        return Err(format!("the log has {} lines for {} events", lines.len(), events.len()));
    }
    let mut named = 0;
    for (event, line) in events.iter().zip(&lines) {
        let field = |key: &str| event[key].as_str().unwrap_or_default().to_string();
        let number = |value: &Value| value.as_u64().map_or_else(String::new, |n| n.to_string());
        // Who answered, where it was not the active player: " (each player who scores)".
        let by = match Actor::ALL.iter().find(|(name, _)| event["actor"] == *name) {
            Some((_, Actor::Active)) | None => String::new(),
            Some((_, actor)) => format!(" ({})", words.actor(*actor)),
        };
        let mut item = || {
            named += 1;
            texts.get(&field("item")).cloned().unwrap_or_else(|| format!("no item {}", field("item")))
        };
        let want = match field("event").as_str() {
            "part" => words.fill(Word::PlaySecondPart, &[("part", &number(&event["part"]))]),
            "step" => {
                let mut line = capitalized(&words.fill(Word::TraceStep, &[("step", &field("step"))]));
                if let Some([n, of]) = event["feature"].as_array().map(|f| [number(&f[0]), number(&f[1])]) {
                    line += &format!(" ({})", words.fill(Word::TraceFeature, &[("n", &n), ("of", &of)]));
                }
                line
            }
            "item" if event["done"] == true => words.fill(Word::PlayLogYes, &[("item", &item())]) + &by,
            "item" => words.fill(Word::PlayLogNo, &[("item", &item())]) + &by,
            "chose" if event["item"].is_null() => capitalized(words.get(Word::TraceChoseNone)) + &by,
            "chose" => capitalized(&words.fill(Word::TraceChose, &[("item", &item())])) + &by,
            "taken" => capitalized(&words.fill(Word::TraceTaken, &[("item", &item())])) + &by,
            "left_out" => capitalized(&words.fill(Word::TraceLeftOut, &[("item", &item())])),
            "skipped" => capitalized(&words.fill(Word::TraceSkipped, &[("step", &field("step"))])),
            "no_features" => capitalized(&words.fill(Word::TraceNoFeatures, &[("step", &field("step"))])),
            "once" => capitalized(&words.fill(Word::TraceOnce, &[("item", &item())])),
            "go_back" => capitalized(&words.fill(Word::TraceGoBack, &[("from", &field("from")), ("to", &field("to"))])),
            "any_time" => capitalized(&words.fill(Word::TraceAnyTime, &[("item", &item())])),
            _ => capitalized(words.get(Word::TraceEnd)),
        };
        if line.as_str() != Some(want.as_str()) {
            return Err(format!("the log says {line} for {event}, not {want:?}"));
        }
    }
    Ok(named)
}

/// Polls `script` until it returns true (a navigation's events are asynchronous).
async fn wait_for(client: &Client, script: &str, what: &str) -> Outcome<()> {
    let start = Instant::now();
    while run_js(client, script).await? != json!(true) {
        if start.elapsed() > Duration::from_secs(10) {
            return Err(format!("{what}: not after 10 s"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// Where the play mode stands: its prompt, its trace, whether it shows, and
/// how the page tells it (focus, the live step line, what each answer
/// button is described by).
const READ_PLAY: &str = r##"
const panel = document.getElementById("play");
const box = document.getElementById("play-prompt");
const described = Array.from(box.querySelectorAll("button")).map((b) =>
  (b.getAttribute("aria-describedby") || "").split(" ").filter((id) => id)
    .map((id) => document.getElementById(id) ? document.getElementById(id).textContent.replace(/\s+/g, " ").trim() : null));
return {
  shown: !panel.hidden && panel.checkVisibility(),
  order: document.getElementById("turn").checkVisibility(),
  hash: location.hash,
  focus: document.activeElement ? document.activeElement.id : null,
  live: !!document.getElementById("play-where").closest("[aria-live]"),
  item: box.querySelector("#play-item") ? box.querySelector("#play-item").textContent.replace(/\s+/g, " ").trim() : null,
  described,
  trace: Array.from(document.querySelectorAll("#play-log > li")).map((li) => JSON.parse(li.dataset.event)),
};
"##;

/// The turn lasts: reloaded mid-turn, the page is at the same prompt with
/// the same trace; Back leaves the play mode (not the page) and Forward comes
/// back to the turn; after each answer the focus is on the new question, the
/// step line is in a live region, and every answer button is described by
/// the question (and a `do` prompt's by the item's text).
async fn lasts(client: &Client, url: &str) -> Outcome<()> {
    let with = ["abbey_and_mayor", "builder", "princess_and_dragon"].map(String::from);
    open_play(client, &play_link(url, "C2", None, &with)).await?;
    let mut rng = fastrand::Rng::with_seed(PLAY_SEED ^ 3);
    let mut played = Played::default();
    let mut prompt = run_js(client, READ_PROMPT).await?;
    // Answers by real clicks, the page checked after each.
    while played.answers.len() < 8 && !prompt.is_null() {
        let (answer, selector) = random_answer(&mut rng, &prompt);
        played.answers.push(answer);
        click(client, &selector).await?;
        prompt = run_js(client, READ_PROMPT).await?;
        let seen = run_js(client, READ_PLAY).await?;
        let described = seen["described"].as_array().cloned().unwrap_or_default();
        let tied = described.iter().all(|ids| {
            ids.as_array().is_some_and(|ids| {
                !ids.is_empty()
                    && ids.iter().all(|t| t.is_string())
                    && (seen["item"].is_null() || ids.contains(&seen["item"]))
            })
        });
        // An "at any time" button keeps the focus where the player is.
        let asked = played.answers.last().is_some_and(|a| a.get("any_time").is_none());
        if prompt.is_null() || asked && seen["focus"] != "play-question" || seen["live"] != true || !tied {
            return Err(format!("after answers {:?} the page shows {seen}", played.answers));
        }
    }
    let before = run_js(client, READ_PLAY).await?;
    if !before["hash"].as_str().is_some_and(|h| h.contains("&play=")) {
        return Err(format!("the link does not keep the turn: {before}"));
    }
    let want = play_json(None, &play_selection("C2", None, &with), &played.answers);
    if difference(&before["trace"], &want["trace"], "trace").is_some() {
        return Err(format!("the page's turn is not play's: {before}"));
    }
    // Reloaded mid-turn: the same prompt, the same trace.
    client.refresh().await.map_err(|e| e.to_string())?;
    settled(client).await?;
    let (again, prompt_again) = (run_js(client, READ_PLAY).await?, run_js(client, READ_PROMPT).await?);
    if prompt_again != prompt || again["trace"] != before["trace"] || again["shown"] != true {
        return Err(format!("reloaded at {prompt}, the page shows {prompt_again} and {again}"));
    }
    // Back leaves the play mode, on the same page; Forward resumes the turn.
    client.goto(&play_link(url, "C2", None, &with)).await.map_err(|e| e.to_string())?;
    settled(client).await?;
    click(client, "#play-start").await?;
    for selector in ["#play-prompt button[data-answer=yes]", "#play-prompt button[data-answer=no]"] {
        click(client, selector).await?;
    }
    let playing = run_js(client, READ_PLAY).await?;
    client.back().await.map_err(|e| e.to_string())?;
    wait_for(client, "return document.getElementById('play').hidden;", "Back leaves the play mode").await?;
    let left = run_js(client, READ_PLAY).await?;
    let same_page = run_js(client, "return location.pathname.endsWith('/index.html');").await?;
    if left["order"] != true || same_page != true || left["hash"].as_str().is_some_and(|h| h.contains("play=")) {
        return Err(format!("after Back the page shows {left}"));
    }
    client.forward().await.map_err(|e| e.to_string())?;
    wait_for(client, "return !document.getElementById('play').hidden;", "Forward resumes the turn").await?;
    let resumed = run_js(client, READ_PLAY).await?;
    if resumed["trace"] != playing["trace"] || resumed["trace"].as_array().is_none_or(|t| t.len() < 3) {
        return Err(format!("after Forward the page shows {resumed}, not {playing}"));
    }
    // "Back to the order of play" leaves too.
    click(client, "#play-leave").await?;
    wait_for(client, "return document.getElementById('play').hidden;", "leaving").await
}

/// Undo: answers, undone one by one back to a point, answered differently,
/// give the trace of the second answers; undone back to the start, the turn
/// of no answers. Real clicks throughout.
async fn undo(client: &Client, url: &str) -> Outcome<()> {
    let with = ["abbey_and_mayor", "builder", "princess_and_dragon"].map(String::from);
    let selection = play_selection("C2", None, &with);
    open_play(client, &play_link(url, "C2", None, &with)).await?;
    let mut rng = fastrand::Rng::with_seed(PLAY_SEED ^ 1);
    let mut first = Played::default();
    let mut prompt = run_js(client, READ_PROMPT).await?;
    // Sixteen answers by real clicks.
    while first.answers.len() < 16 && !prompt.is_null() {
        let (answer, selector) = random_answer(&mut rng, &prompt);
        if answer.get("any_time").is_none() {
            first.prompts.push(as_play_prompt(&prompt));
        }
        first.answers.push(answer);
        click(client, &selector).await?;
        prompt = run_js(client, READ_PROMPT).await?;
    }
    let keep = first.answers.len() / 2;
    for _ in keep..first.answers.len() {
        click(client, "#play-undo").await?;
    }
    let answers = &first.answers[..keep];
    let back = play_json(None, &selection, answers);
    let pending = back["prompts"].as_array().and_then(|p| p.last()).cloned().unwrap_or(Value::Null);
    let shown = as_play_prompt(&run_js(client, READ_PROMPT).await?);
    let mut pending_shown = shown.clone();
    pending_shown["pending"] = json!(true);
    if pending.get("pending").is_none() || pending_shown != pending {
        return Err(format!("undone to {keep} answers, the page asks {shown}, play {pending}"));
    }
    let trace = run_js(client, READ_TRACE).await?;
    if let Some(d) = difference(&trace, &back["trace"], "trace") {
        return Err(format!("undone to {keep} answers of {:?}: the trace differs at {d}", first.answers));
    }
    // Another answer than the one undone, then on to the end.
    let mut second = Played { answers: answers.to_vec(), prompts: Vec::new() };
    let prompts_kept: usize = answers.iter().filter(|a| a.get("any_time").is_none()).count();
    second.prompts = first.prompts[..prompts_kept].to_vec();
    let prompt = run_js(client, READ_PROMPT).await?;
    let undone = &first.answers[keep];
    loop {
        let (answer, selector) = random_answer(&mut rng, &prompt);
        if answer != *undone && answer.get("any_time").is_none() {
            second.prompts.push(as_play_prompt(&prompt));
            second.answers.push(answer);
            click(client, &selector).await?;
            break;
        }
    }
    let end = play_on_page(client, &mut rng, usize::MAX, &mut second).await?;
    if !end.is_null() {
        return Err("the turn after undo is not over".to_string());
    }
    let trace = run_js(client, READ_TRACE).await?;
    compare_turns(
        &format!("after undo, answers {:?}", second.answers),
        &second.prompts,
        &trace,
        &play_json(None, &selection, &second.answers),
    )?;
    // Undo back to the start: the turn before any answer.
    for _ in 0..second.answers.len() {
        click(client, "#play-undo").await?;
    }
    let disabled = run_js(client, "return document.getElementById('play-undo').disabled;").await?;
    let start = play_json(None, &selection, &[]);
    let trace = run_js(client, READ_TRACE).await?;
    let shown = as_play_prompt(&run_js(client, READ_PROMPT).await?);
    if disabled != true || shown["seq"] != 0 || difference(&trace, &start["trace"], "trace").is_some() {
        return Err(format!("undone to the start: undo disabled {disabled}, prompt {shown}, trace {trace}"));
    }
    Ok(())
}

/// The phone-size screenshot of the mode: a builder's double turn, part 2, at 2B-1's choice.
async fn play_screenshot(client: &Client, url: &str, path: &Path) -> Outcome<()> {
    client.set_window_size(PHONE.0, PHONE.1).await.map_err(|e| e.to_string())?;
    open_play(client, &format!("{url}#edition=C2&with=abbey_and_mayor,builder")).await?;
    let mut prompt = run_js(client, READ_PROMPT).await?;
    for _ in 0..MAX_PROMPTS {
        if prompt.is_null() || prompt["part"] == 2 && prompt["kind"] == "choose" {
            break;
        }
        let selector = match prompt["kind"].as_str().unwrap_or_default() {
            "do" if prompt["item"] == "builder-double-turn" => "#play-prompt button[data-answer=yes]".to_string(),
            "do" => "#play-prompt button[data-answer=no]".to_string(),
            "choose" => format!("#play-prompt button[data-option=\"{}\"]", prompt["options"][0].as_str().unwrap_or("")),
            _ => "#play-prompt button[data-count=\"1\"]".to_string(),
        };
        prompt = client.execute(&click_and_read(), vec![json!(selector)]).await.map_err(|e| e.to_string())?;
    }
    run_js(client, "window.scrollTo(0, 0); return null;").await?;
    let png = client.screenshot().await.map_err(|e| e.to_string())?;
    std::fs::write(path, png).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[test]
#[ignore = "needs Chromium and chromedriver (apt-get install chromium chromium-driver); .ci/run runs it with --ignored"]
fn the_page_plays_a_turn_as_play_does() {
    let (chromium, chromedriver) = browser();
    let site = build_site();
    let profile = tempfile::tempdir().expect("profile dir");
    let driver = Driver::start(&chromedriver);
    let started = Instant::now();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let outcome = runtime.block_on(async {
        let client = chromium_session(&chromium, profile.path(), &driver).await?;
        let url = format!("file://{}", site.path().join("index.html").display());
        let result = tokio::time::timeout(SESSION_LIMIT, async {
            let met = random_turns(&client, &url).await?;
            undo(&client, &url).await?;
            musts_and_actors(&client, &url).await?;
            lasts(&client, &url).await?;
            refuses_as_play_does(&client, &url).await?;
            if let Some(path) = std::env::var_os("CARCASSONNE_SITE_PLAY_SCREENSHOT") {
                play_screenshot(&client, &url, Path::new(&path)).await?;
            }
            Ok::<Met, String>(met)
        })
        .await;
        let _ = client.close().await;
        result.map_err(|_| format!("the browser session took longer than {SESSION_LIMIT:?}"))?
    });
    drop(driver);
    match outcome {
        Ok(met) => {
            let _ = writeln!(std::io::stderr(), "play in Chromium: {met:?}, and undo, in {:.1?}", started.elapsed());
            assert_eq!(met.turns, PLAYS);
            // The seeded turns meet the flow's constructs, so the comparison covers them.
            for (what, n) in [
                ("double turns", met.double_turns),
                ("go-backs", met.go_backs),
                ("skipped steps", met.skipped),
                ("options taken", met.chose),
                ("choices passed", met.chose_none),
                ("feature rounds", met.features),
                ("at any time", met.any_time),
                ("options taken without asking", met.taken),
                ("items left out", met.left_out),
                ("answers of other players", met.others),
                ("items named in the log", met.named),
            ] {
                assert!(n > 0, "no {what} in {met:?}");
            }
        }
        Err(problem) => panic!("{problem}"),
    }
}

/// Plays a turn on the Dutch page by clicks (no to every item but a must,
/// which has one button, the first option or none, a count the page refuses,
/// then no feature) and reads what the play panel says on the way: where the
/// turn is, who is asked, the questions, the answer buttons, the refusal,
/// the log.
const PLAY_IN_DUTCH: &str = r##"
const box = document.getElementById("play-prompt");
const texts = (selector) =>
  Array.from(document.querySelectorAll(selector)).map((e) => e.textContent.replace(/\s+/g, " ").trim());
const seen = { where: [], asks: [], questions: [], buttons: [], refused: null };
const read = () => {
  seen.where.push(document.getElementById("play-where").textContent);
  seen.asks.push(...texts("#play-prompt .play-actor"));
  seen.questions.push(...texts("#play-prompt .play-question"));
  seen.buttons.push(...texts("#play-prompt button:not([data-option]):not([data-count])"));
};
for (let n = 0; n < 500 && box.dataset.kind !== "over"; n++) {
  read();
  const kind = box.dataset.kind;
  if (kind === "do") (box.querySelector("button[data-answer=no]") || box.querySelector("button[data-answer=yes]")).click();
  else if (kind === "choose") (box.querySelector("button[data-pass]") || box.querySelector("button[data-option]")).click();
  else if (seen.refused === null) {
    document.getElementById("play-count").value = "999";
    box.querySelector("button[data-count-ok]").click();
    seen.refused = document.getElementById("play-error").textContent;
  } else box.querySelector('button[data-count="0"]').click();
}
read();
seen.kind = box.dataset.kind;
seen.log = texts("#play-log > li");
seen.panel = document.getElementById("play").innerText;
return seen;
"##;

/// "Play a turn" on the Dutch page speaks Dutch: where the turn is, what it
/// asks, its buttons, its refusal and its log, and no English word of the mode.
async fn dutch_turn(client: &Client) -> Outcome<()> {
    click(client, "#play-start").await?;
    let seen = run_js(client, PLAY_IN_DUTCH).await?;
    let strings = |key: &str| -> Vec<String> {
        seen[key].as_array().into_iter().flatten().filter_map(|v| v.as_str().map(String::from)).collect()
    };
    let expect =
        |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("playing on the Dutch page: {what}: {seen}")) };
    expect(seen["kind"] == "over", "the turn ends")?;
    let (questions, buttons, log) = (strings("questions"), strings("buttons"), strings("log"));
    let asks = strings("asks");
    // A builder's turn: in part 1 of a double turn that may come.
    expect(strings("where").first().is_some_and(|w| w.starts_with("Deel 1 · Stap 1")), "where the turn starts")?;
    let dutch_questions = [
        "Voer uit:",
        "Voer uit: verplicht",
        "Je mag:",
        "Klopt dit?",
        "Kies er één",
        "Kies er één of geen",
        "Hoeveel projecten zijn afgebouwd?",
    ];
    expect(questions.iter().any(|q| q == "Voer uit:"), "the question to carry out an item")?;
    expect(questions.iter().any(|q| q == "Voer uit: verplicht"), "the instruction to carry out a must")?;
    // Who is asked, where it is not you: the scoring order, of each player who scores.
    expect(asks.iter().any(|a| a == "Aan zet: elke speler die punten krijgt"), "who is asked")?;
    expect(asks.iter().all(|a| a.starts_with("Aan zet: ")), "who is asked")?;
    expect(log.iter().any(|l| l.ends_with(" (elke speler die punten krijgt)")), "who answered, in the log")?;
    expect(questions.last().is_some_and(|q| q == "De beurt is voorbij."), "the end of the turn")?;
    expect(questions.iter().rev().skip(1).all(|q| dutch_questions.contains(&q.as_str())), "the questions")?;
    let dutch_buttons =
        ["Gedaan", "Lukte niet", "Heb ik gedaan", "Heb ik niet gedaan", "Ja", "Nee", "Geen van deze", "OK"];
    expect(buttons.iter().any(|b| b == "Lukte niet"), "the button of an item not carried out")?;
    expect(buttons.last().is_some_and(|b| b == "Nog een beurt spelen"), "the button of another turn")?;
    expect(buttons.iter().rev().skip(1).all(|b| dutch_buttons.contains(&b.as_str())), "the buttons")?;
    expect(seen["refused"] == "Antwoord met een getal van 0 tot en met 64", "the refusal of 999 features")?;
    expect(log.first().is_some_and(|l| l.starts_with("Stap 1")), "the log's first line")?;
    expect(log.iter().any(|l| l.starts_with("Nee: ")), "the log's answers")?;
    expect(log.iter().any(|l| l.ends_with(": geen afgebouwd project")), "the log's per-feature step")?;
    expect(log.last().is_some_and(|l| l == "Einde van de beurt"), "the log's last line")?;
    let panel = seen["panel"].as_str().unwrap_or_default();
    for english in [
        "Step",
        "Part",
        "Carry out",
        "You may",
        "Does this hold",
        "Done",
        "Could not",
        "I did",
        "Yes",
        "No:",
        "Choose one",
        "None of",
        "How many",
        "The turn is over",
        "Play another",
        "End of turn",
        "At any time",
        "More",
        "a must",
        "Asks",
        "each player",
        "the player",
        "cannot be declined",
    ] {
        expect(!panel.contains(english), &format!("the panel says {english:?}"))?;
    }
    click(client, "#play-leave").await
}

/// The page in every language: each language's page in its language (its
/// `lang`, titles, names, words and counts), an English fallback marked as
/// English, the switch to another language keeping the selection, and the
/// plural category of every count from 0 to 25 the same in the page's script
/// (`Intl.PluralRules`) as in Rust (the compiler's CLDR rules, which check
/// the translations' plural forms).
#[test]
#[ignore = "needs Chromium and chromedriver (apt-get install chromium chromium-driver); .ci/run runs it with --ignored"]
fn every_language_has_its_page_and_the_switch_keeps_the_selection() {
    let (chromium, chromedriver) = browser();
    let site = build_site();
    let profile = tempfile::tempdir().expect("profile dir");
    let driver = Driver::start(&chromedriver);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let outcome: Outcome<()> = runtime.block_on(async {
        let client = chromium_session(&chromium, profile.path(), &driver).await?;
        let result = languages(&client, site.path()).await;
        let _ = client.close().await;
        result
    });
    drop(driver);
    if let Err(problem) = outcome {
        panic!("{problem}");
    }
}

async fn languages(client: &Client, site: &Path) -> Outcome<()> {
    // As the page writes it (the default publisher is left out).
    let hash = "#edition=C1&with=builder,abbey";
    let url = format!("file://{}{hash}", site.join("index.html").display());
    client.goto(&url).await.map_err(|e| format!("cannot open {url}: {e}"))?;
    settled(client).await?;
    // The switch to Dutch carries the selection; following it keeps it.
    let href =
        run_js(client, "return document.querySelector('nav.languages a[hreflang=nl]').getAttribute('href');").await?;
    if href != json!(format!("index.nl.html{hash}")) {
        return Err(format!("the link to the Dutch page is {href}, not index.nl.html{hash}"));
    }
    click(client, "nav.languages a[hreflang=nl]").await?;
    settled(client).await?;
    const READ: &str = r##"
        const checked = (sel) => Array.from(document.querySelectorAll(sel)).filter((b) => b.checked).map((b) => b.dataset.module || b.value);
        const title = (id) => document.getElementById(id).textContent.replace(/\s+/g, " ").trim();
        return {
          lang: document.documentElement.lang,
          hash: location.hash,
          editions: checked("input[name=edition]"),
          modules: checked("input[data-module]"),
          step: title("step-1B-title"),
          summary: document.getElementById("summary").textContent,
          status: document.getElementById("status").textContent,
          english: Array.from(document.querySelectorAll("#turn [lang=en]")).length,
          plurals: Array.from({ length: 26 }, (_, n) => new Intl.PluralRules(document.documentElement.lang).select(n)),
        };"##;
    let nl = run_js(client, READ).await?;
    let expect = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("the Dutch page: {what}: {nl}")) };
    expect(nl["lang"] == "nl", "lang")?;
    expect(nl["hash"] == hash, "the selection in the link")?;
    expect(nl["editions"] == json!(["C1"]), "the edition")?;
    expect(
        nl["modules"] == json!(["builder", "abbey"]) || nl["modules"] == json!(["abbey", "builder"]),
        "the modules",
    )?;
    expect(nl["step"].as_str().is_some_and(|t| t.starts_with("Stap 1B: Een tegel trekken")), "step 1B's title")?;
    expect(
        nl["summary"].as_str().is_some_and(|t| t.contains("1e editie") && t.contains("Bouwmeester")),
        "the summary",
    )?;
    expect(nl["status"].as_str().is_some_and(|t| t.contains(" onderdelen, waarvan ")), "the status's counts")?;
    expect(nl["english"] == 0, "Dutch is complete: nothing falls back to English")?;
    dutch_turn(client).await?;
    // Russian is in part: what is not translated is marked as English.
    client.goto(&format!("file://{}{hash}", site.join("index.ru.html").display())).await.map_err(|e| e.to_string())?;
    settled(client).await?;
    let ru = run_js(client, READ).await?;
    if ru["lang"] != "ru"
        || ru["english"].as_u64().unwrap_or(0) == 0
        || !ru["step"].as_str().unwrap_or("").starts_with("Шаг 1B")
    {
        return Err(format!("the Russian page: {ru}"));
    }
    // Plural categories agree with Rust's for 0–25 in every language.
    for (lang, page) in [("en", "index.html"), ("nl", "index.nl.html"), ("ru", "index.ru.html")] {
        client.goto(&format!("file://{}", site.join(page).display())).await.map_err(|e| e.to_string())?;
        settled(client).await?;
        let read = run_js(client, READ).await?;
        let rust: Vec<&str> =
            (0..26).map(|n| carcassonne_rules_compiler::translation::plural_category(lang, n).unwrap_or("?")).collect();
        if read["plurals"] != json!(rust) {
            return Err(format!("{lang}: the page's plural categories {} are not Rust's {rust:?}", read["plurals"]));
        }
    }
    Ok(())
}
