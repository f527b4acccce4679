//! The Brimstone case format: `Placement`, `Targeting`, `HeroAttack` and `EndOfFight` files.
//!
//! Parsing, validation with positions, conversion to the module's situation types, the JSON answer,
//! the answer in words and the verdict against the file's expected answer (section 8 of the format).

use super::attack::{self, AttackKind, DamageHit, DamageModifier, Die, HitKind, Roll, Target};
use super::end_of_fight::{self, Breath, Member};
use super::placement::{self, Fight, Group, Initiative, Placement, PlacementError, Style};
use super::targeting::{self, Activation, Active, Attack, Behaviour, Situation};
use super::{Hero, square_name};
use crate::decision::ChosenBy;
use crate::error::{LoadError, parse_ron};
use crate::modifiers::fraction::Fraction;
use crate::rules::case::{Answer, CaseFormat, top_level_name};
use crate::square::{Square, SquareBoard, Tile};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// The format's entry in the module kit ([`crate::kit::Module::CASES`]).
pub(crate) const FORMAT: CaseFormat = CaseFormat {
    module: "brimstone",
    kinds: &["Placement", "Targeting", "HeroAttack", "EndOfFight"],
    solve,
    json: |file, text| solve(file, text).map(|a| a.json),
};

/// At most this many heroes (or party members) in a file.
pub(crate) const MAX_HEROES: usize = 16;
/// At most this many other enemies in a `Targeting` file.
pub(crate) const MAX_ENEMIES: usize = 64;
/// At most this many groups in a `Placement` file.
pub(crate) const MAX_GROUPS: usize = 8;
/// At most this many models over all groups of a `Placement` file.
pub(crate) const MAX_MODELS: usize = 32;
/// Movement, range and counts of models of a type are at most this.
pub(crate) const MAX_STEPS: u32 = 64;
/// Markers, initiative, Combat, Shots, to-hit numbers and the like are at most this.
pub(crate) const MAX_SMALL: u32 = 100;
/// Wounds, damage taken and XP are at most this.
pub(crate) const MAX_LARGE: u32 = 100_000;
/// At most this many targets, damage dice and damage modifiers in a `HeroAttack` file.
pub(crate) const MAX_ITEMS: usize = 64;

type Sq = (i32, i32);

/// A map tile as the file lists it: a rectangle of `w` × `h` squares from `(x, y)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileIn {
    /// The tile's name, unique on the board.
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

/// The board as the file lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardIn {
    /// The map tiles; they never overlap.
    pub tiles: Vec<TileIn>,
    /// Wall squares, each on a tile, sorted by `(x, y)`.
    pub walls: Vec<Sq>,
}

impl BoardIn {
    /// The tiles as the square board takes them.
    pub(crate) fn square_tiles(&self) -> Vec<Tile> {
        self.tiles
            .iter()
            .map(|t| Tile {
                name: t.name.clone(),
                x: t.x,
                y: t.y,
                w: t.w,
                h: t.h,
            })
            .collect()
    }
}

/// A hero as the file lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroIn {
    /// The hero's name, unique among the file's models.
    pub name: String,
    /// The square it stands on.
    pub at: Sq,
    /// Shootout markers on the hero.
    pub markers: u32,
}

/// Another enemy: named, on a square. A `markers` field, as heroes have, is accepted and unused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyIn {
    /// The enemy's name, unique among the file's models.
    pub name: String,
    /// The square it stands on.
    pub at: Sq,
    /// Markers, read and kept but never used (written only when some are set).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub markers: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// An enemy group of a `Placement` file: one enemy type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupIn {
    /// The enemy type.
    pub name: String,
    /// Printed or rolled each turn.
    pub initiative: Initiative,
    /// How it is placed in an ambush.
    pub style: Style,
    /// The hero a non-`Plain` ambush falls on when that draw is given; `None` leaves it to chance.
    pub ambushed_hero: Option<String>,
    /// Its models, in the order they are placed.
    pub models: Vec<String>,
}

/// One expected layout of a `Placement` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayoutIn {
    /// Who settles that it is this layout.
    pub chosen_by: ChosenBy,
    /// `(model, square)` for every placed model, sorted by model name.
    pub at: Vec<(String, Sq)>,
    /// The models left off the board.
    pub unplaced: Vec<String>,
}

/// The expected answer of a `Placement` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacementExpect {
    /// +2 for an ambush, 0 otherwise.
    pub initiative_bonus: u32,
    /// The ambush ends the current turn at once.
    pub ends_turn: bool,
    /// Every allowed layout.
    pub layouts: Vec<LayoutIn>,
}

/// A `Placement` file: where the enemies of a new fight go.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Placement")]
pub struct PlacementCase {
    /// The case's name, for reports.
    pub id: String,
    /// The board.
    pub board: BoardIn,
    /// The heroes on it.
    pub heroes: Vec<HeroIn>,
    /// The enemy groups of the fight.
    pub groups: Vec<GroupIn>,
    /// The tile a normal fight is placed on.
    pub fight_tile: String,
    /// The fight starts as an ambush.
    pub ambush: bool,
    /// The ambush was triggered before any model moved this turn.
    pub triggered_before_anyone_moved: bool,
    /// The expected answer; `None` when the file only asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<PlacementExpect>,
}

