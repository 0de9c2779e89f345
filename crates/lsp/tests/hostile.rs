//! Hostile strings in the rules reach hover and completion only escaped:
//! Markdown and HTML in an item's text are shown as written, never read as
//! markup, and control characters are shown as escapes.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{Client, find};
use pulldown_cmark::{Event, Options, Parser, Tag};
use serde_json::Value;

const ABBEY: &str = "expansions/abbey-and-mayor.yaml";

/// Markup a rule author could write in a text, each piece live if unescaped.
const HOSTILE: &str =
    "*bold* _em_ `tick` [x](javascript:alert(1)) <script>alert(1)</script> &amp; &#42; <b>b</b> ~~s~~ # h";

/// What a CommonMark reader (with GitHub's tables and strikethrough, as
/// editors render hovers) makes of `markdown`: its plain text, and every
/// piece of markup other than the `allowed` ones.
fn read(markdown: &str, allowed: &[&str]) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut markup = Vec::new();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Text(t) => text.push_str(&t),
            Event::Code(c) => text.push_str(&c),
            Event::Html(h) | Event::InlineHtml(h) => markup.push(format!("html {h}")),
            Event::Start(tag) => {
                let name = match tag {
                    Tag::Link { .. } => "link",
                    Tag::Image { .. } => "image",
                    Tag::Emphasis => "emphasis",
                    Tag::Strong => "strong",
                    Tag::Strikethrough => "strikethrough",
                    Tag::Heading { .. } => "heading",
                    Tag::CodeBlock(_) => "code block",
                    Tag::HtmlBlock => "html block",
                    _ => continue,
                };
                if !allowed.contains(&name) {
                    markup.push(name.to_string());
                }
            }
            _ => {}
        }
    }
    (text, markup)
}

fn hover(client: &mut Client, rel: &str, text: &str, needle: &str) -> String {
    let (line, col) = find(text, needle, 0);
    let answer = client.request("textDocument/hover", client.at(rel, line, col));
    answer["contents"]["value"].as_str().unwrap_or_else(|| panic!("no hover: {answer}")).to_string()
}

#[test]
fn markdown_and_html_in_a_text_are_shown_as_written() {
    let mut client = Client::start(false);
    let abbey = client.text(ABBEY).replacen("text: An abbey tile\n", &format!("text: '{HOSTILE}'\n"), 1).replacen(
        "          text: A halfling tile\n",
        "          after: abbey-supply-abbey-tile\n          text: A halfling tile\n",
        1,
    );
    client.open(ABBEY, &abbey);
    assert_eq!(client.diagnostics_of(ABBEY), Vec::<Value>::new(), "the markup is a valid text");

    let shown = hover(&mut client, ABBEY, &abbey, "abbey-supply-abbey-tile\n");
    let (text, markup) = read(&shown, &["strong"]);
    assert_eq!(markup, Vec::<String>::new(), "{shown}");
    assert!(text.contains(HOSTILE), "the text as written, in {text:?}");
    assert_eq!(shown.matches("**").count(), 2, "only the id is bold: {shown}");

    // Completion after the sibling's `after:` documents the item by its text.
    let (line, col) = find(&abbey, "after: abbey-supply-abbey-tile", 7);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let item = answer.as_array().unwrap().iter().find(|c| c["label"] == "abbey-supply-abbey-tile").expect("offered");
    let doc = item["documentation"]["value"].as_str().unwrap();
    let (text, markup) = read(doc, &[]);
    assert_eq!(markup, Vec::<String>::new(), "{doc}");
    assert_eq!(text, HOSTILE);
}

#[test]
fn control_characters_never_reach_a_hover() {
    let mut client = Client::start(false);
    let good = client.text(ABBEY);
    client.open(ABBEY, &good);
    client.diagnostics_of(ABBEY);
    // `check` refuses them: the hover still answers, from the last good rules.
    let broken = good.replacen("text: An abbey tile\n", "text: \"An abbey\\e[31m tile\\a\\u202e\"\n", 1);
    client.change(ABBEY, &broken);
    let found = client.diagnostics_of(ABBEY);
    assert!(found.iter().any(|d| d["message"].as_str().unwrap().contains("control character")), "{found:?}");
    let shown = hover(&mut client, ABBEY, &broken, "abbey-supply-abbey-tile\n");
    assert!(shown.contains("An abbey tile"), "the last good text: {shown}");
    assert!(!shown.chars().any(|c| c.is_control() && c != '\n'), "{shown:?}");
}

