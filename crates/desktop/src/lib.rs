//! What Foehold's desktop programs share, with no engine in it: this machine's files as the core's
//! storage ([`files`]), the player's own library in the user's data folder ([`library`]), and the
//! options of the 3D table (`foehold` without a subcommand, and `foehold-table`), parsed here so
//! that the headless command can check them and print its help without depending on the table.

pub mod files;
#[cfg(feature = "online")]
pub mod keys;
pub mod library;

use clap::Args;
use std::path::PathBuf;

#[cfg(feature = "online")]
use clap::ValueEnum;
#[cfg(feature = "online")]
use foehold_net::host::MAX_PEERS;
#[cfg(feature = "online")]
use foehold_net::quic::{Options, Relay};
#[cfg(feature = "online")]
use std::net::SocketAddr;

/// Opens the 3D table on a scenario (the first file under scenarios/ when none is given).
#[derive(Debug, Clone, Args)]
pub struct TableArgs {
    /// A scenario file, a save, or a case file (a position: it opens in the position lab)
    #[arg(value_name = "SCENARIO")]
    pub scenario: Option<PathBuf>,
    /// Open the position lab on a blank position: gloomhaven, brimstone or goals
    #[arg(long, value_name = "MODULE", num_args = 0..=1, default_missing_value = "gloomhaven")]
    pub lab: Option<String>,
    /// Open the scenario workshop: on SCENARIO when given, else on a new scenario
    #[arg(long)]
    pub workshop: bool,
    /// Seed of the game's dice
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The heroes' autopilot plays too
    #[arg(long)]
    pub autoplay: bool,
    /// The players draw the cards and roll the dice at their own table, and enter each outcome
    #[arg(long)]
    pub table_draws: bool,
    /// How fast the rules' own steps play, as the speed slider sets it: 1 is the usual pace, 4 the
    /// fastest, 0.25 the slowest
    #[arg(long, default_value_t = 1.0, value_parser = parse_speed)]
    pub speed: f32,
    #[cfg(feature = "online")]
    #[command(flatten)]
    pub online: OnlineArgs,
    #[cfg(feature = "dev")]
    #[command(flatten)]
    pub dev: DevArgs,
}

/// The slider's range, and nothing that is not a number in it.
fn parse_speed(text: &str) -> Result<f32, String> {
    let speed: f32 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    if (0.25..=4.0).contains(&speed) {
        Ok(speed)
    } else {
        Err(format!("{text} is not between 0.25 and 4"))
    }
}

/// Relay servers and address lookup.
#[cfg(feature = "online")]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum RelayArg {
    /// The public relays and address lookup: friends behind home routers reach each other with no
    /// port forwarding
    #[default]
    Default,
    /// Direct addresses only, nothing else contacted (a local network, tests)
    None,
}

#[cfg(feature = "online")]
impl RelayArg {
    /// The transport's options with these relays, the address to listen on and the key.
    pub fn options(self, bind: Option<SocketAddr>, key: Option<[u8; 32]>) -> Options {
        Options {
            relay: match self {
                RelayArg::Default => Relay::Default,
                RelayArg::None => Relay::Disabled,
            },
            bind,
            key,
        }
    }
}

/// Online play from the table's command line; the Online window does the same by mouse.
#[cfg(feature = "online")]
#[derive(Debug, Clone, Default, Args)]
pub struct OnlineArgs {
    /// Host the scenario for friends on other machines: the Online window shows the code they
    /// join with
    #[arg(long, conflicts_with = "join")]
    pub host: bool,
    /// How many players the game hosted seats, this one included (player 1)
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=MAX_PEERS as i64))]
    pub seats: u32,
    /// Join a friend's online game with the code their table (or `foehold host`) shows
    #[arg(long, value_name = "CODE")]
    pub join: Option<String>,
    /// The player to be in the game joined (2 and up); without it, watch
    #[arg(long, requires = "join", value_parser = clap::value_parser!(u32).range(1..=MAX_PEERS as i64))]
    pub seat: Option<u32>,
    /// Relay servers and address lookup for online play
    #[arg(long, value_enum, default_value = "default")]
    pub relay: RelayArg,
    /// The address online play listens on (default: every interface, a free port)
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<SocketAddr>,
}

/// The table's tools for tests and measurements (built with the `dev` feature).
#[cfg(feature = "dev")]
#[derive(Debug, Clone, Default, Args)]
pub struct DevArgs {
    /// Render N frames, save the window to PNG and exit
    #[arg(long, value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
    /// Frames to render before the screenshot
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub after_frames: u32,
    /// Exit 1 when the screenshot is a blank picture
    #[arg(long)]
    pub check_not_blank: bool,
    /// Frame time of the board with 100 minis against a bare 3D scene (frames per phase)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub bench_frames: u32,
    /// Write what the table shows (buttons, cells and minis on screen, the game's phase) as JSON
    /// to this file whenever it changes, for programs that drive the table with a real pointer
    #[arg(long, value_name = "JSON")]
    pub probe: Option<PathBuf>,
    /// Draw without shadows and multisampling: several times faster in software rendering, for
    /// tests that click rather than look closely
    #[arg(long)]
    pub quick_render: bool,
}

#[cfg(test)]
mod tests {
    use super::parse_speed;

    #[test]
    fn the_speed_is_a_number_within_the_sliders_range() {
        for (text, speed) in [("4", 4.0), ("0.25", 0.25), ("1.5", 1.5)] {
            assert_eq!(parse_speed(text), Ok(speed), "{text}");
        }
        for text in ["5", "0", "NaN", "-1"] {
            let refused = format!("{text} is not between 0.25 and 4");
            assert_eq!(parse_speed(text), Err(refused));
        }
        assert_eq!(parse_speed("fast"), Err("\"fast\" is not a number".into()));
    }
}
