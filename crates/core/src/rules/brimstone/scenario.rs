//! The scenario format of a whole Brimstone-style fight: board, heroes, threat cards with their enemy
//! groups, an optional ambush and a loot deck, checked against bounds before the board is built.

use serde::{Deserialize, Serialize};

use super::placement::{Initiative, Style};
use super::square_name;
use super::targeting::Behaviour;
use crate::error::{LoadError, parse_ron};
use crate::square::{BoardError, Square, SquareBoard, Tile};

/// At most this many heroes.
pub(crate) const MAX_HEROES: usize = 8;
/// At most this many threat cards.
pub(crate) const MAX_THREATS: usize = 16;
/// At most this many groups on one threat card.
pub(crate) const MAX_GROUPS: usize = 8;
/// At most this many models on one threat card (placement walks them one by one).
pub(crate) const MAX_CARD_MODELS: u32 = 32;
/// At most this many models over all threat cards.
pub(crate) const MAX_MODELS: u32 = 64;
/// At most this many wall squares.
pub(crate) const MAX_WALLS: usize = 4_096;
/// At most this many loot cards.
pub(crate) const MAX_LOOT_CARDS: usize = 64;
/// At most this many characters in a name.
pub(crate) const MAX_NAME: usize = 64;
/// At most this many rounds.
pub(crate) const MAX_ROUNDS: u32 = 50;
/// Movement and range are at most this.
pub(crate) const MAX_REACH: u32 = 24;
/// A hero's or a group's initiative is at most this.
pub(crate) const MAX_INITIATIVE: u32 = 20;

/// The `rules:` field of a Brimstone scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RulesName {
    /// Brimstone-style fights.
    Brimstone,
}

/// The `grid:` field: these fights are played on squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GridName {
    /// Unit squares named by `(x, y)`.
    Square,
}

/// A map tile as the file writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileSpec {
    /// The tile's name.
    pub name: String,
    /// Left-most column.
    pub x: i32,
    /// Front-most row.
    pub y: i32,
    /// Width in squares.
    pub w: i32,
    /// Height in squares.
    pub h: i32,
}

/// The board: tiles and wall squares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// The map tiles.
    pub tiles: Vec<TileSpec>,
    /// Wall squares, each on a tile.
    #[serde(default)]
    pub walls: Vec<Square>,
}

/// A hero's ranged weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gun {
    /// Dice rolled to hit.
    pub shots: u32,
    /// Range in squares (`max(|dx|, |dy|)`, with line of sight).
    pub range: u32,
    /// The number a die must show to hit.
    pub to_hit: u32,
    /// Each hit also splashes the models next to the target (see [`HandWeapon::splash`]).
    #[serde(default)]
    pub splash: bool,
}

/// A hero's hand weapon (a hatchet, a pick): what the hero fights with in melee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandWeapon {
    /// The weapon's name.
    pub name: String,
    /// The weapon's own Combat: the dice of its free attack.
    pub combat: u32,
    /// Once per turn, in its own turn, the hero may make a free melee attack with it, besides its
    /// attack.
    #[serde(default)]
    pub free_attack: bool,
    /// Every melee hit the hero makes (its attack and the free one) also rolls a splash damage die
    /// on each other enemy model next to the target.
    #[serde(default)]
    pub splash: bool,
}

/// A hero with our own name and stats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroSpec {
    /// The hero's name.
    pub name: String,
    /// Where the hero stands when the fight starts.
    pub at: Square,
    /// Wounds the hero can take before being knocked out.
    pub health: u32,
    /// A D6 showing this or more blocks one hit.
    pub defense: u32,
    /// The hero's place in the turn order (higher acts first).
    pub initiative: u32,
    /// Squares the hero may move on its turn.
    #[serde(rename = "move")]
    pub move_points: u32,
    /// Melee dice.
    pub combat: u32,
    /// The number a melee die must show to hit.
    pub melee_to_hit: u32,
    /// The hero's gun, if any.
    #[serde(default)]
    pub gun: Option<Gun>,
    /// The hero's hand weapon, if any.
    #[serde(default)]
    pub weapon: Option<HandWeapon>,
    /// Added to every damage die the hero rolls.
    #[serde(default)]
    pub damage_bonus: u32,
    /// Grit at the start of the fight.
    #[serde(default)]
    pub grit: u32,
    /// The most Grit the hero can hold.
    #[serde(default)]
    pub max_grit: u32,
}

