//! The `GoalTurn` case files: their structs, validation (every size bounded before use), conversion
//! to a [`Situation`], and the answer as JSON, as text with the trace, and as a verdict on `expect`.

use super::board::{Adventure, Board, BoardSpec, DomeKey, Loot};
use super::situation::{
    Affects, Aura, AuraEffect, Foe, GoalOption, Hero, Item, ItemEffect, ItemKind, MinionCard,
    MinionMove, Mode, Outcome, OverrideCard, Pick, Rating, Situation, Weapon,
};
use crate::decision::Decision;
use crate::error::{LoadError, offset_to_position, parse_ron};
use crate::hex::{Hex, hex};
use crate::rules::case::{Answer, CaseFormat};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Largest `|q|` or `|r|` of any hex in a file.
pub const MAX_COORD: i32 = 255;
/// Most board hexes (spaces and walls together).
pub(crate) const MAX_HEXES: usize = 8192;
/// Most heroes, and most foes.
pub(crate) const MAX_FIGURES: usize = 64;
/// Most entries of the smaller lists (weapons, auras, items, keys, adventures, loot piles).
pub(crate) const MAX_LIST: usize = 256;
/// Most expected outcomes.
pub(crate) const MAX_OUTCOMES: usize = 4096;
/// Largest speed, range, radius or distance.
pub(crate) const MAX_REACH: u32 = 64;
/// Largest `|rating|` or weapon `hit`.
pub(crate) const MAX_RATING: i32 = 100;
/// Largest gold, card or carried-loot count.
pub(crate) const MAX_LOOT: u32 = 10_000;

type Qr = (i32, i32);

/// A `GoalTurn` case file: one foe about to decide, and the outcomes expected (none in a question).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoalTurn {
    /// The case's name, for reports.
    pub id: String,
    /// The board.
    pub board: FileBoard,
    /// The heroes and their minions.
    pub heroes: Vec<FileHero>,
    /// Every foe.
    pub foes: Vec<FileFoe>,
    /// The name of the foe that decides.
    pub active: String,
    /// What it is deciding.
    pub mode: Mode,
    /// The override card drawn this round.
    #[serde(rename = "override")]
    pub override_card: FileOverride,
    /// Every allowed outcome; a file without it is a question, answered without a verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Vec<FileOutcome>>,
}

/// The board of a case, in axial `(q, r)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileBoard {
    /// Every space of the board (walls apart).
    pub hexes: Vec<Qr>,
    /// Wall hexes.
    pub walls: Vec<Qr>,
    /// Woods: 2 move points to enter, +2 Stealth to whoever stands in them.
    pub woods: Vec<Qr>,
    /// Rough ground: 2 move points to enter.
    pub rough: Vec<Qr>,
    /// Prohibited terrain: nobody enters it.
    pub blocked: Vec<Qr>,
    /// The Dome keys.
    pub dome_keys: Vec<FileKey>,
    /// The adventures.
    pub adventures: Vec<FileAdventure>,
    /// Dropped loot.
    pub loot: Vec<FileLoot>,
}

/// A Dome key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileKey {
    /// The key's name.
    pub name: String,
    /// Its ten hexes.
    pub hexes: Vec<Qr>,
    /// The hexes of them that are Domes.
    pub domes: Vec<Qr>,
}

/// An adventure on the map key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileAdventure {
    /// Its name.
    pub name: String,
    /// Its spaces.
    pub spaces: Vec<Qr>,
    /// The foes have captured it already.
    pub captured: bool,
    /// The foes attempt it in this position.
    pub foes_use: bool,
}

/// A pile of dropped loot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileLoot {
    /// Where it lies.
    pub hex: Qr,
    /// Gold in it.
    pub gold: u32,
    /// Cards in it.
    pub cards: u32,
}

/// An aura.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileAura {
    /// How far it reaches.
    pub radius: u32,
    /// What it does.
    pub effect: AuraEffect,
}

