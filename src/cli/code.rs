//! `foehold code`: a case file as a short position code to paste into the lab, and back.

use super::{out, outln};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

use foehold_core::kit::open_any;
use foehold_core::lab::code;
use foehold_desktop::files::read_file;

/// A case file (a position) as a short code to paste into the table's position lab, or with
/// `--open`, the case file a code carries.
#[derive(Debug, Args)]
pub struct CodeArgs {
    /// Print the case file a code carries instead (as `foehold solve` reads it)
    #[arg(long, value_name = "CODE", conflicts_with = "file")]
    open: Option<String>,
    /// The case file
    #[arg(required_unless_present = "open")]
    file: Option<PathBuf>,
}

/// Runs the subcommand; exit status 0 on success, 2 on a bad file or code.
pub fn run(args: &CodeArgs) -> ExitCode {
    if let Some(c) = &args.open {
        return match code::decode(c).and_then(|text| {
            // Only a position the lab opens is printed: a code is no way around a file's checks.
            open_any("the code", &text)
                .map(|_| text)
                .map_err(|e| e.to_string())
        }) {
            Ok(text) => {
                out!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("foehold code: {e}");
                ExitCode::from(2)
            }
        };
    }
    let Some(path) = &args.file else {
        return ExitCode::from(2);
    };
    let file = path.display().to_string();
    match read_file(path).and_then(|text| open_any(&file, &text).map(|_| text)) {
        Ok(text) => {
            outln!("{}", code::encode(&text));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
