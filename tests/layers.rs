//! The layers of `src/`: each module imports only modules of a layer strictly below its
//! own (docs/CONTRIBUTING.md, "Layers"). A module's submodules (`src/store/locate.rs`
//! is `store`) are one module. The test reads the source text: every `crate::X` and
//! `super::X` outside comments and string literals, in `use` lines and in paths.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Module -> layer, lowest first. Written once; docs/CONTRIBUTING.md says the same.
const LAYERS: &[(&str, usize)] = &[
    ("error", 0),
    // a RefCell whose borrows a trap cannot leave set
    ("cell", 0),
    // what the host lends (its SHA-256, clock and locale); text: offsets and units, visible characters
    ("host", 1),
    ("citation", 1),
    ("visible", 1),
    ("json", 2),
    ("rules", 2),
    ("clock", 2),
    ("policy", 3),
    ("contract", 4),
    ("digest", 5),
    ("schema", 5),
    ("store", 6),
    ("review", 6),
    ("excerpt", 6),
    ("assess", 7),
    ("catalog", 7),
    ("parsed", 7),
    ("render", 8),
    ("annotation", 8),
    ("outcome", 8),
    ("bundle", 9),
    ("import", 10),
    // every code of every layer, the importers' included
    ("codes", 11),
    // the binding's options and the types generator: may import anything (not checked here)
    ("options", 12),
    ("ts", 12),
];

/// Files that are not checked as importers: the binding's, and the crate root (it only
/// declares modules and re-exports names).
const NOT_CHECKED: &[&str] = &["src/options.rs", "src/ts.rs", "src/lib.rs"];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/store/locate.rs` -> `store`, `src/json.rs` -> `json`.
fn module_of(relative: &str) -> String {
    let rest = relative.strip_prefix("src/").unwrap_or(relative);
    let first = rest.split('/').next().unwrap_or(rest);
    first.strip_suffix(".rs").unwrap_or(first).to_owned()
}

/// The text with comments, char literals and string literals (raw ones too) blanked out.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !b.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_') {
            // r"…", r#"…"#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (b.get(i + 2) == Some(&'\'') || (next == Some('\\') && b[i..].iter().skip(2).take(10).any(|x| *x == '\''))) {
            // a char literal: 'x', '\n', '\u{1c}', '\''
            let mut j = i + 2;
            if next == Some('\\') {
                j = i + 3;
            }
            while j < b.len() && b[j] != '\'' {
                j += 1;
            }
            out.push_str("' '");
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The modules each `crate::` / `super::` reference names, as (module, the text).
fn references(code: &str, own: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        // `$crate::` is `crate::`; `foo_crate::` is not.
        let before = code[..at].chars().next_back();
        if before.is_some_and(is_ident) {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        let line_end = rest.find(['\n', ';']).unwrap_or(rest.len());
        let shown = format!("crate::{}", rest[..line_end.min(80)].trim_end());
        if let Some(group) = rest.strip_prefix('{') {
            // `use crate::{a, b::c, d::{e, f}}`: the first name of each top-level item.
            let mut depth = 0;
            let mut item = String::new();
            let mut items = Vec::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                    _ => {}
                }
                if depth == 0 && c != ',' {
                    item.push(c);
                }
            }
            items.push(item);
            for item in items {
                let name: String = item.trim().chars().take_while(|c| is_ident(*c)).collect();
                if !name.is_empty() && name != "self" {
                    found.push((name, shown.clone()));
                }
            }
        } else {
            let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
            if !name.is_empty() {
                found.push((name, shown));
            }
        }
    }
    // `super::` from a submodule is its parent: the same top-level module (from a
    // top-level file, a `mod tests` inside it). Either way, the file's own module.
    if code.contains("super::") {
        found.push((own.to_owned(), "super::".to_owned()));
    }
    found
}

/// Names at the crate root that are not modules (macros exported with `#[macro_export]`).
fn is_module(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
}

fn violations_in(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    let mut problems = Vec::new();
    for file in files {
        let relative = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let own = module_of(&relative);
        if relative == "src/lib.rs" {
            continue;
        }
        let Some(own_layer) = layer(&own) else {
            problems.push(format!("{relative}: module `{own}` is in no layer of the table in tests/layers.rs"));
            continue;
        };
        if NOT_CHECKED.contains(&relative.as_str()) {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(&file).unwrap());
        let mut seen = BTreeSet::new();
        for (target, shown) in references(&code, &own) {
            if target == own || !is_module(&target) || !seen.insert(target.clone()) {
                continue;
            }
            match layer(&target) {
                None => problems.push(format!("{relative}: `{shown}` names `{target}`, which is in no layer")),
                Some(l) if l >= own_layer => problems.push(format!(
                    "{relative}: `{shown}`: `{own}` (layer {own_layer}) imports `{target}` (layer {l}); a module may import only layers below its own"
                )),
                Some(_) => {}
            }
        }
    }
    problems
}

#[test]
fn every_module_imports_only_layers_below_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let problems = violations_in(root);
    assert!(problems.is_empty(), "{} import(s) against the layers:\n  {}", problems.len(), problems.join("\n  "));
}

#[test]
fn the_reader_sees_imports_in_use_lines_and_paths_but_not_in_comments_or_strings() {
    let code = code_only(
        "use crate::{json::join, rules::{self, sized}};\n\
         // crate::bundle in a comment\n\
         /// [`crate::import`] in a doc\n\
         let s = \"crate::render\"; let c = '\"'; let r = r#\"crate::outcome\"#;\n\
         fn f() -> crate::store::Snapshot { $crate::error::Lang::En; super::x() }\n",
    );
    let names: BTreeSet<String> = references(&code, "assess").into_iter().map(|(m, _)| m).collect();
    let expected: BTreeSet<String> = ["json", "rules", "store", "error", "assess"].iter().map(|s| s.to_string()).collect();
    assert_eq!(names, expected);
}