/// A hero or a hero's minion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileHero {
    /// Its name.
    pub name: String,
    /// Where it stands.
    pub hex: Qr,
    /// Speed.
    pub speed: u32,
    /// Melee.
    pub melee: i32,
    /// Aim.
    pub aim: i32,
    /// Agility: defence against melee.
    pub agility: i32,
    /// Stealth: defence against ranged attacks.
    pub stealth: i32,
    /// Wits (only the override card reads it).
    pub wits: i32,
    /// Armor: the lowest is the easiest to Damage.
    pub armor: i32,
    /// A hero's minion.
    pub minion: bool,
    /// Loot items carried.
    pub loot: u32,
    /// Whether the hero can trade at all.
    pub can_trade: bool,
    /// Already trapped on its Dome key by a foe this round.
    pub trapped: bool,
    /// Its auras.
    pub auras: Vec<FileAura>,
}

/// A foe's ranged weapon.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileWeapon {
    /// Its name.
    pub name: String,
    /// The nearest and farthest distance it shoots at.
    pub range: (u32, u32),
    /// Added to the foe's Aim.
    pub hit: i32,
}

/// What a special item does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum FileEffect {
    /// Move to a space from which an enemy is within `range` in sight (Surprise cards).
    Lurk {
        /// The nearest and farthest distance.
        range: (u32, u32),
        /// What the strike from hiding adds to the foe's Aim: 2 when left out, as the shared
        /// format has it; a moment of a game whose card says otherwise writes it.
        #[serde(
            default = "super::scenario::surprise_strike",
            skip_serializing_if = "super::scenario::is_surprise_strike"
        )]
        strike: i32,
    },
    /// Affects every enemy or ally within `radius`.
    Burst {
        /// How far it reaches.
        radius: u32,
        /// Whom it affects.
        affects: Affects,
    },
    /// A defence on the foe itself.
    Guard,
}

/// A special item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileItem {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: ItemKind,
    /// What it does.
    pub effect: FileEffect,
    /// Whether using it is the foe's action.
    pub action: bool,
}

/// A minion a foe can unleash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileMinion {
    /// Its name.
    pub name: String,
    /// Its Speed.
    pub speed: u32,
    /// Its Melee.
    pub melee: i32,
    /// Its Aim.
    pub aim: i32,
}

/// A foe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileFoe {
    /// Its name.
    pub name: String,
    /// Where it stands.
    pub hex: Qr,
    /// Move points of a Move action.
    pub speed: u32,
    /// Melee attack rating.
    pub melee: i32,
    /// Ranged attack rating.
    pub aim: i32,
    /// Its ranged weapons.
    pub weapons: Vec<FileWeapon>,
    /// Its auras.
    pub auras: Vec<FileAura>,
    /// Its special items, in the order they are examined within a kind.
    pub specials: Vec<FileItem>,
    /// A minion it can unleash.
    pub minion_card: Option<FileMinion>,
    /// It may use the Slip Away action.
    pub slip_away: bool,
    /// It has already taken its action this round.
    pub acted: bool,
    /// For a foe that ended in the space of an ally that had not acted: where it came from.
    pub entered_from: Option<Qr>,
    /// It has lost wounds (a healing burst means something to it); `false` when left out.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hurt: bool,
}

/// The override card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileOverride {
    /// The rating it names.
    pub rating: Rating,
    /// Which end of it it keeps.
    pub pick: Pick,
}

/// What an unleashed minion does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileMinionMove {
    /// The option it takes.
    pub option: GoalOption,
    /// The hero it targets, if any.
    pub target: Option<String>,
    /// Where it ends.
    pub end: Qr,
}

/// `unstack: Some((foe: "…", to: (q, r)))`; a bare tuple `("…", (q, r))` is read too.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FileUnstack {
    /// `unstack: Some((foe: "…", to: (q, r)))`.
    Named(FileUnstackNamed),
    /// `unstack: Some(("…", (q, r)))`.
    Tuple(String, Qr),
}

impl FileUnstack {
    /// The ally's name and where it goes, whichever way the file wrote them.
    pub fn parts(&self) -> (&str, Qr) {
        match self {
            FileUnstack::Named(u) => (&u.foe, u.to),
            FileUnstack::Tuple(foe, to) => (foe, *to),
        }
    }
}

// The two spellings say the same thing: a file read back after writing may spell it the other way.
impl PartialEq for FileUnstack {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for FileUnstack {}

/// The invading ally pushed back, and where to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileUnstackNamed {
    /// Its name.
    pub foe: String,
    /// Where it goes.
    pub to: Qr,
}