/// The enemy that activates in a `Targeting` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActiveIn {
    /// Its name, unique among the file's models.
    pub name: String,
    /// The square it stands on.
    pub at: Sq,
    /// How its type acts.
    pub behaviour: Behaviour,
    /// Movement allowance in steps.
    #[serde(rename = "move")]
    pub move_points: u32,
    /// Attack range for the shooting behaviours (at least 1 for them); 0 and unused otherwise.
    pub range: u32,
    /// The hero it targeted before this activation, by name.
    pub current_target: Option<String>,
    /// Enemies of its type on the board, itself included.
    pub same_type_count: u32,
    /// Heroes already targeted this turn by other enemies of its type, by name.
    pub targeted_by_same_type: Vec<String>,
}

/// One expected outcome of a `Targeting` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeIn {
    /// Where the enemy ends.
    pub end: Sq,
    /// The heroes it attacks, sorted by name.
    pub targets: Vec<String>,
    /// The kind of attack.
    pub attack: Attack,
    /// Who settles that it is this outcome.
    pub chosen_by: ChosenBy,
}

/// The expected answer of a `Targeting` file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetingExpect {
    /// The enemy drops any current target and targets afresh.
    pub retarget: bool,
    /// Every allowed outcome.
    pub outcomes: Vec<OutcomeIn>,
}

/// A `Targeting` file: one enemy activates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Targeting")]
pub struct TargetingCase {
    /// The case's name, for reports.
    pub id: String,
    /// The board.
    pub board: BoardIn,
    /// The heroes on it.
    pub heroes: Vec<HeroIn>,
    /// The other enemies: they only block movement.
    pub enemies: Vec<EnemyIn>,
    /// The enemy that activates.
    pub active: ActiveIn,
    /// The Shootout retreat roll when it is known; `None` lists both results.
    pub retreat_roll: Option<u8>,
    /// The expected answer; `None` when the file only asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<TargetingExpect>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RollIn {
    kind: AttackKind,
    die: Die,
    to_hit: u32,
    to_hit_bonus: i32,
    combat: u32,
    shots: u32,
    weapon_combat: u32,
    extra_dice: i32,
    free: bool,
    free_attacks_used_this_turn: u32,
    in_own_activation: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetIn {
    name: String,
    wounds: u32,
    xp: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModifierIn {
    amount: i32,
    applies_to_splash: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct HitIn {
    model: String,
    roll: u32,
    kind: HitKind,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct AttackExpect {
    allowed: bool,
    target_number: u32,
    dice: u32,
    hits: Vec<String>,
    damage: Vec<(String, u32)>,
    killed: Vec<String>,
    xp: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename = "HeroAttack")]
pub(crate) struct HeroAttackCase {
    id: String,
    hero: String,
    attack: RollIn,
    targets: Vec<TargetIn>,
    damage_modifiers: Vec<ModifierIn>,
    damage_hits: Vec<HitIn>,
    #[serde(default)]
    expect: Option<AttackExpect>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct MemberIn {
    name: String,
    ally: bool,
    got_turn: bool,
    wounds: u32,
    sanity_damage: u32,
    grit: u32,
    max_grit: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
enum BreathIn {
    Heal { die: u32, healed: Vec<String> },
    Grit { gain: u32 },
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryIn {
    name: String,
    catch_breath: Vec<BreathIn>,
    loot: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename = "EndOfFight")]
pub(crate) struct EndOfFightCase {
    id: String,
    threat_cards: u32,
    party: Vec<MemberIn>,
    #[serde(default)]
    expect: Option<Vec<EntryIn>>,
}

/// Parses, validates and answers one Brimstone case file.
pub fn solve(file: &str, text: &str) -> Result<Answer, LoadError> {
    Ok(Parsed::parse(file, text)?.answer())
}

/// Validation errors, positioned at the first occurrence of a telling piece of text.
struct Check<'a> {
    file: &'a str,
    text: &'a str,
}

impl Check<'_> {
    fn err(&self, needle: &str, message: impl Into<String>) -> LoadError {
        LoadError::at_text(self.file, self.text, needle, message)
    }

    fn at_most(&self, field: &str, value: u32, max: u32) -> Result<(), LoadError> {
        if value > max {
            return Err(self.err(
                &format!("{field}:"),
                format!("`{field}` is {value}: expected at most {max}"),
            ));
        }
        Ok(())
    }

    fn count(&self, field: &str, len: usize, max: usize) -> Result<(), LoadError> {
        if len > max {
            return Err(self.err(
                &format!("{field}:"),
                format!("`{field}` lists {len} entries: expected at most {max}"),
            ));
        }
        Ok(())
    }

    fn board(&self, b: &BoardIn) -> Result<SquareBoard, LoadError> {
        SquareBoard::new(b.square_tiles(), &b.walls).map_err(|e| {
            let needle = match &e {
                crate::square::BoardError::WallOffTiles(_)
                | crate::square::BoardError::DuplicateWall(_) => "walls:",
                _ => "tiles:",
            };
            self.err(needle, e.to_string())
        })
    }

    /// Heroes on distinct board squares with distinct names; `taken` collects the squares.
    fn heroes(
        &self,
        board: &SquareBoard,
        heroes: &[HeroIn],
        taken: &mut BTreeMap<Square, String>,
    ) -> Result<Vec<Hero>, LoadError> {
        self.count("heroes", heroes.len(), MAX_HEROES)?;
        let mut out: Vec<Hero> = Vec::new();
        for h in heroes {
            if out.iter().any(|o| o.name == h.name) {
                return Err(self.err(
                    &format!("\"{}\"", h.name),
                    format!("hero `{}` is listed twice", h.name),
                ));
            }
            self.at_most("markers", h.markers, MAX_SMALL)?;
            self.place(board, &h.name, h.at, taken)?;
            out.push(Hero {
                name: h.name.clone(),
                at: h.at,
                markers: h.markers,
            });
        }
        Ok(out)
    }

    /// A model on a free board square.
    fn place(
        &self,
        board: &SquareBoard,
        name: &str,
        at: Sq,
        taken: &mut BTreeMap<Square, String>,
    ) -> Result<(), LoadError> {
        let needle = format!("\"{name}\"");
        if !board.contains(at) {
            return Err(self.err(
                &needle,
                format!(
                    "`{name}` stands on {}: expected a board square (on a tile, not a wall)",
                    square_name(at)
                ),
            ));
        }
        if let Some(other) = taken.insert(at, name.to_string()) {
            return Err(self.err(
                &needle,
                format!(
                    "`{name}` and `{other}` share {}: expected one model per square",
                    square_name(at)
                ),
            ));
        }
        Ok(())
    }

    fn hero_index(&self, heroes: &[Hero], name: &str, field: &str) -> Result<usize, LoadError> {
        heroes.iter().position(|h| h.name == name).ok_or_else(|| {
            self.err(
                &format!("{field}:"),
                format!("`{field}` names `{name}`: expected one of the heroes"),
            )
        })
    }

    fn fraction(&self, s: &str) -> Result<Fraction, LoadError> {
        parse_fraction(s).ok_or_else(|| {
            self.err(
                &format!("\"{s}\""),
                format!("`{s}`: expected a fraction \"a/b\" with whole numbers and b > 0"),
            )
        })
    }

    fn unique_names<'n>(&self, names: impl IntoIterator<Item = &'n str>) -> Result<(), LoadError> {
        let mut seen = BTreeSet::new();
        for n in names {
            if !seen.insert(n) {
                return Err(self.err(
                    &format!("\"{n}\""),
                    format!("the name `{n}` is used twice: expected distinct model names"),
                ));
            }
        }
        Ok(())
    }
}

/// `"a/b"` as an exact fraction.
pub(crate) fn parse_fraction(s: &str) -> Option<Fraction> {
    let (a, b) = s.split_once('/')?;
    let digits = |t: &str| !t.is_empty() && t.len() <= 30 && t.bytes().all(|c| c.is_ascii_digit());
    if !digits(a) || !digits(b) {
        return None;
    }
    let (a, b): (u128, u128) = (a.parse().ok()?, b.parse().ok()?);
    (b > 0).then(|| Fraction::new(a, b))
}

/// A fraction as the format writes it: `"0/1"`, `"1/1"`, `"3/8"`.
pub(crate) fn fraction_text(f: Fraction) -> String {
    format!("{}/{}", f.numerator(), f.denominator())
}

fn sq_json(s: Square) -> Value {
    json!([s.0, s.1])
}

fn verdict(diffs: Vec<String>) -> Result<(), String> {
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("; "))
    }
}

