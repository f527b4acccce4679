//! The rule modules, one folder each, and the interface every module implements.
//!
//! Every module folder has the same shape: `mod.rs` (what the module is, its [`Rules`] impl and its
//! [`Present`] impl: how its games read and look at the table), its scenario format
//! (`scenario.rs`), state (`state.rs`), actions and events (`actions.rs`), the turn flow (`turn.rs`),
//! one file per foe stage (placement, targeting, movement, attack — as the module has them), hero
//! actions (`heroes.rs`), the autopilot, log lines (`log.rs`), its case format (`case.rs`) and
//! `tests.rs`; `docs/rules-<name>.md` says how it reads the printed rules. The game with its log,
//! undo, redo, saves and replays ([`crate::game::Game`]) is written once, over these traits. Adding a
//! module is adding its folder and its place in the module kit ([`crate::kit`]).

pub mod brimstone;
pub mod case;
pub mod coverage;
pub mod gloomhaven;
pub mod goals;
pub mod lab;
pub mod names;
/// A tiny rule module for tests only (feature `testing`); not one of the modules Foehold plays.
#[cfg(any(test, feature = "testing"))]
pub mod toy;
pub mod view;
pub mod workshop;

use std::fmt::Debug;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{LoadError, offset_to_position};

/// Who breaks the ties that the rules leave to the players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
pub enum TieBreaker {
    /// The table decides: the game waits for the players' pick.
    #[default]
    Table,
    /// Headless play: the driver picks with a seeded generator (and the pick is logged).
    Seeded,
}

/// Who may act in a rules state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seat {
    /// The rules' own step (a foe's stage, a reveal, the round's end): nobody chooses it.
    Rules,
    /// The players as a whole, breaking a tie the rules hand to them.
    Table,
    /// The player of one hero.
    Hero(usize),
    /// Chance: a die roll or a random pick. Its legal actions are the outcomes, each equally likely.
    Chance,
}

/// What a module's stage names must be: each module names its stages with an enum of its own
/// ([`Rules::Stage`]), so a misspelt stage is a compile error rather than a system that never runs.
pub trait Stage: Copy + Debug + Eq + std::hash::Hash + Send + Sync + 'static {}

impl<S: Copy + Debug + Eq + std::hash::Hash + Send + Sync + 'static> Stage for S {}

/// Whose move it is; `S` names the module's stages ([`Rules::Stage`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToMove<S> {
    /// The rules run their next step by themselves; `stage` names it (one of [`Rules::STAGES`]).
    Rules {
        /// The step's stage.
        stage: S,
    },
    /// These heroes may act now (several while cards are chosen at the same time).
    Heroes(Vec<usize>),
    /// A die is rolled or a random pick is made in `stage`: one of `outcomes` equally likely
    /// outcomes ([`Seat::Chance`]'s legal actions) comes next.
    ///
    /// The outcome is an action like any other, so the log records it and a replay is exact. A
    /// driver draws it with [`seeded_pick`]; a table with physical dice may enter what it rolled. A
    /// module splits an uneven draw (the sum of two dice) into even ones (each die).
    Chance {
        /// The step's stage (one of [`Rules::STAGES`]).
        stage: S,
        /// How many outcomes there are.
        outcomes: usize,
    },
    /// The rules leave `options` equal outcomes to the players: the first `options` legal actions
    /// of [`Seat::Table`] choose them, in order (a module may list more after them).
    Tie {
        /// How many outcomes tie.
        options: usize,
    },
    /// The game is over.
    Over {
        /// The heroes won.
        won: bool,
    },
}