/// One expected outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileOutcome {
    /// The option it comes from.
    pub option: GoalOption,
    /// The hero it targets, if any.
    pub target: Option<String>,
    /// Where the foe ends.
    pub end: Qr,
    /// The hero it switched places with by Slip Away.
    pub swap: Option<String>,
    /// The not-yet-acted ally in whose space it ends.
    pub stacked_on: Option<String>,
    /// The ranged weapon used, if any.
    pub weapon: Option<String>,
    /// Special items used this turn.
    pub used: Vec<String>,
    /// The minion unleashed and what it does.
    pub minion: Option<FileMinionMove>,
    /// The invading ally pushed back, and where to.
    pub unstack: Option<FileUnstack>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

// Enums shared with the situation types, read straight from the files and written back as read.
macro_rules! plain_enum {
    ($t:ty, $name:literal, [$($v:ident),*]) => {
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                #[derive(Deserialize)]
                #[serde(rename = $name)]
                enum Repr { $($v),* }
                Ok(match Repr::deserialize(d)? { $(Repr::$v => <$t>::$v),* })
            }
        }
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                #[derive(Serialize)]
                #[serde(rename = $name)]
                enum Repr { $($v),* }
                match self { $(<$t>::$v => Repr::$v),* }.serialize(s)
            }
        }
    };
}
plain_enum!(Mode, "Mode", [Attack, Special, MeleeStep, ReactionShot]);
plain_enum!(
    Rating,
    "Rating",
    [Speed, Melee, Aim, Agility, Stealth, Wits, Armor]
);
plain_enum!(Pick, "Pick", [Highest, Lowest]);
plain_enum!(AuraEffect, "AuraEffect", [Help, Hinder]);
plain_enum!(ItemKind, "ItemKind", [Surprise, SingleUse, OncePerGame]);
plain_enum!(Affects, "Affects", [Enemies, Allies]);

/// A foe's option as the files spell it (`Attack(2)`, `Adventure`).
#[derive(Serialize, Deserialize)]
#[serde(rename = "GoalOption")]
enum OptionRepr {
    Attack(u8),
    Special(u8),
    Adventure,
    Unleash,
    MeleeStep,
    ReactionShot,
}

impl<'de> Deserialize<'de> for GoalOption {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match OptionRepr::deserialize(d)? {
            OptionRepr::Attack(n) => GoalOption::Attack(n),
            OptionRepr::Special(n) => GoalOption::Special(n),
            OptionRepr::Adventure => GoalOption::Adventure,
            OptionRepr::Unleash => GoalOption::Unleash,
            OptionRepr::MeleeStep => GoalOption::MeleeStep,
            OptionRepr::ReactionShot => GoalOption::ReactionShot,
        })
    }
}

impl Serialize for GoalOption {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            GoalOption::Attack(n) => OptionRepr::Attack(n),
            GoalOption::Special(n) => OptionRepr::Special(n),
            GoalOption::Adventure => OptionRepr::Adventure,
            GoalOption::Unleash => OptionRepr::Unleash,
            GoalOption::MeleeStep => OptionRepr::MeleeStep,
            GoalOption::ReactionShot => OptionRepr::ReactionShot,
        }
        .serialize(s)
    }
}

/// Finds `needle` after the first `section` in `text` (or anywhere), for error positions.
fn locate(file: &str, text: &str, section: &str, needle: &str, message: String) -> LoadError {
    if let Some(start) = text.find(section) {
        if let Some(off) = text[start..].find(needle) {
            let (line, column) = offset_to_position(text, start + off);
            return LoadError::new(file, line, column, message);
        }
        let (line, column) = offset_to_position(text, start);
        return LoadError::new(file, line, column, message);
    }
    LoadError::at_text(file, text, needle, message)
}

fn qr_text(p: Qr) -> String {
    format!("({}, {})", p.0, p.1)
}

/// Checks the bounds and the consistency of a parsed file.
struct Check<'a> {
    file: &'a str,
    text: &'a str,
}