/// Differences between two sets, described with `show`.
fn set_diff<T: Ord>(
    got: &BTreeSet<T>,
    want: &BTreeSet<T>,
    what: &str,
    show: impl Fn(&T) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    for w in want.difference(got) {
        out.push(format!("missing {what} {}", show(w)));
    }
    for g in got.difference(want) {
        out.push(format!("unexpected {what} {}", show(g)));
    }
    out
}

fn trace_text(out: &mut String, trace: &[String]) {
    out.push_str("rule steps:\n");
    for line in trace {
        out.push_str("  - ");
        out.push_str(line);
        out.push('\n');
    }
}

// --- Placement ------------------------------------------------------------------------------------

struct PlacementInput {
    case: PlacementCase,
    board: SquareBoard,
    heroes: Vec<Hero>,
    groups: Vec<Group>,
    fight_tile: usize,
}

/// A layout compared as the format says: its pairs, its unplaced models, its `chosen_by`.
type LayoutKey = (BTreeSet<(String, Square)>, BTreeSet<String>, ChosenBy);

impl PlacementInput {
    fn parse(file: &str, text: &str) -> Result<Self, LoadError> {
        let case: PlacementCase = parse_ron(file, text)?;
        let c = Check { file, text };
        let board = c.board(&case.board)?;
        let mut taken = BTreeMap::new();
        let heroes = c.heroes(&board, &case.heroes, &mut taken)?;
        if heroes.is_empty() && case.ambush {
            return Err(c.err("heroes:", "an ambush needs at least one hero to fall on"));
        }
        c.count("groups", case.groups.len(), MAX_GROUPS)?;
        let models: usize = case.groups.iter().map(|g| g.models.len()).sum();
        if models > MAX_MODELS {
            return Err(c.err(
                "groups:",
                format!("{models} models: expected at most {MAX_MODELS}"),
            ));
        }
        c.unique_names(
            heroes.iter().map(|h| h.name.as_str()).chain(
                case.groups
                    .iter()
                    .flat_map(|g| g.models.iter().map(String::as_str)),
            ),
        )?;
        let mut groups = Vec::new();
        for g in &case.groups {
            if let Initiative::Fixed(n) = g.initiative {
                c.at_most("initiative", n, MAX_SMALL)?;
            }
            let ambushed_hero = match &g.ambushed_hero {
                Some(name) => {
                    if g.style == Style::Plain {
                        return Err(c.err(
                            "ambushed_hero:",
                            format!(
                                "group `{}` is Plain: expected `ambushed_hero: None`",
                                g.name
                            ),
                        ));
                    }
                    Some(c.hero_index(&heroes, name, "ambushed_hero")?)
                }
                None => None,
            };
            groups.push(Group {
                name: g.name.clone(),
                initiative: g.initiative,
                style: g.style,
                ambushed_hero,
                models: g.models.clone(),
            });
        }
        let fight_tile = board.tile_named(&case.fight_tile).ok_or_else(|| {
            c.err(
                "fight_tile:",
                format!(
                    "`fight_tile` is `{}`: expected the name of a tile",
                    case.fight_tile
                ),
            )
        })?;
        if let Some(e) = &case.expect {
            for l in &e.layouts {
                for (m, _) in &l.at {
                    if !groups.iter().any(|g| g.models.contains(m)) {
                        return Err(c.err(
                            &format!("\"{m}\""),
                            format!("expected layout names `{m}`, which is no model"),
                        ));
                    }
                }
            }
        }
        Ok(PlacementInput {
            case,
            board,
            heroes,
            groups,
            fight_tile,
        })
    }