/// Why an action was refused; the state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionError {
    /// The game is over: no action applies.
    GameOver,
    /// The action does not belong to this phase.
    WrongPhase(&'static str),
    /// A decision is pending: only its choice resolves it.
    PendingChoice,
    /// A choice was made with no tie waiting for it.
    NoChoicePending,
    /// Heroes still have to choose.
    NotReady(String),
    /// The action breaks a rule (the message says which).
    Invalid(String),
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActionError::GameOver => write!(f, "the game is over"),
            ActionError::WrongPhase(s) => write!(f, "not now: {s}"),
            ActionError::PendingChoice => write!(f, "a tie is waiting for the players to choose"),
            ActionError::NoChoicePending => write!(f, "there is nothing to choose"),
            ActionError::NotReady(s) | ActionError::Invalid(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for ActionError {}

/// Why a scenario could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetupError {}

/// The longest scenario name a file may give, in characters: a title. Every state and save carries
/// the name, and every state's hash reads it, so a name of a megabyte made each action slow.
pub const MAX_SCENARIO_NAME: usize = 200;

/// A name as an error quotes it: whole up to 40 characters, else its start and how long it is, so
/// that a refused name of a megabyte does not flood the terminal.
pub(crate) fn clipped(name: &str) -> String {
    let n = name.chars().count();
    if n <= 40 {
        return name.to_string();
    }
    let start: String = name.chars().take(32).collect();
    format!("{start}… ({n} characters)")
}

/// Refuses a scenario whose `name` is longer than [`MAX_SCENARIO_NAME`], at its `name:` field.
pub(crate) fn check_scenario_name(file: &str, text: &str, name: &str) -> Result<(), LoadError> {
    let n = name.chars().count();
    if n > MAX_SCENARIO_NAME {
        return Err(LoadError::at_text(
            file,
            text,
            "name:",
            format!("the scenario's name has {n} characters: expected at most {MAX_SCENARIO_NAME}"),
        ));
    }
    Ok(())
}

/// What a new game is set up for, as the command line and the table choose it.
///
/// The scenario level, the number of characters and each character's class, level and hand;
/// `None` keeps what the scenario itself gives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PartyChoice {
    /// The scenario level.
    pub level: Option<u32>,
    /// How many characters play.
    pub players: Option<usize>,
    /// Per seat, in the order of the start hexes: the class a player picked for its character,
    /// or `None` (or no entry) for the scenario's own hero.
    pub heroes: Vec<Option<HeroPick>>,
}

/// A character a player makes at setup from a class of the library.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroPick {
    /// The class, by name.
    pub class: String,
    /// The character's level, 1 to 9.
    pub level: u32,
    /// The hand, by card names: exactly the class's hand size, from its cards of the level or
    /// below; empty for the first cards of the level.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand: Vec<String>,
    /// The class's perks taken, by name (twice for a perk taken twice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub perks: Vec<String>,
}

impl PartyOffer {
    /// The level recommended to characters of these levels: the file's, else half their
    /// average, rounded up (at most 7).
    pub fn recommended_for(&self, levels: &[u32]) -> u32 {
        recommended_level(self.written_level, levels)
    }
}

/// The scenario level recommended to characters of `levels`: `written` when the scenario writes
/// one, else half their average, rounded up (at most 7).
pub fn recommended_level(written: Option<u32>, levels: &[u32]) -> u32 {
    if let Some(l) = written {
        return l;
    }
    let n = levels.len().max(1) as u32;
    levels.iter().sum::<u32>().div_ceil(n).div_ceil(2).min(7)
}

/// A class a player may pick at setup, as the table shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassOffer {
    /// Its name.
    pub name: String,
    /// Hit points at levels 1 to 9.
    pub hp: Vec<u32>,
    /// How many cards a hand holds.
    pub hand_size: usize,
    /// Every card of the pool: name, card level and initiative, in the class's order.
    pub cards: Vec<(String, u32, u32)>,
    /// Its perks: name, what it does in words, and how many times it may be taken.
    pub perks: Vec<(String, String, u32)>,
    /// How many perks a character holds at most, at levels 1 to 9.
    pub most_perks: Vec<usize>,
}

/// A seat of the scenario as written: its hero's name, class and level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatOffer {
    /// The hero's name.
    pub name: String,
    /// Its class, when it has one.
    pub class: Option<String>,
    /// Its level.
    pub level: u32,
}