impl Check<'_> {
    fn err(&self, section: &str, needle: &str, message: String) -> LoadError {
        locate(self.file, self.text, section, needle, message)
    }

    fn coord(&self, section: &str, p: Qr) -> Result<Hex, LoadError> {
        // `unsigned_abs`: `abs` of the most negative number overflows.
        if p.0.unsigned_abs() > MAX_COORD as u32 || p.1.unsigned_abs() > MAX_COORD as u32 {
            return Err(self.err(
                section,
                &qr_text(p),
                format!(
                    "hex {} is off the supported board: expected coordinates within ±{MAX_COORD}",
                    qr_text(p)
                ),
            ));
        }
        Ok(hex(p.0, p.1))
    }

    fn hexes(&self, section: &str, list: &[Qr]) -> Result<Vec<Hex>, LoadError> {
        self.count(section, list.len(), MAX_HEXES)?;
        list.iter().map(|&p| self.coord(section, p)).collect()
    }

    fn count(&self, section: &str, n: usize, max: usize) -> Result<(), LoadError> {
        if n > max {
            return Err(self.err(
                section,
                section,
                format!(
                    "`{}` has {n} entries: expected at most {max}",
                    section.trim_end_matches(':')
                ),
            ));
        }
        Ok(())
    }

    fn reach(&self, section: &str, field: &str, v: u32) -> Result<u32, LoadError> {
        if v > MAX_REACH {
            return Err(self.err(
                section,
                field,
                format!(
                    "`{}` is {v}: expected at most {MAX_REACH}",
                    field.trim_end_matches(':')
                ),
            ));
        }
        Ok(v)
    }

    fn rating(&self, section: &str, field: &str, v: i32) -> Result<i32, LoadError> {
        if v.unsigned_abs() > MAX_RATING as u32 {
            return Err(self.err(
                section,
                field,
                format!(
                    "`{}` is {v}: expected a number within ±{MAX_RATING}",
                    field.trim_end_matches(':')
                ),
            ));
        }
        Ok(v)
    }

    fn loot(&self, section: &str, field: &str, v: u32) -> Result<u32, LoadError> {
        if v > MAX_LOOT {
            return Err(self.err(
                section,
                field,
                format!(
                    "`{}` is {v}: expected at most {MAX_LOOT}",
                    field.trim_end_matches(':')
                ),
            ));
        }
        Ok(v)
    }

    fn auras(&self, section: &str, list: &[FileAura]) -> Result<Vec<Aura>, LoadError> {
        self.count(section, list.len(), MAX_LIST)?;
        list.iter()
            .map(|a| {
                Ok(Aura {
                    radius: self.reach(section, "radius:", a.radius)?,
                    effect: a.effect,
                })
            })
            .collect()
    }
}