    fn fight(&self) -> Fight<'_> {
        Fight {
            board: &self.board,
            heroes: &self.heroes,
            groups: &self.groups,
            fight_tile: self.fight_tile,
            ambush: self.case.ambush,
            triggered_before_anyone_moved: self.case.triggered_before_anyone_moved,
        }
    }

    fn answer(&self) -> Answer {
        self.answer_with(&placement::place(&self.fight()))
    }

    /// The answer written from a placement already worked out.
    fn answer_with(&self, placed: &Result<Placement, PlacementError>) -> Answer {
        let p = match placed {
            Ok(p) => p,
            Err(e) => {
                return Answer {
                    json: json!({"error": e.to_string()}),
                    text: format!("{} (Placement): {e}\n", self.case.id),
                    verdict: self.case.expect.as_ref().map(|_| Err(e.to_string())),
                };
            }
        };
        let layouts: Vec<Value> = p
            .layouts
            .options
            .iter()
            .map(|l| {
                let at: serde_json::Map<String, Value> =
                    l.at.iter().map(|(m, s)| (m.clone(), sq_json(*s))).collect();
                json!({"at": at, "unplaced": l.unplaced, "chosen_by": l.chosen_by.name()})
            })
            .collect();
        let json = json!({
            "initiative_bonus": p.initiative_bonus,
            "ends_turn": p.ends_turn,
            "layouts": layouts,
        });
        let mut text = format!(
            "{} (Placement, {}): initiative bonus {}, {}\n",
            self.case.id,
            if self.case.ambush { "ambush" } else { "normal" },
            p.initiative_bonus,
            if p.ends_turn {
                "ends the turn"
            } else {
                "the turn goes on"
            }
        );
        for l in &p.layouts.options {
            let at: Vec<String> =
                l.at.iter()
                    .map(|(m, s)| format!("{m} {}", square_name(*s)))
                    .collect();
            text.push_str(&format!("  {} — {}", l.chosen_by.name(), at.join(", ")));
            if !l.unplaced.is_empty() {
                text.push_str(&format!("; unplaced: {}", l.unplaced.join(", ")));
            }
            text.push('\n');
        }
        trace_text(&mut text, &p.layouts.trace);
        let verdict = self.case.expect.as_ref().map(|e| {
            let mut diffs = Vec::new();
            if e.initiative_bonus != p.initiative_bonus {
                diffs.push(format!(
                    "initiative_bonus: expected {}, got {}",
                    e.initiative_bonus, p.initiative_bonus
                ));
            }
            if e.ends_turn != p.ends_turn {
                diffs.push(format!(
                    "ends_turn: expected {}, got {}",
                    e.ends_turn, p.ends_turn
                ));
            }
            let got: BTreeSet<LayoutKey> = p
                .layouts
                .options
                .iter()
                .map(|l| {
                    (
                        l.at.iter().cloned().collect(),
                        l.unplaced.iter().cloned().collect(),
                        l.chosen_by,
                    )
                })
                .collect();
            let want: BTreeSet<LayoutKey> = e
                .layouts
                .iter()
                .map(|l| {
                    (
                        l.at.iter().cloned().collect(),
                        l.unplaced.iter().cloned().collect(),
                        l.chosen_by,
                    )
                })
                .collect();
            diffs.extend(set_diff(&got, &want, "layout", |(at, un, by)| {
                let at: Vec<String> = at
                    .iter()
                    .map(|(m, s)| format!("{m} {}", square_name(*s)))
                    .collect();
                let un: Vec<&str> = un.iter().map(String::as_str).collect();
                format!("[{}; unplaced {:?}; {}]", at.join(", "), un, by.name())
            }));
            verdict(diffs)
        });
        Answer {
            json,
            text,
            verdict,
        }
    }
}

// --- Targeting ------------------------------------------------------------------------------------

/// A `Targeting` file turned into the module's situation.
struct TargetingInput {
    case: TargetingCase,
    board: SquareBoard,
    heroes: Vec<Hero>,
    enemies: Vec<Square>,
    active: Active,
    retreat_roll: Option<u8>,
}

