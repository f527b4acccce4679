//! The rules core opens no file, starts no thread and asks nothing of the process outside its tests:
//! the programs give it their storage ([`foehold_core::storage::Storage`]), so it runs in a browser.

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
        if name.ends_with("tests.rs") || name == "game/check.rs" {
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