/// Reads and validates a `GoalTurn` file into the situation and the expected outcomes, if any.
pub fn load(
    file: &str,
    text: &str,
) -> Result<(GoalTurn, Situation, Option<Vec<Outcome>>), LoadError> {
    let turn: GoalTurn = parse_ron(file, text)?;
    let c = Check { file, text };
    let b = &turn.board;
    for (section, n, max) in [
        ("dome_keys:", b.dome_keys.len(), MAX_LIST),
        ("adventures:", b.adventures.len(), MAX_LIST),
        ("loot:", b.loot.len(), MAX_LIST),
        ("heroes:", turn.heroes.len(), MAX_FIGURES),
        ("foes:", turn.foes.len(), MAX_FIGURES),
        (
            "expect:",
            turn.expect.as_ref().map_or(0, Vec::len),
            MAX_OUTCOMES,
        ),
    ] {
        c.count(section, n, max)?;
    }
    if b.hexes.len() + b.walls.len() > MAX_HEXES {
        return Err(c.err(
            "hexes:",
            "hexes:",
            format!(
                "the board has {} hexes and walls: expected at most {MAX_HEXES}",
                b.hexes.len() + b.walls.len()
            ),
        ));
    }
    let hexes = c.hexes("hexes:", &b.hexes)?;
    if hexes.is_empty() {
        return Err(c.err(
            "hexes:",
            "hexes:",
            "the board has no spaces: expected at least one".into(),
        ));
    }
    let walls = c.hexes("walls:", &b.walls)?;
    let mut seen = BTreeSet::new();
    for (section, list) in [("hexes:", &b.hexes), ("walls:", &b.walls)] {
        for &p in list.iter() {
            if !seen.insert(p) {
                return Err(c.err(
                    section,
                    &qr_text(p),
                    format!(
                        "hex {} is listed twice: expected each space or wall once",
                        qr_text(p)
                    ),
                ));
            }
        }
    }
    let space = |section: &str, p: Qr, what: &str| -> Result<Hex, LoadError> {
        let h = c.coord(section, p)?;
        if !b.hexes.contains(&p) {
            return Err(c.err(
                section,
                &qr_text(p),
                format!(
                    "{what} {} is not a space of the board: expected one of `board.hexes`",
                    qr_text(p)
                ),
            ));
        }
        Ok(h)
    };
    let subset = |section: &str, list: &[Qr], what: &str| -> Result<Vec<Hex>, LoadError> {
        c.count(section, list.len(), MAX_HEXES)?;
        list.iter().map(|&p| space(section, p, what)).collect()
    };
    let woods = subset("woods:", &b.woods, "woods")?;
    let rough = subset("rough:", &b.rough, "rough ground")?;
    let blocked = subset("blocked:", &b.blocked, "prohibited terrain")?;
    let mut terrain = BTreeSet::new();
    for (section, list) in [
        ("woods:", &b.woods),
        ("rough:", &b.rough),
        ("blocked:", &b.blocked),
    ] {
        for &p in list.iter() {
            if !terrain.insert(p) {
                return Err(c.err(
                    section,
                    &qr_text(p),
                    format!(
                        "hex {} has two terrains: expected woods, rough and blocked not to overlap",
                        qr_text(p)
                    ),
                ));
            }
        }
    }
    let mut dome_keys = Vec::new();
    for k in &b.dome_keys {
        let section = format!("name: \"{}\"", k.name);
        if k.hexes.len() != 10 {
            return Err(c.err(
                &section,
                "hexes:",
                format!(
                    "Dome key `{}` has {} hexes: expected exactly ten",
                    k.name,
                    k.hexes.len()
                ),
            ));
        }
        let hx = subset(&section, &k.hexes, "Dome key hex")?;
        let domes = subset(&section, &k.domes, "Dome")?;
        for p in &k.domes {
            if !k.hexes.contains(p) {
                return Err(c.err(
                    &section,
                    &qr_text(*p),
                    format!(
                        "Dome {} is not one of the ten hexes of key `{}`",
                        qr_text(*p),
                        k.name
                    ),
                ));
            }
            if terrain.contains(p) {
                return Err(c.err(
                    &section,
                    &qr_text(*p),
                    format!("Dome {} carries terrain: expected a clear hex", qr_text(*p)),
                ));
            }
        }
        dome_keys.push(DomeKey {
            name: k.name.clone(),
            hexes: hx,
            domes,
        });
    }
    let mut adventures = Vec::new();
    for a in &b.adventures {
        let section = format!("name: \"{}\"", a.name);
        adventures.push(Adventure {
            name: a.name.clone(),
            spaces: subset(&section, &a.spaces, "adventure space")?,
            captured: a.captured,
            foes_use: a.foes_use,
        });
    }
    let mut loot = Vec::new();
    for l in &b.loot {
        let section = format!("hex: {}", qr_text(l.hex));
        loot.push(Loot {
            hex: space("loot:", l.hex, "loot")?,
            gold: c.loot(&section, "gold:", l.gold)?,
            cards: c.loot(&section, "cards:", l.cards)?,
        });
    }
    let spec = BoardSpec {
        hexes,
        walls,
        woods,
        rough,
        blocked,
        dome_keys,
        adventures,
        loot,
    };
    let board = Board::new(spec).map_err(|m| c.err("board:", "board:", m))?;
    let dome_at = |h: Hex| board.index(h).is_some_and(|i| board.is_dome(i));

    let mut names = BTreeSet::new();
    let mut taken: BTreeSet<Qr> = BTreeSet::new();
    let mut heroes = Vec::new();
    for h in &turn.heroes {
        let section = format!("name: \"{}\"", h.name);
        if h.name.is_empty() || !names.insert(h.name.clone()) {
            return Err(c.err(
                &section,
                "name:",
                format!(
                    "hero name `{}` is empty or used twice: expected unique names",
                    h.name
                ),
            ));
        }
        let at = space(&section, h.hex, "hero")?;
        if !taken.insert(h.hex) {
            return Err(c.err(
                &section,
                "hex:",
                format!(
                    "{} stands where another hero does: expected one hero per space",
                    h.name
                ),
            ));
        }
        if board
            .index(at)
            .is_some_and(|i| board.enter_cost(i).is_none() && !board.is_dome(i))
        {
            return Err(c.err(
                &section,
                "hex:",
                format!(
                    "{} stands on prohibited terrain: expected a space a hero can stand on",
                    h.name
                ),
            ));
        }
        heroes.push(Hero {
            name: h.name.clone(),
            hex: at,
            speed: c.reach(&section, "speed:", h.speed)?,
            melee: c.rating(&section, "melee:", h.melee)?,
            aim: c.rating(&section, "aim:", h.aim)?,
            agility: c.rating(&section, "agility:", h.agility)?,
            stealth: c.rating(&section, "stealth:", h.stealth)?,
            wits: c.rating(&section, "wits:", h.wits)?,
            armor: c.rating(&section, "armor:", h.armor)?,
            minion: h.minion,
            loot: c.loot(&section, "loot:", h.loot)?,
            can_trade: h.can_trade,
            trapped: h.trapped,
            auras: c.auras(&section, &h.auras)?,
        });
    }
    let mut foes = Vec::new();
    for f in &turn.foes {
        let section = format!("name: \"{}\"", f.name);
        if f.name.is_empty() || !names.insert(f.name.clone()) {
            return Err(c.err(&section, "name:", format!("foe name `{}` is empty or used twice: expected names unique among heroes and foes", f.name)));
        }
        let at = space(&section, f.hex, "foe")?;
        if taken.contains(&f.hex) {
            return Err(c.err(
                &section,
                "hex:",
                format!(
                    "{} stands on a hero's space: expected a space without heroes",
                    f.name
                ),
            ));
        }
        if dome_at(at)
            || board
                .index(at)
                .is_some_and(|i| board.enter_cost(i).is_none())
        {
            return Err(c.err(&section, "hex:", format!("{} stands in a Dome or on prohibited terrain: expected a space a foe can stand on", f.name)));
        }
        c.count(&section, f.weapons.len(), MAX_LIST)?;
        let weapons = f
            .weapons
            .iter()
            .map(|w| {
                let (min, max) = (
                    c.reach(&section, "range:", w.range.0)?,
                    c.reach(&section, "range:", w.range.1)?,
                );
                if min > max {
                    return Err(c.err(
                        &section,
                        "range:",
                        format!(
                            "weapon `{}` has range ({min}, {max}): expected min <= max",
                            w.name
                        ),
                    ));
                }
                Ok(Weapon {
                    name: w.name.clone(),
                    min,
                    max,
                    hit: c.rating(&section, "hit:", w.hit)?,
                })
            })
            .collect::<Result<Vec<_>, LoadError>>()?;
        c.count(&section, f.specials.len(), MAX_LIST)?;
        let items = f
            .specials
            .iter()
            .map(|s| {
                let effect = match &s.effect {
                    FileEffect::Lurk { range, strike } => {
                        let (min, max) = (
                            c.reach(&section, "range:", range.0)?,
                            c.reach(&section, "range:", range.1)?,
                        );
                        if min > max {
                            return Err(c.err(
                                &section,
                                "Lurk",
                                format!(
                                    "item `{}` has range ({min}, {max}): expected min <= max",
                                    s.name
                                ),
                            ));
                        }
                        ItemEffect::Lurk {
                            min,
                            max,
                            strike: c.rating(&section, "strike:", *strike)?,
                        }
                    }
                    FileEffect::Burst { radius, affects } => ItemEffect::Burst {
                        radius: c.reach(&section, "radius:", *radius)?,
                        affects: *affects,
                    },
                    FileEffect::Guard => ItemEffect::Guard,
                };
                Ok(Item {
                    name: s.name.clone(),
                    kind: s.kind,
                    effect,
                    action: s.action,
                })
            })
            .collect::<Result<Vec<_>, LoadError>>()?;
        let minion_card = match &f.minion_card {
            None => None,
            Some(m) => Some(MinionCard {
                name: m.name.clone(),
                speed: c.reach(&section, "speed:", m.speed)?,
                melee: c.rating(&section, "melee:", m.melee)?,
                aim: c.rating(&section, "aim:", m.aim)?,
            }),
        };
        let entered_from = match f.entered_from {
            None => None,
            Some(p) => Some(space(&section, p, "entered_from")?),
        };
        foes.push(Foe {
            name: f.name.clone(),
            hex: at,
            speed: c.reach(&section, "speed:", f.speed)?,
            melee: c.rating(&section, "melee:", f.melee)?,
            aim: c.rating(&section, "aim:", f.aim)?,
            weapons,
            auras: c.auras(&section, &f.auras)?,
            items,
            minion_card,
            slip_away: f.slip_away,
            acted: f.acted,
            entered_from,
            hurt: f.hurt,
        });
    }
    // Two foes share a hex only as a stack: one acted and came in from somewhere, one did not act.
    for (i, f) in foes.iter().enumerate() {
        let others: Vec<&Foe> = foes
            .iter()
            .enumerate()
            .filter(|(j, g)| *j != i && g.hex == f.hex)
            .map(|(_, g)| g)
            .collect();
        let section = format!("name: \"{}\"", f.name);
        let ok = match others.as_slice() {
            [] => true,
            [g] => {
                (f.acted && f.entered_from.is_some() && !g.acted)
                    || (g.acted && g.entered_from.is_some() && !f.acted)
            }
            _ => false,
        };
        if !ok {
            return Err(c.err(&section, "hex:", format!("{} shares its hex in a way stacking does not allow: expected at most two foes, one that acted with `entered_from` and one that has not acted", f.name)));
        }
    }
    let Some(active) = foes.iter().position(|f| f.name == turn.active) else {
        return Err(c.err(
            "active:",
            "active:",
            format!("active foe `{}` is not among the foes", turn.active),
        ));
    };
    if foes[active].acted {
        return Err(c.err(
            "active:",
            "active:",
            format!(
                "active foe `{}` has already acted: expected a foe that has not",
                turn.active
            ),
        ));
    }
    let mut expect = Vec::new();
    for o in turn.expect.iter().flatten() {
        let mut out = Outcome::new(o.option, c.coord("expect:", o.end)?);
        out.target = o.target.clone();
        out.swap = o.swap.clone();
        out.stacked_on = o.stacked_on.clone();
        out.weapon = o.weapon.clone();
        out.used = o.used.clone();
        out.used.sort();
        out.minion = match &o.minion {
            None => None,
            Some(m) => Some(MinionMove {
                option: m.option,
                target: m.target.clone(),
                end: c.coord("expect:", m.end)?,
            }),
        };
        out.unstack = match o.unstack.as_ref().map(FileUnstack::parts) {
            None => None,
            Some((foe, to)) => Some((foe.to_string(), c.coord("expect:", to)?)),
        };
        expect.push(out);
    }
    expect.sort();
    expect.dedup();
    let expect = turn.expect.is_some().then_some(expect);
    let situation = Situation {
        board,
        heroes,
        foes,
        active,
        mode: turn.mode,
        override_card: OverrideCard {
            rating: turn.override_card.rating,
            pick: turn.override_card.pick,
        },
    };
    Ok((turn, situation, expect))
}