/// An outcome compared as the format says.
type OutcomeKey = (Square, BTreeSet<String>, Attack, ChosenBy);

impl TargetingInput {
    fn parse(file: &str, text: &str) -> Result<Self, LoadError> {
        let case: TargetingCase = parse_ron(file, text)?;
        let c = Check { file, text };
        let board = c.board(&case.board)?;
        let mut taken = BTreeMap::new();
        let heroes = c.heroes(&board, &case.heroes, &mut taken)?;
        c.count("enemies", case.enemies.len(), MAX_ENEMIES)?;
        c.unique_names(
            heroes
                .iter()
                .map(|h| h.name.as_str())
                .chain(case.enemies.iter().map(|e| e.name.as_str()))
                .chain([case.active.name.as_str()]),
        )?;
        for e in &case.enemies {
            c.place(&board, &e.name, e.at, &mut taken)?;
        }
        let a = &case.active;
        c.place(&board, &a.name, a.at, &mut taken)?;
        c.at_most("move", a.move_points, MAX_STEPS)?;
        c.at_most("range", a.range, MAX_STEPS)?;
        c.at_most("same_type_count", a.same_type_count, MAX_STEPS)?;
        if a.behaviour.shoots() && a.range == 0 {
            return Err(c.err(
                "range:",
                format!("{:?} needs `range` of at least 1", a.behaviour),
            ));
        }
        if a.same_type_count == 0 {
            return Err(c.err(
                "same_type_count:",
                "`same_type_count` counts the active enemy too: expected at least 1",
            ));
        }
        if let Some(r) = case.retreat_roll
            && !(1..=6).contains(&r)
        {
            return Err(c.err(
                "retreat_roll:",
                format!("`retreat_roll` is {r}: expected a D6 roll, 1 to 6"),
            ));
        }
        let current_target = match &a.current_target {
            Some(n) => Some(c.hero_index(&heroes, n, "current_target")?),
            None => None,
        };
        let targeted_by_same_type = a
            .targeted_by_same_type
            .iter()
            .map(|n| c.hero_index(&heroes, n, "targeted_by_same_type"))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(e) = &case.expect {
            for o in &e.outcomes {
                for t in &o.targets {
                    c.hero_index(&heroes, t, "targets")?;
                }
            }
        }
        Ok(TargetingInput {
            board,
            heroes,
            enemies: case.enemies.iter().map(|e| e.at).collect(),
            active: Active {
                name: a.name.clone(),
                at: a.at,
                behaviour: a.behaviour,
                move_points: a.move_points,
                range: a.range,
                current_target,
                same_type_count: a.same_type_count,
                targeted_by_same_type,
            },
            retreat_roll: case.retreat_roll,
            case,
        })
    }

    /// The situation the module's [`targeting::activate`] answers.
    fn situation(&self) -> Situation<'_> {
        Situation {
            board: &self.board,
            heroes: &self.heroes,
            enemies: &self.enemies,
            active: &self.active,
            retreat_roll: self.retreat_roll,
        }
    }

    fn answer(&self) -> Answer {
        self.answer_with(&targeting::activate(&self.situation()))
    }

    /// The answer written from an activation already worked out.
    fn answer_with(&self, act: &Activation) -> Answer {
        let outcomes: Vec<Value> = act
            .outcomes
            .options
            .iter()
            .map(|o| {
                json!({"end": sq_json(o.end), "targets": o.targets, "attack": o.attack.name(),
                       "chosen_by": o.chosen_by.name()})
            })
            .collect();
        let json = json!({"retarget": act.retarget, "outcomes": outcomes});
        let mut text = format!(
            "{} (Targeting): {} ({:?}), retarget: {}\n",
            self.case.id,
            self.active.name,
            self.active.behaviour,
            if act.retarget { "yes" } else { "no" }
        );
        for o in &act.outcomes.options {
            text.push_str(&format!(
                "  {} — ends on {}, {}\n",
                o.chosen_by.name(),
                square_name(o.end),
                if o.targets.is_empty() {
                    "no attack".to_string()
                } else {
                    format!("{} attack on {}", o.attack.name(), o.targets.join(", "))
                }
            ));
        }
        trace_text(&mut text, &act.outcomes.trace);
        let verdict = self.case.expect.as_ref().map(|e| {
            let mut diffs = Vec::new();
            if e.retarget != act.retarget {
                diffs.push(format!(
                    "retarget: expected {}, got {}",
                    e.retarget, act.retarget
                ));
            }
            let got: BTreeSet<OutcomeKey> = act
                .outcomes
                .options
                .iter()
                .map(|o| {
                    (
                        o.end,
                        o.targets.iter().cloned().collect(),
                        o.attack,
                        o.chosen_by,
                    )
                })
                .collect();
            let want: BTreeSet<OutcomeKey> = e
                .outcomes
                .iter()
                .map(|o| {
                    (
                        o.end,
                        o.targets.iter().cloned().collect(),
                        o.attack,
                        o.chosen_by,
                    )
                })
                .collect();
            diffs.extend(set_diff(&got, &want, "outcome", |(end, t, a, by)| {
                let t: Vec<&str> = t.iter().map(String::as_str).collect();
                format!("[{} {:?} {} {}]", square_name(*end), t, a.name(), by.name())
            }));
            verdict(diffs)
        });
        Answer {
            json,
            text,
            verdict,
        }
    }
}