/// One enemy type of a threat card, with its keywords and stats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    /// The enemy type; its models are named "`name` 1", "`name` 2", …
    pub name: String,
    /// How many models the card brings.
    pub count: u32,
    /// Printed or rolled initiative.
    pub initiative: Initiative,
    /// The keyword that places it in an ambush.
    pub style: Style,
    /// The keyword that says how it acts.
    pub behaviour: Behaviour,
    /// Movement allowance in steps.
    #[serde(rename = "move")]
    pub move_points: u32,
    /// Attack range of the shooting behaviours (0 for the others).
    #[serde(default)]
    pub range: u32,
    /// Wounds that kill one model.
    pub wounds: u32,
    /// Taken off every damage die rolled against it (never below 0).
    #[serde(default)]
    pub armour: u32,
    /// Dice it rolls to hit.
    pub combat: u32,
    /// The number its dice must show to hit.
    pub to_hit: u32,
    /// Wounds each unblocked hit deals.
    pub damage: u32,
    /// Experience a hero gains for killing one model.
    #[serde(default)]
    pub xp: u32,
}

/// A threat card: the enemy groups it brings into the fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreatCard {
    /// The card's name.
    pub name: String,
    /// Its enemy groups.
    pub groups: Vec<GroupSpec>,
}

/// The fight starts as an ambush.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmbushSpec {
    /// The ambush was triggered before any model moved this turn (it does not end the turn).
    #[serde(default)]
    pub triggered_before_anyone_moved: bool,
}

/// The threat lurks: the heroes explore an empty board until an ambush springs in play.
///
/// At the start of each round a D6 is rolled: on `start_of_round` or less the ambush springs
/// before anyone moved (it does not end a turn). After each move of a hero a D6 is rolled: on
/// `after_move` or less it springs in that hero's turn, which ends at once. At the start of round
/// `latest_round` it springs without a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LurkSpec {
    /// The start-of-round roll springs the ambush on this or less (0: never).
    pub start_of_round: u32,
    /// The roll after a hero's move springs it on this or less (0: never).
    pub after_move: u32,
    /// The ambush springs at the start of this round at the latest.
    pub latest_round: u32,
}

/// At most this many rule names in `exercises`.
pub(crate) const MAX_EXERCISES: usize = 64;

/// A scenario file as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scenario")]
pub struct ScenarioFile {
    /// Always `Brimstone`.
    pub rules: RulesName,
    /// The scenario file's format ([`crate::rules::SCENARIO_FORMAT`]); absent in files written
    /// before it was named, which are of format 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<u32>,
    /// Always `Square`.
    pub grid: GridName,
    /// The scenario's name.
    pub name: String,
    /// A sentence or two about it.
    #[serde(default)]
    pub description: String,
    /// The board.
    pub board: BoardSpec,
    /// The tile a normal (non-ambush) fight is placed on.
    pub fight_tile: String,
    /// The enemies hold the field after this many rounds.
    pub round_limit: u32,
    /// The heroes.
    pub heroes: Vec<HeroSpec>,
    /// The threat deck.
    pub threats: Vec<ThreatCard>,
    /// How many threat cards the fight draws.
    pub threat_draws: u32,
    /// `Some` when the fight starts as an ambush.
    #[serde(default)]
    pub ambush: Option<AmbushSpec>,
    /// The loot deck, drawn after a won fight.
    #[serde(default)]
    pub loot: Vec<String>,
    /// `Some` when the threat lurks and springs as an ambush in play (not with `ambush`).
    #[serde(default)]
    pub lurk: Option<LurkSpec>,
    /// The rules (coverage names) the scenario's autopilot games are meant to exercise.
    #[serde(default)]
    pub exercises: Vec<String>,
}

/// A checked scenario with its board built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "ScenarioFile", try_from = "ScenarioFile")]
pub struct Scenario {
    /// The file as written.
    pub file: ScenarioFile,
    /// Its board.
    pub board: SquareBoard,
    /// The index of the fight tile.
    pub fight_tile: usize,
}

impl From<Scenario> for ScenarioFile {
    fn from(s: Scenario) -> ScenarioFile {
        s.file
    }
}

impl TryFrom<ScenarioFile> for Scenario {
    type Error = String;

    fn try_from(file: ScenarioFile) -> Result<Scenario, String> {
        check(file).map_err(|p| p.message)
    }
}

/// Where a problem is and what was expected.
#[derive(Debug)]
pub struct Problem {
    /// The field whose number is wrong, with that number; or `None`.
    number: Option<(&'static str, i128)>,
    /// Text to point at when there is no number.
    needle: String,
    /// What was expected.
    pub message: String,
}

fn at(needle: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        number: None,
        needle: needle.into(),
        message: message.into(),
    }
}