fn hex_json(h: Hex) -> Value {
    json!([h.x, h.y])
}

/// One outcome as section 13.2 prints it.
pub(crate) fn outcome_json(o: &Outcome) -> Value {
    json!({
        "option": o.option.to_string(),
        "target": o.target,
        "end": hex_json(o.end),
        "swap": o.swap,
        "stacked_on": o.stacked_on,
        "weapon": o.weapon,
        "used": o.used,
        "minion": o.minion.as_ref().map(|m| json!({
            "option": m.option.to_string(),
            "target": m.target,
            "end": hex_json(m.end),
        })),
        "unstack": o.unstack.as_ref().map(|(f, to)| json!({"foe": f, "to": hex_json(*to)})),
    })
}

/// One outcome in the case format's words (`Attack(2)`, as its files name options).
pub(crate) fn outcome_text(o: &Outcome) -> String {
    outcome_with(o, ToString::to_string)
}

/// One outcome in a player's words (`Attack option 2`), for the game's log and buttons.
pub(crate) fn outcome_words(o: &Outcome) -> String {
    outcome_with(o, option_words)
}

/// A foe's option as the rules text names it.
pub(crate) fn option_words(option: &GoalOption) -> String {
    match option {
        GoalOption::Attack(n) => format!("Attack option {n}"),
        GoalOption::Special(n) => format!("Special option {n}"),
        GoalOption::Adventure => "the Adventure goal".to_string(),
        GoalOption::Unleash => "unleashes its minion".to_string(),
        GoalOption::MeleeStep => "a melee step".to_string(),
        GoalOption::ReactionShot => "a reaction shot".to_string(),
    }
}

