//! The layout of the 3D table's code holds: no import cycle among the folders and files of
//! `src/app`, and no module of it but `src/app/gloomhaven/` names the Gloomhaven rules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its path relative to `root`.
fn sources(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src/app is readable")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(root, &p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let text = std::fs::read_to_string(&p).expect("a source file");
            out.push((
                p.strip_prefix(root).expect("under root").to_path_buf(),
                text,
            ));
        }
    }
}

/// The module path of a file under `src/app` (`driver/follow.rs` → `["driver", "follow"]`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The identifiers that follow `prefix` in `text`, and those of a `prefix{a, b::c}` group.
fn names_after(text: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in text.match_indices(prefix) {
        let rest = &text[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inside = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(inside.split(',').map(|g| ident(g.trim())));
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

/// Which top-level module of `src/app` each one imports (tests left out: they may reach across).
fn imports(files: &[(PathBuf, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let tops: BTreeSet<String> = files
        .iter()
        .filter_map(|(rel, _)| module_of(rel).first().cloned())
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, text) in files {
        let me = module_of(rel);
        let Some(top) = me.first() else { continue };
        if rel.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let mut used = names_after(text, "crate::app::");
        // `super::x` names x beside this file's own module, which for a file in a folder is the
        // folder itself.
        if me.len() == 1 {
            used.extend(names_after(text, "super::"));
        }
        for name in used {
            if tops.contains(&name) && name != *top {
                graph.entry(top.clone()).or_default().insert(name);
            }
        }
    }
    graph
}

/// A cycle through `from`, if there is one.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        goal: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in graph.get(at).into_iter().flatten() {
            if next == goal {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, next, goal, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![from.to_string()];
    walk(graph, from, from, &mut path, &mut BTreeSet::new()).then_some(path)
}

fn app_sources() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    assert!(files.len() > 20, "src/app was read: {} files", files.len());
    files
}

#[test]
fn the_modules_of_the_table_import_each_other_without_a_cycle() {
    let graph = imports(&app_sources());
    assert!(
        graph.get("driver").is_some_and(|d| d.contains("table")),
        "the import graph is read: {graph:?}"
    );
    for top in graph.keys() {
        if let Some(cycle) = cycle_from(&graph, top) {
            panic!("an import cycle: {} → {top}", cycle.join(" → "));
        }
    }
}

#[test]
fn only_the_gloomhaven_folder_of_the_table_names_the_gloomhaven_rules() {
    for (rel, text) in app_sources() {
        if rel.starts_with("gloomhaven") {
            continue;
        }
        for line in text.lines() {
            // The folder is declared by name, once.
            if line.trim() == "pub mod gloomhaven;" && rel == Path::new("mod.rs") {
                continue;
            }
            assert!(
                !line.to_lowercase().contains("gloomhaven"),
                "src/app/{} names Gloomhaven: {line}",
                rel.display()
            );
        }
    }
}
