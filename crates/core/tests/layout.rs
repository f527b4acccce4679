//! The layout of the rules core's code holds: outside its tests it opens no file, starts no thread
//! and asks nothing of the process (the programs give it their storage,
//! [`foehold_core::storage::Storage`], so it runs in a browser); and neither it nor the table has
//! modules that import each other round a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a source folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file (`rules/gloomhaven/mod.rs` → `rules::gloomhaven`; `lib.rs` → none).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The paths a text names after `crate::`, `super::` or `self::`, each as its segments from the
/// crate root (`use x::{a::b, c}` groups opened one level).
fn paths_named(text: &str, me: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // The module a relative path starts from: a file's own module for `self`, its parent for
    // `super` (a folder's `mod.rs` is the folder itself).
    let own: Vec<String> = me.to_vec();
    for (start, base) in [("crate::", Vec::new()), ("self::", own.clone())] {
        for (at, _) in text.match_indices(start) {
            // `super::self::`, `$crate::` and the like are not ours to follow.
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            out.extend(read_path(&text[at + start.len()..], &base));
        }
    }
    for (at, _) in text.match_indices("super::") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut base = own.clone();
        let mut rest = &text[at..];
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        out.extend(read_path(rest, &base));
    }
    out
}

/// The segments of a path after its start, a group `{a::b, c}` giving one path per member.
fn read_path(rest: &str, base: &[String]) -> Vec<Vec<String>> {
    let mut segs = base.to_vec();
    let mut rest = rest;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let inside = &group[..group.find('}').unwrap_or(group.len())];
            return inside
                .split(',')
                .map(|m| {
                    let mut p = segs.clone();
                    p.extend(m.trim().split("::").map(ident).filter(|s| !s.is_empty()));
                    p
                })
                .collect();
        }
        let name = ident(rest);
        if name.is_empty() {
            break;
        }
        rest = &rest[name.len()..];
        segs.push(name);
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    vec![segs]
}

/// The longest known module that `path` starts with.
fn module_named(path: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains(p))
}

/// The cycles among each folder's children, as `folder: a → b → … ` lines of their strongly
/// connected sets.
/// Per folder under `root` (its module path), the imports between its children: a child to the
/// children it names.
type Imports = BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>>;

fn import_graph(root: &Path) -> Imports {
    let mut files = Vec::new();
    sources(root, &mut files);
    let mut modules: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut texts = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(root).expect("under src");
        let name = rel.to_string_lossy().replace('\\', "/");
        let me = module_of(rel);
        modules.insert(me.clone());
        // Tests may reach across; a file's unit tests come last, after its first `#[cfg(test)]`.
        if name.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("a source file");
        // Comments name modules without importing them (doc links among them).
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or_default()
            .lines()
            .map(|l| l.split("//").next().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n");
        texts.push((me, code));
    }
    // Per folder, the edges between its children.
    let mut edges: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (me, code) in &texts {
        for path in paths_named(code, me) {
            let Some(to) = module_named(&path, &modules) else {
                continue;
            };
            // The folder both lie in, and the child of it each lies in.
            let common = me.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common >= me.len() || common >= to.len() {
                // One contains the other: a module and its own parts.
                continue;
            }
            let folder = me[..common].to_vec();
            edges
                .entry(folder)
                .or_default()
                .entry(me[common].clone())
                .or_default()
                .insert(to[common].clone());
        }
    }
    edges
}

/// The import cycles of a graph, one line per set of children that reach each other.
fn cycles(edges: &Imports) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (folder, graph) in edges {
        let reach = |from: &str| -> BTreeSet<String> {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from.to_string()];
            while let Some(n) = stack.pop() {
                for m in graph.get(&n).into_iter().flatten() {
                    if seen.insert(m.clone()) {
                        stack.push(m.clone());
                    }
                }
            }
            seen
        };
        let mut done: BTreeSet<String> = BTreeSet::new();
        for node in graph.keys() {
            if done.contains(node) {
                continue;
            }
            let ahead = reach(node);
            if !ahead.contains(node) {
                continue;
            }
            let set: BTreeSet<String> = ahead
                .iter()
                .filter(|m| reach(m).contains(node))
                .cloned()
                .collect();
            done.extend(set.iter().cloned());
            let at = if folder.is_empty() {
                "crate".to_string()
            } else {
                folder.join("::")
            };
            let members: Vec<&str> = set.iter().map(String::as_str).collect();
            found.insert(format!("{at}: {}", members.join(" ↔ ")));
        }
    }
    found
}

#[test]
fn neither_the_core_nor_the_table_imports_round_a_cycle() {
    // The table's sources lie beside the core's; its modules are held to the same rule.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for root in [here.join("src"), here.join("../table/src")] {
        let graph = import_graph(&root);
        // The sources were read and their imports found: a graph with no edges has no cycle.
        let edges: usize = graph
            .values()
            .flat_map(|g| g.values())
            .map(BTreeSet::len)
            .sum();
        assert!(edges > 20, "{}: {edges} imports read", root.display());
        if root.ends_with("table/src") {
            let driver = graph
                .get(&vec!["app".to_string()])
                .and_then(|g| g.get("driver"));
            assert!(
                driver.is_some_and(|d| d.contains("table")),
                "the table's driver imports its table: {driver:?}"
            );
        }
        let found = cycles(&graph);
        assert!(
            found.is_empty(),
            "{}: modules importing each other round a cycle (folder: the children in it):\n{}",
            root.display(),
            found
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn the_core_outside_its_tests_names_no_file_thread_or_process() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    assert!(files.len() > 50, "{} files under src", files.len());
    let mut found = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&root).expect("under src");
        let name = rel.to_string_lossy().replace('\\', "/");
        // Test files, and the helpers the feature `testing` gives other crates' tests.
        if name.ends_with("tests.rs") || name == "game/check.rs" || name == "disk.rs" {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("a source file");
        // A file's unit tests come last, after its first `#[cfg(test)]`.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or_default();
            for what in [
                "std::fs",
                "std::thread",
                "std::process",
                "std::net",
                "std::env",
            ] {
                if line.contains(what) {
                    found.push(format!("src/{name}:{}: {what}", n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