fn outcome_with(o: &Outcome, option: impl Fn(&GoalOption) -> String) -> String {
    let mut s = option(&o.option);
    if let Some(t) = &o.target {
        s += &format!(" → {t}");
    }
    s += &format!(", ends ({}, {})", o.end.x, o.end.y);
    if let Some(w) = &o.weapon {
        s += &format!(", with {w}");
    }
    if let Some(h) = &o.swap {
        s += &format!(", after switching places with {h}");
    }
    if let Some(a) = &o.stacked_on {
        s += &format!(", stacked on {a}");
    }
    if !o.used.is_empty() {
        s += &format!(", using {}", o.used.join(" and "));
    }
    if let Some(m) = &o.minion {
        s += &format!(
            ", minion: {}{} ends ({}, {})",
            option(&m.option),
            m.target
                .as_ref()
                .map(|t| format!(" → {t}"))
                .unwrap_or_default(),
            m.end.x,
            m.end.y
        );
    }
    if let Some((f, to)) = &o.unstack {
        s += &format!(", {f} goes back to ({}, {})", to.x, to.y);
    }
    s
}

/// Section 13 scoring: the set of outcomes must equal the expected set.
pub fn verdict(got: &[Outcome], expect: &[Outcome]) -> Result<(), String> {
    let got: BTreeSet<&Outcome> = got.iter().collect();
    let want: BTreeSet<&Outcome> = expect.iter().collect();
    if got == want {
        return Ok(());
    }
    let missing: Vec<String> = want.difference(&got).map(|o| outcome_text(o)).collect();
    let extra: Vec<String> = got.difference(&want).map(|o| outcome_text(o)).collect();
    let mut why = Vec::new();
    if !missing.is_empty() {
        why.push(format!("missing: {}", missing.join("; ")));
    }
    if !extra.is_empty() {
        why.push(format!("not expected: {}", extra.join("; ")));
    }
    Err(why.join(" | "))
}