// --- HeroAttack -----------------------------------------------------------------------------------

struct AttackInput {
    case: HeroAttackCase,
    roll: Roll,
    targets: Vec<Target>,
    modifiers: Vec<DamageModifier>,
    hits: Vec<DamageHit>,
    expect_hits: Vec<Fraction>,
}

impl AttackInput {
    fn parse(file: &str, text: &str) -> Result<Self, LoadError> {
        let case: HeroAttackCase = parse_ron(file, text)?;
        let c = Check { file, text };
        let a = &case.attack;
        for (field, v) in [
            ("to_hit", a.to_hit),
            ("combat", a.combat),
            ("shots", a.shots),
            ("weapon_combat", a.weapon_combat),
            ("free_attacks_used_this_turn", a.free_attacks_used_this_turn),
            ("to_hit_bonus", a.to_hit_bonus.unsigned_abs()),
            ("extra_dice", a.extra_dice.unsigned_abs()),
        ] {
            c.at_most(field, v, MAX_SMALL)?;
        }
        c.count("targets", case.targets.len(), MAX_ITEMS)?;
        c.count("damage_modifiers", case.damage_modifiers.len(), MAX_ITEMS)?;
        c.count("damage_hits", case.damage_hits.len(), MAX_ITEMS)?;
        c.unique_names(case.targets.iter().map(|t| t.name.as_str()))?;
        for t in &case.targets {
            c.at_most("wounds", t.wounds, MAX_LARGE)?;
            c.at_most("xp", t.xp, MAX_LARGE)?;
            if t.wounds == 0 {
                return Err(c.err(
                    "wounds:",
                    format!("`{}` has 0 wounds: expected at least 1", t.name),
                ));
            }
        }
        for m in &case.damage_modifiers {
            c.at_most("amount", m.amount.unsigned_abs(), MAX_SMALL)?;
        }
        let mut hits = Vec::new();
        for h in &case.damage_hits {
            c.at_most("roll", h.roll, MAX_SMALL)?;
            let target = case
                .targets
                .iter()
                .position(|t| t.name == h.model)
                .ok_or_else(|| {
                    c.err(
                        &format!("model: \"{}\"", h.model),
                        format!("damage hit on `{}`: expected one of the targets", h.model),
                    )
                })?;
            hits.push(DamageHit {
                target,
                roll: h.roll,
                kind: h.kind,
            });
        }
        let expect_hits = match &case.expect {
            Some(e) => e
                .hits
                .iter()
                .map(|s| c.fraction(s))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        Ok(AttackInput {
            roll: Roll {
                kind: a.kind,
                die: a.die,
                to_hit: a.to_hit,
                to_hit_bonus: a.to_hit_bonus,
                combat: a.combat,
                shots: a.shots,
                weapon_combat: a.weapon_combat,
                extra_dice: a.extra_dice,
                free: a.free,
                free_attacks_used_this_turn: a.free_attacks_used_this_turn,
                in_own_activation: a.in_own_activation,
            },
            targets: case
                .targets
                .iter()
                .map(|t| Target {
                    name: t.name.clone(),
                    wounds: t.wounds,
                    xp: t.xp,
                })
                .collect(),
            modifiers: case
                .damage_modifiers
                .iter()
                .map(|m| DamageModifier {
                    amount: m.amount,
                    applies_to_splash: m.applies_to_splash,
                })
                .collect(),
            hits,
            expect_hits,
            case,
        })
    }

    fn answer(&self) -> Answer {
        let r = attack::resolve(&self.roll, &self.targets, &self.modifiers, &self.hits);
        let hits: Vec<String> = r.hits.iter().map(|&f| fraction_text(f)).collect();
        let damage: serde_json::Map<String, Value> = r
            .damage
            .iter()
            .map(|(m, d)| (m.clone(), json!(d)))
            .collect();
        let json = json!({
            "allowed": r.allowed, "target_number": r.target_number, "dice": r.dice, "hits": hits,
            "damage": damage, "killed": r.killed, "xp": r.xp,
        });
        let mut text = format!(
            "{} (HeroAttack): {} {}; {}+ to hit, {} dice\n  hits 0..{}: {}\n",
            self.case.id,
            self.case.hero,
            if r.allowed {
                "attacks"
            } else {
                "may not attack"
            },
            r.target_number,
            r.dice,
            r.dice,
            hits.join(", ")
        );
        if !r.damage.is_empty() {
            let d: Vec<String> = r.damage.iter().map(|(m, d)| format!("{m} {d}")).collect();
            text.push_str(&format!("  damage: {}\n", d.join(", ")));
        }
        text.push_str(&format!(
            "  killed: {}; XP {}\n",
            if r.killed.is_empty() {
                "none".to_string()
            } else {
                r.killed.join(", ")
            },
            r.xp
        ));
        trace_text(&mut text, &r.trace);
        let verdict = self.case.expect.as_ref().map(|e| {
            let mut diffs = Vec::new();
            if e.allowed != r.allowed {
                diffs.push(format!(
                    "allowed: expected {}, got {}",
                    e.allowed, r.allowed
                ));
            }
            if e.target_number != r.target_number {
                diffs.push(format!(
                    "target_number: expected {}, got {}",
                    e.target_number, r.target_number
                ));
            }
            if e.dice != r.dice {
                diffs.push(format!("dice: expected {}, got {}", e.dice, r.dice));
            }
            if trim_zeros(&self.expect_hits) != trim_zeros(&r.hits) {
                diffs.push(format!("hits: expected {:?}, got {hits:?}", e.hits));
            }
            let want_damage: BTreeMap<&str, u32> =
                e.damage.iter().map(|(m, d)| (m.as_str(), *d)).collect();
            let got_damage: BTreeMap<&str, u32> =
                r.damage.iter().map(|(m, d)| (m.as_str(), *d)).collect();
            if want_damage != got_damage {
                diffs.push(format!(
                    "damage: expected {want_damage:?}, got {got_damage:?}"
                ));
            }
            let want_killed: BTreeSet<&str> = e.killed.iter().map(String::as_str).collect();
            let got_killed: BTreeSet<&str> = r.killed.iter().map(String::as_str).collect();
            if want_killed != got_killed {
                diffs.push(format!(
                    "killed: expected {want_killed:?}, got {got_killed:?}"
                ));
            }
            if e.xp != r.xp {
                diffs.push(format!("xp: expected {}, got {}", e.xp, r.xp));
            }
            verdict(diffs)
        });
        Answer {
            json,
            text,
            verdict,
        }
    }
}

/// A distribution without its trailing zero entries (section 8 ignores them).
fn trim_zeros(v: &[Fraction]) -> &[Fraction] {
    let end = v.iter().rposition(|f| !f.is_zero()).map_or(0, |i| i + 1);
    &v[..end]
}

// --- EndOfFight -----------------------------------------------------------------------------------

struct EndInput {
    case: EndOfFightCase,
    members: Vec<Member>,
    /// Expected entries with their fractions parsed.
    expect: Option<BTreeSet<EntryKey>>,
}

/// An option compared as the format says: `Heal` with its die and exact chances, or `Grit`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum OptionKey {
    Heal(u32, Vec<(u128, u128)>),
    Grit(u32),
}

