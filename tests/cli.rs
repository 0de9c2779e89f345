//! The command line's contracts: `order --format json`, `modules --format json`,
//! errors for unknown ids, `gen --check` on the bundled rules.

use std::process::{Command, Output};

use serde_json::Value;

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-rules")).args(args).output().expect("run the binary")
}

fn json(args: &[&str]) -> Value {
    let out = cli(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// The keys of a JSON object, sorted.
fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value.as_object().expect("an object").keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

fn assert_item_shape(item: &Value) {
    assert_eq!(keys(item), ["children", "foreign", "id", "markers", "origin", "text"], "{item}");
    assert!(
        item["markers"].as_array().expect("markers").iter().all(|m| m.as_str().is_some_and(|m| m == m.to_uppercase()))
    );
    assert!(item["foreign"].is_boolean());
    item["children"].as_array().expect("children").iter().for_each(assert_item_shape);
}

#[test]
fn order_json_follows_the_contract() {
    let order = json(&["order", "--edition", "C2", "--with", "abbey_and_mayor", "--format", "json"]);
    assert_eq!(keys(&order), ["any_time", "edition", "final_scoring", "modules", "notes", "phases", "setup"]);
    assert_eq!(order["edition"], "C2");
    assert_eq!(order["modules"], serde_json::json!(["abbey", "barn", "mayor", "wagon"]));

    let phases = order["phases"].as_array().expect("phases");
    assert_eq!(phases.iter().map(|p| p["id"].as_str().expect("id")).collect::<Vec<_>>(), ["1", "2", "3", "4"]);
    let steps: Vec<&Value> = phases.iter().flat_map(|p| p["steps"].as_array().expect("steps")).collect();
    let ids: Vec<&str> = steps.iter().map(|s| s["id"].as_str().expect("id")).collect();
    assert_eq!(
        ids,
        ["1A", "1B", "1C", "2A", "2B-1", "2B-2", "2C", "3A", "3B", "3C", "4A", "4B"],
        "no dragon: no 2D, no 3D"
    );
    for step in &steps {
        assert_eq!(keys(step), ["id", "items", "repeat", "title"]);
        step["items"].as_array().expect("items, possibly empty").iter().for_each(assert_item_shape);
    }
    assert!(steps.iter().all(|s| s["id"] == "3B" || s["repeat"].is_null()), "no builder: no double turn");
    assert_eq!(steps[8]["repeat"], "per_feature");
    for section in ["notes", "setup", "any_time", "final_scoring"] {
        order[section].as_array().expect(section).iter().for_each(assert_item_shape);
    }
    assert!(!order["setup"].as_array().expect("setup").is_empty(), "Abbey & Mayor brings setup");
    assert!(!order["final_scoring"].as_array().expect("final scoring").is_empty(), "the barn scores at the end");

    // The abbey stands in 1B before the ordinary draw, where the wiki puts it.
    let draw: Vec<(&str, &str)> = steps[1]["items"]
        .as_array()
        .expect("1B items")
        .iter()
        .map(|i| (i["id"].as_str().expect("id"), i["origin"].as_str().expect("origin")))
        .collect();
    let abbey = draw.iter().position(|(_, origin)| *origin == "abbey").expect("an abbey item in 1B");
    let base = draw.iter().position(|(id, _)| id.starts_with("draw-tile")).expect("the ordinary draw");
    assert!(abbey < base, "{draw:?}");
}

#[test]
fn builder_makes_the_double_turn_block() {
    let order = json(&["order", "--edition", "C2", "--with", "builder", "--format", "json"]);
    let steps: Vec<&Value> = order["phases"]
        .as_array()
        .expect("phases")
        .iter()
        .flat_map(|p| p["steps"].as_array().expect("steps"))
        .collect();
    let repeats: Vec<(&str, &Value)> = steps.iter().map(|s| (s["id"].as_str().expect("id"), &s["repeat"])).collect();
    for (id, repeat) in repeats {
        let expected = match id {
            "1A" | "4B" => Value::Null,
            "3B" => "per_feature".into(),
            _ => "double_turn".into(),
        };
        assert_eq!(*repeat, expected, "step {id}");
    }
}

#[test]
fn modules_json_follows_the_contract() {
    let modules = json(&["modules", "--format", "json"]);
    let expansions = modules["expansions"].as_array().expect("expansions");
    let abbey = expansions.iter().find(|x| x["id"] == "abbey_and_mayor").expect("Abbey & Mayor");
    assert_eq!(abbey["name"], "Abbey & Mayor");
    assert!(abbey["editions"].as_array().expect("editions").contains(&"C2".into()));
    let ids: Vec<&str> =
        abbey["modules"].as_array().expect("modules").iter().map(|m| m["id"].as_str().expect("id")).collect();
    assert_eq!(ids, ["abbey", "mayor", "wagon", "barn"]);
    assert!(abbey["modules"][0]["name"].is_string());
}

#[test]
fn unknown_ids_are_errors_with_suggestions() {
    let out = cli(&["order", "--edition", "C2", "--with", "builder,abey"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown module or expansion `abey`"), "{stderr}");
    assert!(stderr.contains("did you mean `abbey`?"), "{stderr}");
    assert!(out.stdout.is_empty());

    let out = cli(&["order", "--edition", "c2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `C2`?"));
}

#[test]
fn bundled_rules_check_and_generated_code_is_current() {
    let out = cli(&["check"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = cli(&["gen", "--check"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn text_and_markdown_render_every_step() {
    for format in ["text", "markdown"] {
        let out = cli(&["order", "--edition", "C1", "--with", "dragon", "--format", format]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        for step in ["1A", "2D", "4B"] {
            assert!(text.contains(&format!("Step {step}:")), "{format} lacks {step}");
        }
        assert!(text.contains("There are no actions in this step."), "{format}");
    }
}

#[test]
fn publisher_variants_move_the_dragon_in_different_steps() {
    let steps = |variant: &[&str]| {
        let mut args = vec!["order", "--edition", "C1", "--with", "dragon", "--format", "json"];
        args.extend_from_slice(variant);
        let order = json(&args);
        let ids: Vec<String> = order["phases"]
            .as_array()
            .expect("phases")
            .iter()
            .flat_map(|p| p["steps"].as_array().expect("steps"))
            .map(|s| s["id"].as_str().expect("id").to_string())
            .collect();
        (ids.contains(&"2D".to_string()), ids.contains(&"3D".to_string()))
    };
    assert_eq!(steps(&[]), (true, false), "Hans im Glück's rules by default: the dragon moves in 2D");
    assert_eq!(steps(&["--variant", "zmg"]), (true, false));
    assert_eq!(steps(&["--variant", "rgg"]), (false, true), "Rio Grande's: in 3D");

    let out = cli(&["order", "--edition", "C1", "--variant", "rgx"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `rgg`?"));
}