/// A number outside `lo..=hi`.
fn bound(field: &'static str, value: u32, lo: u32, hi: u32) -> Result<(), Problem> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(Problem {
        number: Some((field, i128::from(value))),
        needle: format!("{field}:"),
        message: format!("`{field}` is {value}: expected {lo} to {hi}"),
    })
}

fn count(field: &str, len: usize, lo: usize, hi: usize) -> Result<(), Problem> {
    if (lo..=hi).contains(&len) {
        return Ok(());
    }
    Err(at(
        format!("{field}:"),
        format!("`{field}` lists {len} entries: expected {lo} to {hi}"),
    ))
}

fn name(n: &str) -> Result<(), Problem> {
    if n.is_empty() || n.chars().count() > MAX_NAME {
        return Err(at(
            format!("\"{n}\""),
            format!(
                "the name `{}`: expected 1 to {MAX_NAME} characters",
                crate::rules::clipped(n)
            ),
        ));
    }
    Ok(())
}

/// Checks every size and number, then builds the board and places the heroes on it.
pub fn check(file: ScenarioFile) -> Result<Scenario, Problem> {
    name(&file.name)?;
    bound("round_limit", file.round_limit, 1, MAX_ROUNDS)?;
    count("tiles", file.board.tiles.len(), 1, crate::square::MAX_TILES)?;
    count("walls", file.board.walls.len(), 0, MAX_WALLS)?;
    count("heroes", file.heroes.len(), 1, MAX_HEROES)?;
    count("threats", file.threats.len(), 1, MAX_THREATS)?;
    count("loot", file.loot.len(), 0, MAX_LOOT_CARDS)?;
    bound(
        "threat_draws",
        file.threat_draws,
        1,
        file.threats.len() as u32,
    )?;
    let mut names: Vec<String> = Vec::new();
    let mut unique = |n: &str| -> Result<(), Problem> {
        name(n)?;
        if names.iter().any(|m| m == n) {
            return Err(at(
                format!("\"{n}\""),
                format!("the name `{n}` is used twice: expected distinct names"),
            ));
        }
        names.push(n.to_string());
        Ok(())
    };
    for h in &file.heroes {
        unique(&h.name)?;
        bound("health", h.health, 1, 100)?;
        bound("defense", h.defense, 2, 7)?;
        bound("initiative", h.initiative, 0, MAX_INITIATIVE)?;
        bound("move", h.move_points, 0, MAX_REACH)?;
        bound("combat", h.combat, 0, 6)?;
        bound("melee_to_hit", h.melee_to_hit, 2, 6)?;
        bound("damage_bonus", h.damage_bonus, 0, 6)?;
        bound("max_grit", h.max_grit, 0, 9)?;
        bound("grit", h.grit, 0, h.max_grit)?;
        if let Some(g) = h.gun {
            bound("shots", g.shots, 1, 6)?;
            bound("range", g.range, 1, MAX_REACH)?;
            bound("to_hit", g.to_hit, 2, 6)?;
        }
        if let Some(w) = &h.weapon {
            name(&w.name)?;
            bound("combat", w.combat, 1, 6)?;
        }
    }
    let mut total = 0;
    for card in &file.threats {
        name(&card.name)?;
        count("groups", card.groups.len(), 1, MAX_GROUPS)?;
        let mut on_card = 0;
        for g in &card.groups {
            unique(&g.name)?;
            bound("count", g.count, 1, MAX_CARD_MODELS)?;
            on_card += g.count;
            if let Initiative::Fixed(n) = g.initiative {
                bound("initiative", n, 0, MAX_INITIATIVE)?;
            }
            bound("move", g.move_points, 0, MAX_REACH)?;
            bound("range", g.range, u32::from(g.behaviour.shoots()), MAX_REACH)?;
            bound("wounds", g.wounds, 1, 100)?;
            bound("armour", g.armour, 0, 6)?;
            bound("combat", g.combat, 1, 6)?;
            bound("to_hit", g.to_hit, 2, 6)?;
            bound("damage", g.damage, 1, 10)?;
            bound("xp", g.xp, 0, 1_000)?;
        }
        if on_card > MAX_CARD_MODELS {
            return Err(at(
                format!("\"{}\"", card.name),
                format!(
                    "threat card `{}` brings {on_card} models: expected at most {MAX_CARD_MODELS}",
                    card.name
                ),
            ));
        }
        total += on_card;
    }
    if total > MAX_MODELS {
        return Err(at(
            "threats:",
            format!("the threat cards bring {total} models: expected at most {MAX_MODELS}"),
        ));
    }
    // Model names must not clash with hero or group names either.
    for card in &file.threats {
        for g in &card.groups {
            for k in 1..=g.count {
                unique(&format!("{} {k}", g.name))?;
            }
        }
    }
    for l in &file.loot {
        name(l)?;
    }
    if let Some(l) = file.lurk {
        if file.ambush.is_some() {
            return Err(at(
                "lurk:",
                "both `ambush` and `lurk`: expected one of them (a lurking threat springs its own ambush)",
            ));
        }
        bound("start_of_round", l.start_of_round, 0, 6)?;
        bound("after_move", l.after_move, 0, 6)?;
        bound("latest_round", l.latest_round, 1, file.round_limit)?;
    }
    count("exercises", file.exercises.len(), 0, MAX_EXERCISES)?;
    for rule in &file.exercises {
        if !RULES.contains(&rule.as_str()) {
            return Err(at(
                format!("\"{rule}\""),
                format!(
                    "`exercises` names `{rule}`: expected one of the module's rules ({})",
                    RULES.join(", ")
                ),
            ));
        }
    }
    let tiles = file
        .board
        .tiles
        .iter()
        .map(|t| Tile {
            name: t.name.clone(),
            x: t.x,
            y: t.y,
            w: t.w,
            h: t.h,
        })
        .collect();
    let board = SquareBoard::new(tiles, &file.board.walls).map_err(|e| {
        let needle = match &e {
            BoardError::WallOffTiles(_) | BoardError::DuplicateWall(_) => "walls:",
            _ => "tiles:",
        };
        at(needle, e.to_string())
    })?;
    let Some(fight_tile) = board.tile_named(&file.fight_tile) else {
        return Err(at(
            "fight_tile:",
            format!(
                "`fight_tile` names `{}`: expected one of the tiles",
                file.fight_tile
            ),
        ));
    };
    let mut taken: Vec<Square> = Vec::new();
    for h in &file.heroes {
        if !board.contains(h.at) || taken.contains(&h.at) {
            return Err(at(
                format!("\"{}\"", h.name),
                format!(
                    "`{}` stands on {}: expected a free board square (on a tile, not a wall)",
                    h.name,
                    square_name(h.at)
                ),
            ));
        }
        taken.push(h.at);
    }
    Ok(Scenario {
        file,
        board,
        fight_tile,
    })
}