type EntryKey = (String, BTreeSet<OptionKey>, u32);

fn option_key(b: &Breath) -> OptionKey {
    match b {
        Breath::Heal { die, healed } => heal_key(*die, healed),
        Breath::Grit { gain } => OptionKey::Grit(*gain),
    }
}

fn heal_key(die: u32, healed: &[Fraction]) -> OptionKey {
    OptionKey::Heal(
        die,
        healed
            .iter()
            .map(|f| (f.numerator(), f.denominator()))
            .collect(),
    )
}

impl EndInput {
    fn parse(file: &str, text: &str) -> Result<Self, LoadError> {
        let case: EndOfFightCase = parse_ron(file, text)?;
        let c = Check { file, text };
        c.at_most("threat_cards", case.threat_cards, MAX_SMALL)?;
        c.count("party", case.party.len(), MAX_HEROES)?;
        c.unique_names(case.party.iter().map(|m| m.name.as_str()))?;
        let mut members = Vec::new();
        for m in &case.party {
            c.at_most("wounds", m.wounds, MAX_LARGE)?;
            c.at_most("sanity_damage", m.sanity_damage, MAX_LARGE)?;
            c.at_most("grit", m.grit, MAX_SMALL)?;
            c.at_most("max_grit", m.max_grit, MAX_SMALL)?;
            members.push(Member {
                name: m.name.clone(),
                ally: m.ally,
                got_turn: m.got_turn,
                wounds: m.wounds,
                sanity_damage: m.sanity_damage,
                grit: m.grit,
                max_grit: m.max_grit,
            });
        }
        let expect = match &case.expect {
            Some(entries) => {
                let mut set = BTreeSet::new();
                for e in entries {
                    let mut options = BTreeSet::new();
                    for o in &e.catch_breath {
                        options.insert(match o {
                            BreathIn::Heal { die, healed } => {
                                let f = healed
                                    .iter()
                                    .map(|s| c.fraction(s))
                                    .collect::<Result<Vec<_>, _>>()?;
                                heal_key(*die, &f)
                            }
                            BreathIn::Grit { gain } => OptionKey::Grit(*gain),
                        });
                    }
                    set.insert((e.name.clone(), options, e.loot));
                }
                Some(set)
            }
            None => None,
        };
        Ok(EndInput {
            case,
            members,
            expect,
        })
    }