/// What a scenario lets the players choose before a game: its level and how many characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartyOffer {
    /// The scenario levels offered, lowest first (none when the level changes nothing).
    pub levels: Vec<u32>,
    /// The level offered first.
    pub recommended: u32,
    /// How many characters may play.
    pub players: std::ops::RangeInclusive<usize>,
    /// How many play when nobody chooses.
    pub all: usize,
    /// The scenario level the file writes, which is recommended whatever the characters' levels.
    pub written_level: Option<u32>,
    /// The classes a player may make a character of (empty: the heroes are as written).
    pub classes: Vec<ClassOffer>,
    /// The scenario's own heroes, seat by seat.
    pub seats: Vec<SeatOffer>,
}

/// One family of foe rules, as the game, the loop and the table use it.
///
/// The state owns the truth and its seeded generator; `apply` is the only way it changes. Legal
/// actions are the one source of truth: the table highlights what they allow, the autopilot picks
/// among them and `apply` accepts exactly them.
pub trait Rules: Sized + Send + Sync + 'static {
    /// The name scenario and save files give in `rules: …`.
    const NAME: &'static str;
    /// The stages of the rules' own steps, in the order a round meets them; [`ToMove::Rules`] and
    /// [`ToMove::Chance`] name one of them and the loop runs one system set per stage.
    const STAGES: &'static [Self::Stage];

    /// The module's names for the stages of its own steps.
    type Stage: Stage;

    /// A scenario, as its file describes it.
    type Scenario: Debug + Send + Sync + 'static;
    /// The state of a game: everything `apply` reads and changes, its random generator included.
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// What a seat (or the rules' own step) does; saves list them.
    type Action: Clone
        + Debug
        + PartialEq
        + Eq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;
    /// What an action did, for the log and the table.
    type Event: Clone + Debug + PartialEq + Send + Sync + 'static;

    /// Parses and validates a scenario file (`file` names it in errors).
    fn parse_scenario(file: &str, text: &str) -> Result<Self::Scenario, LoadError>;
    /// Parses and validates a scenario file that may name entries of the `library` (monster
    /// types, hero classes); the scenario returned holds copies of those it names. A module
    /// without a library reads the file as [`Rules::parse_scenario`] does.
    fn parse_scenario_in(
        file: &str,
        text: &str,
        _library: &crate::library::Library,
    ) -> Result<Self::Scenario, LoadError> {
        Self::parse_scenario(file, text)
    }
    /// [`Rules::parse_scenario_in`], with the file's warnings: what loads and plays but is most
    /// likely a slip (a room no door leads to, a monster type nothing places, a special rule that
    /// can never fire), each at its place in the file as an error would be. A module that finds
    /// none reads the file as [`Rules::parse_scenario_in`] does.
    fn check_scenario(
        file: &str,
        text: &str,
        library: &crate::library::Library,
    ) -> Result<(Self::Scenario, Vec<LoadError>), LoadError> {
        Self::parse_scenario_in(file, text, library).map(|s| (s, Vec::new()))
    }
    /// The scenario's name, as saves record it.
    fn scenario_name(scenario: &Self::Scenario) -> &str;
    /// A sentence or two about the scenario, for the list a new game is chosen from.
    fn scenario_about(_scenario: &Self::Scenario) -> &str {
        ""
    }
    /// Sets up a scenario with a seed.
    fn setup(
        scenario: Arc<Self::Scenario>,
        seed: u64,
        ties: TieBreaker,
    ) -> Result<Self::State, SetupError>;

    /// Whose move it is.
    fn to_move(state: &Self::State) -> ToMove<Self::Stage>;
    /// Every action `seat` may take now, in a fixed order (empty when it may not act).
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;
    /// Applies an action; a refused action leaves the state as it was.
    fn apply(
        state: &mut Self::State,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, ActionError>;
    /// What the hero autopilot would do for `hero` now, among its legal actions.
    fn autopilot(state: &Self::State, hero: usize) -> Option<Self::Action>;
    /// The round the game is in (saves and the history show it).
    fn round(state: &Self::State) -> u32;
    /// A number that changes with every applied action, to seed the headless tie-breaker.
    fn steps(state: &Self::State) -> u64;
    /// The game's seed.
    fn seed(state: &Self::State) -> u64;
    /// A hash of what the scenario took from the library when it was read (monster types,
    /// classes), which saves record so that a replay can say the library changed; `None` when
    /// the module takes nothing from a library.
    fn library_hash(_scenario: &Self::Scenario) -> Option<String> {
        None
    }
    /// What the scenario lets the players choose before a game; `None` when nothing.
    fn party_offer(_scenario: &Self::Scenario) -> Option<PartyOffer> {
        None
    }
    /// The action that sets a new game (`state`, before anything happened) up for `choice`, when
    /// the choice asks for anything; an error says why the module or the scenario cannot.
    fn party_action(
        _state: &Self::State,
        choice: PartyChoice,
    ) -> Result<Option<Self::Action>, String> {
        if choice == PartyChoice::default() {
            return Ok(None);
        }
        Err(format!(
            "{} scenarios are played as written: they have no scenario level or number of characters to choose",
            Self::NAME
        ))
    }
    /// Checks the sizes and numbers an action read from a save holds against their bounds, before
    /// it is applied: `apply` may assume coordinates near the board.
    fn check_action(_action: &Self::Action) -> Result<(), String> {
        Ok(())
    }
    /// The actions of a save of format 1 (see [`crate::game::save::SAVE_FORMAT`]), whose draws a
    /// generator inside the state made and no action logged, as a game of today logs them: each
    /// action followed by the chance actions that draw the same cards the old game drew. `Err`
    /// says why it cannot be done; a module whose games always logged their draws keeps this
    /// refusal.
    fn format_1_actions(
        _scenario: Arc<Self::Scenario>,
        _seed: u64,
        _ties: TieBreaker,
        _actions: &[Self::Action],
    ) -> Result<Vec<Self::Action>, String> {
        Err(format!(
            "{} games always logged their draws: a save of them that lacks one is damaged",
            Self::NAME
        ))
    }
}