/// Parses and checks a scenario file; errors name the file, line and column.
pub fn parse(file: &str, text: &str) -> Result<Scenario, LoadError> {
    let parsed: ScenarioFile = parse_ron(file, text)?;
    check(parsed).map_err(|p| match p.number {
        Some((field, value)) => LoadError::at_number(file, text, field, value, p.message),
        None => LoadError::at_text(file, text, &p.needle, p.message),
    })
}

impl Scenario {
    /// The heroes as the file lists them.
    pub fn heroes(&self) -> &[HeroSpec] {
        &self.file.heroes
    }

    /// Every enemy group of every threat card, in file order: `(card, group)`.
    pub fn all_groups(&self) -> impl Iterator<Item = (usize, &GroupSpec)> {
        self.file
            .threats
            .iter()
            .enumerate()
            .flat_map(|(c, card)| card.groups.iter().map(move |g| (c, g)))
    }
}

/// Every rule coverage counts, by a short stable name: the names `exercises` may claim.
///
/// In the order its table lists them. It lives with the scenario, which checks the claims;
/// [`super::coverage`] counts them.
pub const RULES: &[&str] = &[
    "threat-draw",
    "place-normal",
    "place-no-room",
    "ambush-plain",
    "ambush-shootout",
    "ambush-support",
    "ambush-immobile",
    "ambush-initiative",
    "ambush-ends-turn",
    "ambush-keeps-turn",
    "lurk-roll",
    "variable-initiative",
    "target-melee",
    "target-ranged",
    "target-melee-or-ranged",
    "target-acid-blob",
    "target-shootout",
    "target-support",
    "even-distribution",
    "shootout-retreat",
    "shootout-marker",
    "support-moves-away",
    "hero-melee",
    "hero-shot",
    "free-attack",
    "splash",
    "splash-kill",
    "kill-xp",
    "knocked-out",
    "round-limit",
    "grit",
    "healing-roll",
    "no-turn-choice",
    "loot-draw",
];
