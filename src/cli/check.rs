//! `foehold check`: reads scenarios, cases and library files as the table and `play` read them,
//! and says what stops each (an error) and what is most likely a slip (a warning), without playing.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use foehold_core::kit;
use foehold_core::library::Library;
use foehold_desktop::files::read_file;
use foehold_desktop::library::Folders;

use super::{outln, shown};

/// Checks files as the table reads them: scenarios of every rule module, case files, and library
/// monster types and classes.
#[derive(Debug, Args)]
#[command(
    after_help = "Errors and warnings go to standard error as `file:line:column: …` (a warning \
                  as `file:line:column: warning: …`); standard output has a line per file. \
                  Exit status 0 when every file loads (warnings or not), 2 when one does not."
)]
pub struct CheckArgs {
    /// A library folder (with `monsters/` and `classes/`) to find the monster types and classes
    /// scenarios name, instead of the player's own library in the user's data folder
    #[arg(long, value_name = "DIR")]
    library: Option<PathBuf>,
    /// Files, or folders whose `.ron` files are checked in name order
    #[arg(value_name = "FILE|DIR", required = true)]
    paths: Vec<PathBuf>,
}

/// Checks every file given; see [`CheckArgs`].
pub fn run(args: &CheckArgs) -> ExitCode {
    let files = match super::solve::expand(&args.paths) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let library = match &args.library {
        Some(dir) => {
            let library = Folders::at(dir).library();
            for why in &library.trouble {
                eprintln!("foehold: {why}");
            }
            library
        }
        None => super::player_library(),
    };
    let mut refused = 0;
    let mut warned = 0;
    for path in &files {
        match check_one(path, &library) {
            Ok(warnings) => {
                for w in &warnings {
                    eprintln!("{}", warning_line(w));
                }
                warned += warnings.len();
                match warnings.len() {
                    0 => outln!("{}: loads", shown(path)),
                    1 => outln!("{}: loads, with 1 warning", shown(path)),
                    n => outln!("{}: loads, with {n} warnings", shown(path)),
                }
            }
            Err(e) => {
                eprintln!("{e}");
                outln!("{}: refused", shown(path));
                refused += 1;
            }
        }
    }
    outln!(
        "{} checked: {} load, {refused} refused, {warned} warning{}",
        files.len(),
        files.len() - refused,
        if warned == 1 { "" } else { "s" }
    );
    if refused > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// One file's warnings, or the error that stops it.
fn check_one(
    path: &std::path::Path,
    library: &Library,
) -> Result<Vec<foehold_core::LoadError>, foehold_core::LoadError> {
    let text = read_file(path)?;
    kit::check(&path.display().to_string(), &text, library)
}

/// A warning as compilers print one: `file:line:column: warning: …`.
fn warning_line(w: &foehold_core::LoadError) -> String {
    let shown = foehold_core::LoadError {
        message: format!("warning: {}", w.message),
        ..w.clone()
    };
    shown.to_string()
}