/// How a module's games read and look at the table: log lines, the picture the board draws, actions
/// in words and on cells, and what the events of an action show for a moment.
///
/// Every module implements all of it (there are no defaults), so the one table can draw, offer and
/// animate any module's game, and a module that could not go on the table does not compile. The
/// log and the headless commands need only [`Present::describe`].
pub trait Present: Rules {
    /// The readable log line of an event, if it has one.
    fn describe(state: &Self::State, event: &Self::Event) -> Option<String>;
    /// The plain-data picture of the table the 3D view draws.
    fn view(state: &Self::State) -> view::TableView;
    /// A few words naming a legal action from the state it is taken in ("Mara plays the top of
    /// Heavy Swing", "draws +1"): buttons, the history and the log of decisions say it so.
    fn action_label(state: &Self::State, action: &Self::Action) -> String;
    /// The cell a legal action is about (where a hero moves, whom it strikes, what it picks up),
    /// so a table can offer the action on that cell; `None` for actions of no one cell.
    fn action_cell(state: &Self::State, action: &Self::Action) -> Option<view::CellKey>;
    /// What the table shows for a moment of the events of one action (a focus and its reasons, a
    /// path walked, dice landing, cards drawn, damage); `before` is the state the action was
    /// applied to.
    fn shows(before: &Self::State, after: &Self::State, events: &[Self::Event]) -> Vec<view::Show>;
    /// Whether a table of players sharing one screen tells `event`'s line at once, keeps it back
    /// until a reveal, or reveals what was kept back; `state` is the state just after it.
    fn telling(state: &Self::State, event: &Self::Event) -> view::Telling;
    /// What the chance step waiting now draws or rolls, in a few words ("a card of the monsters'
    /// modifier deck", "a D6: Ash attacks the Husk"), so a table whose players draw and roll
    /// themselves can ask them for it.
    fn chance_words(state: &Self::State) -> String;
}