    fn answer(&self) -> Answer {
        let settled: Vec<_> = self
            .members
            .iter()
            .map(|m| end_of_fight::settle_member(m, self.case.threat_cards))
            .collect();
        let party: Vec<Value> = settled
            .iter()
            .map(|s| {
                let options: Vec<Value> = s
                    .catch_breath
                    .options
                    .iter()
                    .map(|o| match &o.option {
                        Breath::Heal { die, healed } => {
                            let h: Vec<String> = healed.iter().map(|&f| fraction_text(f)).collect();
                            json!({"option": "Heal", "die": die, "healed": h})
                        }
                        Breath::Grit { gain } => json!({"option": "Grit", "gain": gain}),
                    })
                    .collect();
                json!({"name": s.name, "loot": s.loot, "catch_breath": options})
            })
            .collect();
        let json = json!({ "party": party });
        let mut text = format!(
            "{} (EndOfFight): {} Threat card(s)\n",
            self.case.id, self.case.threat_cards
        );
        for s in &settled {
            let opts: Vec<String> = s
                .catch_breath
                .options
                .iter()
                .map(|o| match &o.option {
                    Breath::Heal { die, healed } => {
                        let h: Vec<String> = healed.iter().map(|&f| fraction_text(f)).collect();
                        format!("heal D{die} (healed 0..: {})", h.join(", "))
                    }
                    Breath::Grit { gain } => format!("recover {gain} Grit"),
                })
                .collect();
            text.push_str(&format!(
                "  {}: {}; loot {}\n",
                s.name,
                opts.join(" or "),
                s.loot
            ));
        }
        let trace: Vec<String> = settled
            .iter()
            .flat_map(|s| s.catch_breath.trace.iter().cloned())
            .collect();
        trace_text(&mut text, &trace);
        let verdict = self.expect.as_ref().map(|want| {
            let got: BTreeSet<EntryKey> = settled
                .iter()
                .map(|s| {
                    let options = s
                        .catch_breath
                        .options
                        .iter()
                        .map(|o| option_key(&o.option))
                        .collect();
                    (s.name.clone(), options, s.loot)
                })
                .collect();
            verdict(set_diff(&got, want, "party entry", |e| format!("{e:?}")))
        });
        Answer {
            json,
            text,
            verdict,
        }
    }
}

/// A parsed case of any kind, ready to be answered again without parsing.
pub struct Parsed(Kind);

enum Kind {
    Placement(Box<PlacementInput>),
    Targeting(Box<TargetingInput>),
    Attack(Box<AttackInput>),
    End(Box<EndInput>),
}

impl Parsed {
    /// Parses and validates a Brimstone case file.
    pub fn parse(file: &str, text: &str) -> Result<Parsed, LoadError> {
        Ok(Parsed(match top_level_name(text).map(|(_, n)| n) {
            Some("Placement") => Kind::Placement(Box::new(PlacementInput::parse(file, text)?)),
            Some("Targeting") => Kind::Targeting(Box::new(TargetingInput::parse(file, text)?)),
            Some("HeroAttack") => Kind::Attack(Box::new(AttackInput::parse(file, text)?)),
            Some("EndOfFight") => Kind::End(Box::new(EndInput::parse(file, text)?)),
            _ => {
                return Err(LoadError::whole(
                    file,
                    "expected a Brimstone case: `Placement`, `Targeting`, `HeroAttack` or `EndOfFight`",
                ));
            }
        }))
    }

    /// Runs only the rule stage of the case (no JSON, no words) and returns how many outcomes it
    /// allows: what the benchmark times.
    pub fn run_rules(&self) -> usize {
        match &self.0 {
            Kind::Placement(p) => {
                placement::place(&p.fight()).map_or(0, |p| p.layouts.options.len())
            }
            Kind::Targeting(t) => targeting::activate(&t.situation()).outcomes.options.len(),
            Kind::Attack(a) => attack::resolve(&a.roll, &a.targets, &a.modifiers, &a.hits)
                .hits
                .len(),
            Kind::End(e) => e
                .members
                .iter()
                .map(|m| {
                    end_of_fight::settle_member(m, e.case.threat_cards)
                        .catch_breath
                        .options
                        .len()
                })
                .sum(),
        }
    }

    /// Answers the case from its parsed situation.
    pub fn answer(&self) -> Answer {
        match &self.0 {
            Kind::Placement(p) => p.answer(),
            Kind::Targeting(t) => t.answer(),
            Kind::Attack(a) => a.answer(),
            Kind::End(e) => e.answer(),
        }
    }

    /// The answer together with what the rules worked out for a board case (`None` for the
    /// others), so that a board can be drawn from the very result the words were written from.
    pub(crate) fn answer_worked(&self) -> (Answer, Option<Worked>) {
        match &self.0 {
            Kind::Placement(p) => {
                let placed = placement::place(&p.fight());
                (p.answer_with(&placed), Some(Worked::Placement(placed)))
            }
            Kind::Targeting(t) => {
                let act = targeting::activate(&t.situation());
                (t.answer_with(&act), Some(Worked::Targeting(act)))
            }
            Kind::Attack(_) | Kind::End(_) => (self.answer(), None),
        }
    }

    /// The `Placement` file this case was read from, if it is one.
    pub fn placement(&self) -> Option<&PlacementCase> {
        match &self.0 {
            Kind::Placement(p) => Some(&p.case),
            _ => None,
        }
    }

    /// The `Targeting` file this case was read from, if it is one.
    pub fn targeting(&self) -> Option<&TargetingCase> {
        match &self.0 {
            Kind::Targeting(t) => Some(&t.case),
            _ => None,
        }
    }
}

/// What the rules worked out for a board case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Worked {
    /// Where a `Placement` case's enemies go, or why that could not be worked out.
    Placement(Result<Placement, PlacementError>),
    /// What a `Targeting` case's enemy does.
    Targeting(Activation),
}

#[cfg(test)]
impl Parsed {
    /// The situation of a `Targeting` case, for tests that walk it one pick at a time.
    pub(super) fn targeting_situation(&self) -> Option<Situation<'_>> {
        match &self.0 {
            Kind::Targeting(t) => Some(t.situation()),
            _ => None,
        }
    }

    /// The fight of a `Placement` case, for tests that walk it one pick at a time.
    pub(super) fn placement_fight(&self) -> Option<Fight<'_>> {
        match &self.0 {
            Kind::Placement(p) => Some(p.fight()),
            _ => None,
        }
    }
}