#[test]
fn a_model_holding_control_characters_is_hovered_with_them_escaped() {
    use carcassonne_rules_compiler::model::{Wording, WordingPart};
    let compiled = carcassonne_rules_compiler::compile_dir(&common::bundled_rules());
    let mut rules = compiled.result.unwrap_or_else(|_| panic!("the bundled rules check"));
    let id = "abbey-supply-abbey-tile";
    let hostile = "tile\u{1b}[31m red\u{7}\r\n# heading\u{202e}";
    fn set(items: &mut [carcassonne_rules_compiler::model::Item], id: &str, text: &Wording) -> bool {
        items.iter_mut().any(|i| {
            if i.id == id {
                i.text = text.clone();
                true
            } else {
                set(&mut i.children, id, text)
            }
        })
    }
    let text = Wording(vec![WordingPart::Literal(hostile.into())]);
    assert!(rules.phases.iter_mut().flat_map(|p| &mut p.steps).any(|s| set(&mut s.items, id, &text)));
    let source = std::fs::read_to_string(common::bundled_rules().join(ABBEY)).unwrap();
    let offset = source.find(&format!("id: {id}")).unwrap() + 4;
    let shown = carcassonne_rules_lsp::features::hover(&rules, &source, offset).expect("a hover");
    assert!(!shown.chars().any(|c| c.is_control() && c != '\n'), "{shown:?}");
    assert!(!shown.contains('\u{202e}'), "{shown:?}");
    let (text, markup) = read(&shown, &["strong"]);
    assert_eq!(markup, Vec::<String>::new(), "{shown}");
    assert!(text.contains(r"tile\u{1b}[31m red\u{7}\r\n# heading"), "{text:?}");
}

#[test]
fn markdown_in_a_module_and_an_expansion_name_is_shown_as_written() {
    let mut client = Client::start(false);
    let module_name = "<img src=x onerror=alert(1)> **Abbey** [t](javascript:x)";
    let expansion_name = "_Abbey_ & `Mayor` &lt;";
    let modules = client
        .text("modules.yaml")
        .replacen("{ id: abbey, name: Abbey tiles }", &format!("{{ id: abbey, name: '{module_name}' }}"), 1)
        .replacen("name: Abbey & Mayor\n", &format!("name: '{expansion_name}'\n"), 1);
    client.open("modules.yaml", &modules);
    assert_eq!(client.diagnostics_of("modules.yaml"), Vec::<Value>::new(), "valid names");
    let abbey = client.text(ABBEY);
    client.open(ABBEY, &abbey);
    let shown = hover(&mut client, ABBEY, &abbey, "abbey\n");
    // Only the hover's own: the module's name in bold, its expansion's in italics.
    let (text, markup) = read(&shown, &[]);
    assert_eq!(markup, ["strong", "emphasis"], "{shown}");
    assert!(text.contains(module_name) && text.contains(expansion_name), "{text:?}");
    // The module's completion documents it the same way.
    let (line, col) = find(&abbey, "when: abbey\n", 6);
    let answer = client.request("textDocument/completion", client.at(ABBEY, line, col));
    let item = answer.as_array().unwrap().iter().find(|c| c["label"] == "abbey").expect("offered");
    let doc = item["documentation"]["value"].as_str().unwrap();
    let (text, markup) = read(doc, &[]);
    assert_eq!(markup, ["strong", "emphasis"], "{doc}");
    assert!(text.contains(module_name) && text.contains(expansion_name), "{text:?}");
}

#[test]
fn a_hostile_key_reaches_the_editor_escaped() {
    let mut client = Client::start(false);
    let good = client.text(ABBEY);
    client.open(ABBEY, &good);
    client.diagnostics_of(ABBEY);
    // A key the records do not have, its control characters escaped in quotes.
    client.change(ABBEY, &format!("\"x\\e[2J\\u202e\": 1\n{good}"));
    let found = client.diagnostics_of(ABBEY);
    let messages: Vec<&str> = found.iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(messages.iter().any(|m| m.contains(r"unknown field `x\u{1b}[2J\u{202e}`")), "{messages:?}");
    assert!(!messages.iter().any(|m| m.chars().any(|c| c.is_control() && c != '\n')), "{messages:?}");
}
