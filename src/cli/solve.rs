//! `foehold solve`: what does the active monster of a board-position file do? For people or as JSON.

use foehold_core::LoadError;
use foehold_core::hex::Hex;
use foehold_core::rules::gloomhaven::Decision;
use foehold_core::rules::gloomhaven::case as puzzle;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Expands the command-line paths: files as given, folders into their `.ron` files in name order.
fn expand(paths: &[String]) -> Result<Vec<PathBuf>, LoadError> {
    let mut out = Vec::new();
    for p in paths {
        let path = PathBuf::from(p);
        if path.is_dir() {
            let entries = std::fs::read_dir(&path)
                .map_err(|e| LoadError::whole(p.clone(), format!("cannot read folder: {e}")))?;
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "ron"))
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(path);
        }
    }
    Ok(out)
}

fn hex_json(h: Hex) -> Value {
    json!([h.x, h.y])
}

fn hexes_json(hs: &[Hex]) -> Value {
    Value::Array(hs.iter().map(|h| hex_json(*h)).collect())
}

/// The JSON answer for one file.
pub fn decision_json(file: &Path, d: &Decision) -> Value {
    let options: Vec<Value> = d
        .options
        .iter()
        .map(|o| {
            json!({
                "end": hex_json(o.end),
                "targets": hexes_json(&o.targets),
                "heading_to": hexes_json(&o.heading_to),
                "focus": hexes_json(&o.focus),
                "path": hexes_json(&o.path),
                "aoe": hexes_json(&o.aoe),
            })
        })
        .collect();
    json!({
        "file": file.display().to_string(),
        "focus": hexes_json(&d.focus),
        "options": options,
        "trace": d.trace,
    })
}

fn fmt_hex(h: Hex) -> String {
    format!("({}, {})", h.x, h.y)
}

fn fmt_list(hs: &[Hex]) -> String {
    if hs.is_empty() {
        "none".into()
    } else {
        hs.iter()
            .map(|h| fmt_hex(*h))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The answer for people.
fn human(file: &Path, p: &puzzle::Puzzle, d: &Decision) -> String {
    let mut s = format!("{}\n", file.display());
    s.push_str(&format!("  focus: {}\n", fmt_list(&d.focus)));
    for (i, o) in d.options.iter().enumerate() {
        s.push_str(&format!("  option {}: ends on {}", i + 1, fmt_hex(o.end)));
        if !o.path.is_empty() {
            s.push_str(&format!(" via {}", fmt_list(&o.path)));
        }
        if o.targets.is_empty() {
            s.push_str(", attacks no one");
        } else {
            s.push_str(&format!(", attacks {}", fmt_list(&o.targets)));
        }
        if !o.heading_to.is_empty() {
            s.push_str(&format!(", heading for {}", fmt_list(&o.heading_to)));
        }
        if !o.aoe.is_empty() {
            s.push_str(&format!(" (area on {})", fmt_list(&o.aoe)));
        }
        s.push('\n');
    }
    s.push_str("  why:\n");
    for t in &d.trace {
        s.push_str(&format!("    - {t}\n"));
    }
    if let Some(v) = puzzle::check(p, d) {
        if v.passed() {
            s.push_str("  matches the expected answer\n");
        } else {
            s.push_str(&format!(
                "  DIFFERS from the expected answer: missing {:?}, unexpected {:?}\n",
                v.missing, v.extra
            ));
        }
    }
    s
}

pub fn run(args: &[String]) -> ExitCode {
    let json_out = args.iter().any(|a| a == "--json");
    if let Some(bad) = args.iter().find(|a| a.starts_with('-') && *a != "--json") {
        eprintln!("foehold solve: unknown option {bad}; usage: foehold solve [--json] FILE|DIR...");
        return ExitCode::from(2);
    }
    let paths: Vec<String> = args.iter().filter(|a| *a != "--json").cloned().collect();
    if paths.is_empty() {
        eprintln!(
            "foehold solve: expected at least one puzzle file or folder; usage: foehold solve [--json] FILE|DIR..."
        );
        return ExitCode::from(2);
    }
    let files = match expand(&paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    for f in &files {
        let line = match puzzle::load(f) {
            Ok((p, pos)) => {
                let d = pos.decide();
                if json_out {
                    decision_json(f, &d).to_string() + "\n"
                } else {
                    human(f, &p, &d)
                }
            }
            Err(e) => {
                failed = true;
                eprintln!("{e}");
                if json_out {
                    json!({"file": f.display().to_string(), "error": e.to_string()}).to_string()
                        + "\n"
                } else {
                    continue;
                }
            }
        };
        if out.write_all(line.as_bytes()).is_err() {
            return ExitCode::from(2);
        }
    }
    if out.flush().is_err() {
        return ExitCode::from(2);
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
