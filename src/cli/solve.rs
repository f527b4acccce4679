//! `foehold solve`: answers case files of every format (`rules::case::FORMATS`), for people or as JSON.

use clap::Args;
use foehold_core::LoadError;
use foehold_core::error::read_file;
use foehold_core::rules::case;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What does the rule module do in a case file? Gloomhaven puzzles (the active foe's focus, moves and
/// targets), Brimstone fights and goal-priority turns; the file's top-level struct picks the module.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// One JSON object per line, with a "file" field
    #[arg(long)]
    json: bool,
    /// Case files, or folders whose `.ron` files are solved in name order
    #[arg(value_name = "FILE|DIR", required = true)]
    paths: Vec<PathBuf>,
}

/// Expands the command-line paths: files as given, folders into their `.ron` files in name order.
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| {
                LoadError::whole(
                    path.display().to_string(),
                    format!("cannot read folder: {e}"),
                )
            })?;
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && f.extension().is_some_and(|x| x == "ron"))
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// Reads and answers one file.
fn answer(file: &Path) -> Result<case::Answer, LoadError> {
    let text = read_file(file)?;
    case::solve(&file.display().to_string(), &text)
}

/// Reads one file and answers it as JSON only.
fn answer_json(file: &Path) -> Result<Value, LoadError> {
    let text = read_file(file)?;
    case::solve_json(&file.display().to_string(), &text)
}

/// The JSON object of an answer, with the `"file"` field added.
fn with_file(file: &Path, json: Value) -> Value {
    let name = Value::String(file.display().to_string());
    match json {
        Value::Object(mut map) => {
            map.insert("file".into(), name);
            Value::Object(map)
        }
        other => json!({"file": name, "answer": other}),
    }
}

/// The answer for people: the file, the answer in words, and how it compares with the expected one.
fn human(file: &Path, a: &case::Answer) -> String {
    let mut s = format!("{}\n{}", file.display(), a.text);
    match &a.verdict {
        None => {}
        Some(Ok(())) => s.push_str("  matches the expected answer\n"),
        Some(Err(why)) => s.push_str(&format!("  DIFFERS from the expected answer: {why}\n")),
    }
    s
}

pub fn run(args: &SolveArgs) -> ExitCode {
    let files = match expand(&args.paths) {
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
        let written = if args.json {
            // The object goes straight to the output: no line is built first.
            let object = match answer_json(f) {
                Ok(v) => with_file(f, v),
                Err(e) => {
                    failed = true;
                    eprintln!("{e}");
                    json!({"file": f.display().to_string(), "error": e.to_string()})
                }
            };
            serde_json::to_writer(&mut out, &object)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
        } else {
            match answer(f) {
                Ok(a) => out.write_all(human(f, &a).as_bytes()),
                Err(e) => {
                    failed = true;
                    eprintln!("{e}");
                    continue;
                }
            }
        };
        if written.is_err() {
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
