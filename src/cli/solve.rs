//! `foehold solve`: answers case files of every module (`kit::formats`), for people or as JSON.

use clap::Args;
use foehold_core::LoadError;
use foehold_core::kit;
use foehold_core::rules::case;
use foehold_core::rules::gloomhaven::case::Ask;
use foehold_core::rules::gloomhaven::preset::{Preset, Setting};
use foehold_desktop::files::read_file;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What does the rule module do in a case file? Gloomhaven puzzles (the active foe's focus, moves and
/// targets), Brimstone fights and goal-priority turns; the file's top-level struct picks the module.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// One JSON object per line, with a "file" field
    #[arg(long)]
    json: bool,
    /// Threads answering files (default: one per core); the output is the same and in the same order
    #[arg(short, long, value_name = "N")]
    jobs: Option<NonZeroUsize>,
    // Clap's help text, not rustdoc: written as players read it in `--help`.
    #[arg(
        long,
        value_name = "PRESET",
        help = "Answer Gloomhaven-family puzzles under this preset instead of the file's, and show \
                what differs: Gloomhaven2e, Frosthaven, Gloomhaven or JawsOfTheLion"
    )]
    rules: Option<String>,
    #[arg(
        long = "set",
        value_name = "SWITCH=VALUE",
        help = "Set one rule switch on top (repeatable): sight=AnyPoint|Corners, \
                proximity=true|false, clear_focus_first=true|false, rank_secondary=true|false, \
                rank_by_path=true|false, head_as_attack=true|false, jump_landing=One|Terrain"
    )]
    settings: Vec<String>,
    /// Case files, or folders whose `.ron` files are solved in name order
    #[arg(value_name = "FILE|DIR", required = true)]
    paths: Vec<PathBuf>,
}

/// Expands the command-line paths: files as given, folders into their `.ron` files in name order.
pub(crate) fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path).map_err(|e| {
                LoadError::whole(
                    path.display().to_string(),
                    format!("cannot read folder: {e}"),
                )
            })?;
            // The entry's own type costs no call to the file system; a link is followed.
            let mut files: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .filter(|e| {
                    e.file_type()
                        .is_ok_and(|t| t.is_file() || (t.is_symlink() && e.path().is_file()))
                })
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "ron"))
                .collect();
            files.sort();
            out.extend(files);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// Reads and answers one file, under the rules asked.
fn answer(file: &Path, ask: &Ask) -> Result<case::Answer, LoadError> {
    let text = read_file(file)?;
    kit::solve_asking(&file.display().to_string(), &text, ask)
}

/// Reads one file and answers it as JSON only.
fn answer_json(file: &Path, ask: &Ask) -> Result<Value, LoadError> {
    if !ask.is_empty() {
        return answer(file, ask).map(|a| a.json);
    }
    let text = read_file(file)?;
    kit::solve_json(&file.display().to_string(), &text)
}

/// The rules asked on the command line, or why they cannot be read.
fn ask(args: &SolveArgs) -> Result<Ask, String> {
    let preset = match &args.rules {
        None => None,
        Some(name) => Some(Preset::parse(name).ok_or_else(|| {
            format!(
                "--rules {name}: no such preset; the presets are {}",
                Preset::ALL.map(Preset::name).join(", ")
            )
        })?),
    };
    let settings = args
        .settings
        .iter()
        .map(|s| Setting::parse(s).map_err(|e| format!("--set {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Ask { preset, settings })
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
    let mut s = format!("{}\n{}", super::shown(file), a.text);
    match &a.verdict {
        None => {}
        Some(Ok(())) => s.push_str("  matches the expected answer\n"),
        Some(Err(why)) => s.push_str(&format!("  DIFFERS from the expected answer: {why}\n")),
    }
    s
}

/// What one file prints: its lines for the output, and its error for the error stream.
struct Printed {
    out: Vec<u8>,
    err: Option<String>,
}

/// Answers one file and prints it as `solve` does, without touching the streams, so that files can
/// be answered on several threads and still be written in order.
fn print_one(file: &Path, json: bool, ask: &Ask) -> Printed {
    if json {
        let (object, err) = match answer_json(file, ask) {
            Ok(v) => (with_file(file, v), None),
            Err(e) => (
                json!({"file": file.display().to_string(), "error": e.to_string()}),
                Some(e.to_string()),
            ),
        };
        let mut out = serde_json::to_vec(&object).unwrap_or_default();
        out.push(b'\n');
        Printed { out, err }
    } else {
        match answer(file, ask) {
            Ok(a) => Printed {
                out: human(file, &a).into_bytes(),
                err: None,
            },
            Err(e) => Printed {
                out: Vec::new(),
                err: Some(e.to_string()),
            },
        }
    }
}

/// How many threads answer files: `--jobs`, else one per core, never more than there are files.
fn threads(jobs: Option<NonZeroUsize>, files: usize) -> usize {
    let wanted = jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    wanted.min(files).max(1)
}

/// A solver's own stack: as deep as the main thread's, so that a file answers the same on any thread.
const STACK: usize = 8 << 20;

/// Answers `files` on `threads` threads (this one among them) and hands each answer to `write` in file
/// order, as soon as it and every one before it are done. Threads take the next file when they finish
/// one, so a slow file holds up only its own thread. Returns false once `write` fails; files not yet
/// taken are then not answered.
fn answer_all(
    files: &[PathBuf],
    json: bool,
    ask: &Ask,
    threads: usize,
    mut write: impl FnMut(Printed) -> bool,
) -> bool {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let take = || {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        files.get(i).map(|f| (i, f))
    };
    let (send, receive) = mpsc::channel::<(usize, Printed)>();
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let send = send.clone();
            let take = &take;
            let worker = move || {
                while let Some((i, file)) = take() {
                    if send.send((i, print_one(file, json, ask))).is_err() {
                        break;
                    }
                }
            };
            let spawned = std::thread::Builder::new()
                .stack_size(STACK)
                .spawn_scoped(scope, worker);
            if spawned.is_err() {
                // No more threads to be had: those started, and this one, do the work.
                break;
            }
        }
        drop(send);
        let mut waiting: BTreeMap<usize, Printed> = BTreeMap::new();
        let mut written = 0;
        let mut ok = true;
        let mut write_ready = |waiting: &mut BTreeMap<usize, Printed>| {
            while let Some(p) = waiting.remove(&written) {
                written += 1;
                if ok && !write(p) {
                    ok = false;
                    stop.store(true, Ordering::Relaxed);
                }
            }
        };
        // This thread answers files too, and between them writes whatever is ready; it never waits
        // on the others until no file is left to take, so their answers cost no wake-ups.
        while let Some((i, file)) = take() {
            waiting.insert(i, print_one(file, json, ask));
            waiting.extend(receive.try_iter());
            write_ready(&mut waiting);
        }
        for (i, printed) in receive {
            waiting.insert(i, printed);
            write_ready(&mut waiting);
        }
        ok
    })
}

pub fn run(args: &SolveArgs) -> ExitCode {
    let ask = match ask(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
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
    let threads = threads(args.jobs, files.len());
    let written = answer_all(&files, args.json, &ask, threads, |p| {
        if let Some(e) = &p.err {
            failed = true;
            eprintln!("{e}");
        }
        out.write_all(&p.out).is_ok()
    });
    if !written || out.flush().is_err() {
        return ExitCode::from(2);
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