/// A 64-bit FNV-1a hash of a state's RON text, as 16 hex digits: saves record it so a replay can
/// prove it reached the same game.
pub fn state_hash<T: Serialize>(state: &T) -> String {
    // Every state serializes to RON, so this cannot fail; an empty text would still hash.
    let text = ron::to_string(state).unwrap_or_default();
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// 64-bit FNV-1a.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The headless tie-breaker: a pick among `n` options that depends only on the seed and the number
/// of steps so far, so it never disturbs the game's own generator.
pub fn seeded_pick(seed: u64, steps: u64, n: usize) -> usize {
    use rand::{RngExt, SeedableRng};
    if n <= 1 {
        return 0;
    }
    let mut r =
        rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ steps.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.random_range(0..n)
}

/// The rules a scenario or save file without a `rules:` field is played by: Gloomhaven's, the only
/// module there was when such files were written.
pub const DEFAULT_RULES: &str = <gloomhaven::Gloomhaven as Rules>::NAME;

/// The name of the rules a scenario or save file is played by: its `rules:` field, else
/// [`DEFAULT_RULES`].
pub fn rules_name(text: &str) -> &str {
    rules_field(text).map_or(DEFAULT_RULES, |(name, _, _)| name)
}

/// The value of the top-level `rules: Name` field of a scenario or save file, with its position;
/// `None` when the file has no such field. Loading dispatches on it before the whole file is parsed.
pub fn rules_field(text: &str) -> Option<(&str, usize, usize)> {
    top_level_field(text, "rules")
}

/// The value (a bare or quoted word) of the top-level field `key` of a RON file, with its line and
/// column; `None` when there is none. Comments and strings are skipped.
fn top_level_field<'a>(text: &'a str, key: &str) -> Option<(&'a str, usize, usize)> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ if depth == 1
                && text.is_char_boundary(i)
                && text[i..].starts_with(key)
                && (i == 0 || !is_ident(bytes[i - 1]))
                && !bytes.get(i + key.len()).copied().is_some_and(is_ident) =>
            {
                let rest = text[i + key.len()..].trim_start();
                if let Some(value) = rest.strip_prefix(':') {
                    // Scenarios write a name bare (`rules: Gloomhaven`), saves quote it.
                    let value = value.trim_start();
                    let value = value.strip_prefix('"').unwrap_or(value);
                    let len = value.bytes().take_while(|b| is_ident(*b)).count();
                    let start = text.len() - value.len();
                    let (line, column) = offset_to_position(text, start);
                    return Some((&value[..len], line, column));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The scenario file format this Foehold reads and writes.
///
/// Format 1 (or no field): every module's first files. Format 2 (2026-11-29): a Gloomhaven-family scenario may name monster types of the
/// library instead of writing them, give statistics by scenario level, and mark what stands on a
/// spot for two, three and four characters. Format 3 (2026-12-07): a Gloomhaven-family scenario
/// may write hero classes of its own (`classes:`). Files of earlier formats read as they always
/// did.
pub const SCENARIO_FORMAT: u32 = 3;

/// A scenario of a later format (its top-level `format:`) is refused naming both formats, before
/// the rest of the file is read: its other fields may be ones this Foehold does not know.
pub(crate) fn check_scenario_format(file: &str, text: &str) -> Result<(), LoadError> {
    let Some((value, line, column)) = top_level_field(text, "format") else {
        return Ok(());
    };
    match value.parse::<u32>() {
        Ok(n) if (1..=SCENARIO_FORMAT).contains(&n) => Ok(()),
        _ => Err(LoadError::new(
            file,
            line,
            column,
            format!(
                "the scenario is of format {value:?}, which this Foehold does not know: it reads \
                 scenario formats 1 to {SCENARIO_FORMAT} (a later format comes from a newer \
                 Foehold)"
            ),
        )),
    }
}

const fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_field_is_found_at_the_top_level_only() {
        let text = "// rules: Nope\nScenario(\n  name: \"rules: x\",\n  inner: (rules: Deep),\n  rules: Gloomhaven,\n)";
        assert_eq!(rules_field(text), Some(("Gloomhaven", 5, 10)));
        assert_eq!(rules_field("Scenario(name: \"a\")"), None);
        let save = "(\n    rules: \"Gloomhaven\",\n)";
        assert_eq!(rules_field(save), Some(("Gloomhaven", 2, 13)));
    }

    #[test]
    fn seeded_picks_stay_in_range_and_repeat() {
        for steps in 0..50 {
            let a = seeded_pick(7, steps, 3);
            assert!(a < 3);
            assert_eq!(a, seeded_pick(7, steps, 3));
        }
        assert_eq!(seeded_pick(7, 3, 1), 0);
    }
}
