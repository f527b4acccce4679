//! `foehold share`: a scenario with the player's monster types and classes it names, as a share
//! code or one bundle file; and a code or bundle put into the player's library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use foehold_core::workshop::bundle::Bundle;
use foehold_desktop::files::{Files, read_file};
use foehold_desktop::library::Folders;

use super::{outln, shown};

/// Shares a scenario as a code or a bundle file, or opens one into the library.
///
/// Prints the scenario's share code (`FS1.…`), which carries the library entries it names that
/// are not built in; `--bundle` writes the same as one file. With `--open`, puts a shared
/// scenario (a code, or a bundle file) into the library.
#[derive(Debug, Args)]
#[command(
    after_help = "A shared scenario opens only when it loads with the entries it carries. Exit \
                  status 0 on success, 2 on a bad file or code (the reason on standard error)."
)]
pub struct ShareArgs {
    /// A library folder (with `scenarios/`, `monsters/` and `classes/`) to read entries from and
    /// to open into, instead of the player's own library in the user's data folder
    #[arg(long, value_name = "DIR")]
    library: Option<PathBuf>,
    /// Write the scenario and its entries as one bundle file too
    #[arg(long, value_name = "OUT", conflicts_with = "open")]
    bundle: Option<PathBuf>,
    /// Put a shared scenario into the library: a share code, or a bundle file's path
    #[arg(long, value_name = "CODE|FILE", conflicts_with = "file")]
    open: Option<String>,
    /// The scenario file to share
    #[arg(required_unless_present = "open")]
    file: Option<PathBuf>,
}

/// Runs the subcommand; see [`ShareArgs`].
pub fn run(args: &ShareArgs) -> ExitCode {
    let folders = match &args.library {
        Some(dir) => Ok(Folders::at(dir)),
        None => Folders::player(),
    };
    let result = match (&args.open, &args.file) {
        (Some(what), _) => open(what, folders),
        (None, Some(file)) => share(file, folders.ok(), args.bundle.as_ref()),
        (None, None) => Err("name a scenario file to share, or --open a code".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("foehold share: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints the share code of `file` (and writes its bundle when asked).
fn share(file: &Path, folders: Option<Folders>, out: Option<&PathBuf>) -> Result<(), String> {
    let text = read_file(file).map_err(|e| e.to_string())?;
    let library = match folders {
        Some(f) => f.library(),
        None => super::player_library(),
    };
    let bundle =
        Bundle::of(&file.display().to_string(), &text, &library).map_err(|e| e.to_string())?;
    if let Some(out) = out {
        foehold_core::storage::Storage::write(&mut Files, out, bundle.write().as_bytes())?;
        eprintln!(
            "foehold share: wrote {} ({} monster type(s), {} class(es) carried)",
            shown(out),
            bundle.monsters.len(),
            bundle.classes.len()
        );
    }
    outln!("{}", bundle.code());
    Ok(())
}

/// Puts the scenario a code or bundle file carries into the library.
fn open(what: &str, folders: Result<Folders, String>) -> Result<(), String> {
    let folders = folders.map_err(|e| format!("no library to open into: {e}"))?;
    let bundle = if what.trim_start().starts_with("FS") {
        Bundle::of_code(what)?
    } else {
        let path = PathBuf::from(what);
        let text = read_file(&path).map_err(|e| e.to_string())?;
        Bundle::read(&path.display().to_string(), &text).map_err(|e| e.to_string())?
    };
    let wrote = bundle.install(
        &mut Files,
        &folders.scenarios(),
        &folders.monsters(),
        &folders.classes(),
    )?;
    if wrote.is_empty() {
        outln!("already in the library: nothing to add");
    }
    for p in &wrote {
        outln!("{}", shown(p));
    }
    Ok(())
}
