//! Lists the bundled rules (`rules/**/*.yaml`) for the binary, which embeds
//! them (`src/cli/bundled.rs`): `site`, `wiki`, `check`, … then run anywhere,
//! also where there is no `rules/` folder, as when installed from a package.

#![forbid(unsafe_code)]

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    println!("cargo::rerun-if-changed=rules");
    let mut files = Vec::new();
    if let Err(err) = yaml_files(Path::new("rules"), "", &mut files) {
        eprintln!("error: cannot list the bundled rules in rules/: {err}");
        return ExitCode::FAILURE;
    }
    files.sort();
    let mut code = String::from("/// The bundled rules: each file's path under `rules/` and its text.\n");
    code.push_str("pub const FILES: &[(&str, &str)] = &[\n");
    for name in &files {
        // `{:?}` of a str is a valid Rust string literal.
        let path = format!("/rules/{name}");
        code.push_str(&format!("    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {path:?}))),\n"));
    }
    code.push_str("];\n");
    let Some(out) = std::env::var_os("OUT_DIR") else {
        eprintln!("error: OUT_DIR is not set: run this build script through cargo");
        return ExitCode::FAILURE;
    };
    let out = Path::new(&out).join("bundled_rules.rs");
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str())
        && let Err(err) = std::fs::write(&out, code)
    {
        eprintln!("error: cannot write {}: {err}", out.display());
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The `.yaml` files under `dir`, `/`-separated after `prefix`.
fn yaml_files(dir: &Path, prefix: &str, files: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else { continue };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            yaml_files(&entry.path(), &format!("{prefix}{name}/"), files)?;
        } else if kind.is_file() && name.ends_with(".yaml") {
            files.push(format!("{prefix}{name}"));
        }
    }
    Ok(())
}
