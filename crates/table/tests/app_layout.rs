//! The layout of the 3D table's code holds: no module of `src/app` but `src/app/gloomhaven/` names
//! the Gloomhaven rules (that no module imports round a cycle is the core's layout test, which
//! reads the table's sources too).

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

fn app_sources() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    assert!(files.len() > 20, "src/app was read: {} files", files.len());
    files
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