/// The format's entry in the module kit ([`crate::kit::Module::CASES`]).
pub(crate) const FORMAT: CaseFormat = CaseFormat {
    module: "goals",
    kinds: &["GoalTurn"],
    solve,
    json: |file, text| solve(file, text).map(|a| a.json),
};

/// Parses, validates and answers one `GoalTurn` file.
pub fn solve(file: &str, text: &str) -> Result<Answer, LoadError> {
    let (turn, situation, expect) = load(file, text)?;
    let decision = super::decide(&situation);
    let json = json!({ "outcomes": decision.options.iter().map(outcome_json).collect::<Vec<_>>() });
    let text = decision_text(&turn, &decision);
    let verdict = expect.map(|e| verdict(&decision.options, &e));
    Ok(Answer {
        json,
        text,
        verdict,
    })
}

/// A decision as `solve` prints it: the case and the foe, the trace, then every outcome.
pub(crate) fn decision_text(turn: &GoalTurn, decision: &Decision<Outcome>) -> String {
    let mut text = format!("{}: {} — goal-priority foe\n", turn.id, turn.active);
    for line in &decision.trace {
        text += &format!("  {line}\n");
    }
    text += "Outcomes:\n";
    for o in &decision.options {
        text += &format!("  - {}\n", outcome_text(o));
    }
    text
}
