//! Headless subcommands of the `foehold` binary, one module each.

pub mod check;
pub mod code;
pub mod coverage;
pub mod odds;
#[cfg(feature = "online")]
pub mod online;
pub mod play;
pub mod replay;
#[cfg(feature = "dev")]
pub mod saves;
pub mod share;
pub mod solve;

/// Writes to standard output, and stops quietly when the reader has gone.
///
/// On a closed pipe (as in `foehold play … | head`) the command stops quietly with the status a shell gives a command ended by SIGPIPE, instead of
/// panicking; any other write error is reported on standard error with status 1.
pub fn emit(args: std::fmt::Arguments, newline: bool) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|()| {
        if newline {
            out.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
        eprintln!("foehold: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// A path as the commands print it: control characters in its name escaped, so that a file name
/// cannot move the cursor or recolour the terminal.
pub(crate) fn shown(path: &std::path::Path) -> String {
    foehold_core::error::printable(&path.display().to_string()).into_owned()
}

/// The scenario level and the number of characters a game is set up for.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct PartyArgs {
    /// The scenario level, 0 to 7 (Gloomhaven family); the scenario's recommended one when not given
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=7))]
    level: Option<u32>,
    /// How many characters play, 2 to 4 (Gloomhaven family): the scenario's first heroes; all of
    /// them when not given
    #[arg(long, value_parser = clap::value_parser!(u64).range(2..=4))]
    players: Option<u64>,
}

impl PartyArgs {
    /// The choice for the rules.
    pub(crate) fn choice(&self) -> foehold_core::rules::PartyChoice {
        foehold_core::rules::PartyChoice {
            level: self.level,
            players: self.players.map(|n| n as usize),
            heroes: Vec::new(),
        }
    }
}

/// A scenario file's name and text, or, when it cannot be read, the reason on standard error and
/// exit status 2 (bad input), as every command that plays a scenario reports it.
pub(crate) fn read_scenario(
    path: &std::path::Path,
) -> Result<(String, String), std::process::ExitCode> {
    match foehold_desktop::files::read_file(path) {
        Ok(text) => Ok((path.display().to_string(), text)),
        Err(e) => {
            eprintln!("{e}");
            Err(std::process::ExitCode::from(2))
        }
    }
}

/// The player's own monster types and classes (the user's data folder's `library/`), which the
/// scenarios a command reads find before the shipped ones; why it is not read, on standard error.
pub(crate) fn player_library() -> foehold_core::library::Library {
    let (library, trouble) = foehold_desktop::library::player_library();
    for why in trouble.iter().chain(&library.trouble) {
        eprintln!("foehold: the player's library: {why}");
    }
    library
}

/// `println!` that stops quietly on a closed pipe (see [`emit`]).
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::emit(format_args!($($arg)*), true) };
}

/// `print!` that stops quietly on a closed pipe (see [`emit`]).
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::emit(format_args!($($arg)*), false) };
}

pub(crate) use {out, outln};
