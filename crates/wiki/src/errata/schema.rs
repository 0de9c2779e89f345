//! The JSON Schema of `errata.yaml`, written by `carcassonne-rules gen` into
//! `generated/schemas/` beside the rules files' schemas, derived the same
//! way from the records the errata are read into: the sections, items and
//! condition names it offers are the rules' own.

use carcassonne_rules_backends::schema::{self, SchemaFile, offered};
use carcassonne_rules_compiler::model::{Item, Rules};
use carcassonne_rules_compiler::syntax::KEBAB;
use serde_json::{Map, Value, json};

use super::RawErrata;

/// The schema's file name in the generated schemas' folder.
pub const NAME: &str = "errata.schema.json";

/// Offered on a list: the sections the comparison covers (notes, any_time
/// and the steps).
pub const SECTIONS: &str = "errata-sections";
/// Offered on a list: the ids of the rules' top-level items.
pub const TOP_LEVEL_ITEMS: &str = "top-level-items";

/// The schema of `errata.yaml` for `rules`.
pub fn schema(rules: &Rules) -> SchemaFile {
    let own = |what: &str, node: &mut Map<String, Value>| match what {
        SECTIONS => {
            let outside = super::SECTIONS.map(|section| section.name());
            let sections: Vec<&str> = outside.into_iter().chain(rules.steps().map(|s| s.id.as_str())).collect();
            node.insert("items".into(), json!({ "enum": sections }));
            true
        }
        TOP_LEVEL_ITEMS => {
            let top_level: Vec<&str> = super::top_level_items(rules).map(|i: &Item| i.id.as_str()).collect();
            let mut item = Map::new();
            item.insert("description".into(), "A top-level item id.".into());
            offered(&mut item, json!({ "enum": top_level }), Some(KEBAB));
            node.insert("items".into(), Value::Object(item));
            true
        }
        _ => false,
    };
    schema::document::<RawErrata>(rules, NAME, "errata.yaml", &own)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used)]

    use std::path::Path;

    use carcassonne_rules_backends::schema::record_keys;
    use carcassonne_rules_compiler::compile_dir;
    use serde_json::Value;

    use super::super::{RawClassReading, RawDifference, RawErrata, StartTag};

    /// The schema is derived from the records; serde's own field lists prove
    /// that it offers exactly the keys the loader reads, record by record.
    #[test]
    fn the_errata_schema_knows_every_key_the_loader_reads() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let rules = compile_dir(&manifest.join("../compiler/tests/fixtures/minimal")).result.expect("fixture");
        let schema: Value = serde_json::from_str(&super::schema(&rules).contents).expect("JSON");
        let offered = |pointer: &str| -> Vec<String> {
            let properties = schema.pointer(&format!("{pointer}/properties")).expect("properties");
            let mut keys: Vec<String> = properties.as_object().expect("an object").keys().cloned().collect();
            keys.sort();
            keys
        };
        let read = |keys: &[&str]| -> Vec<String> {
            let mut keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
            keys.sort();
            keys
        };
        for (keys, pointer) in [
            (record_keys::<RawErrata>(), ""),
            (record_keys::<RawClassReading>(), "/definitions/class_reading"),
            (record_keys::<RawDifference>(), "/definitions/difference"),
            (record_keys::<StartTag>(), "/definitions/difference/properties/ignored_start_tags/items"),
        ] {
            assert!(keys.len() >= 2, "{pointer}: serde lists {keys:?}");
            assert_eq!(read(keys), offered(pointer), "{pointer}");
        }
    }
}
