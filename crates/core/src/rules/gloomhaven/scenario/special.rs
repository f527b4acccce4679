//! Special rules as data: what sets a rule off, what it does, and the checks of both.
//!
//! Triggers: a door opened, a round's start or end, a figure entering marked hexes, a monster
//! type's death, a room cleared. Effects: spawns, doors opened, closed or locked, overlays placed
//! or cleared, damage, healing or a condition on the figures of an area, a message, a changed goal,
//! a lost scenario.
//!
//! A rule fires when the step that set it off is over (a move, a monster's attack, the round's
//! end), in the order the file writes the rules, each firing a logged event naming its trigger;
//! what one rule does may set off others in the same step.

use serde::{Deserialize, Serialize};

use super::{Condition, Layout, MAX_NUMBER, MAX_ROUNDS, Rank, Scenario, Victory};
use crate::error::LoadError;
use crate::hex::Terrain;

/// A scenario holds at most this many special rules.
pub const MAX_RULES: usize = 32;
/// A special rule does at most this many things.
pub const MAX_EFFECTS: usize = 16;
/// A message is at most this many characters.
pub const MAX_MESSAGE: usize = 500;
/// One step sets off at most this many firings: rules that set each other off stop there.
pub(crate) const MAX_FIRINGS: usize = 64;

/// A special rule of a scenario: when `when` happens, `then` happens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialRule {
    /// Its name, for the log ("the sluice gate").
    pub name: String,
    /// What sets it off.
    pub when: Trigger,
    /// For a trigger of rounds: it fires again every this many rounds after the first (0: once).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub every: u32,
    /// For any other trigger: it fires each time, not only the first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeat: bool,
    /// What it does, in this order.
    pub then: Vec<RuleEffect>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl SpecialRule {
    /// Whether the rule's trigger or one of its effects names the mark letter `c`.
    pub fn names_mark(&self, c: char) -> bool {
        let area = |a: &Area| matches!(a, Area::Marked(x) if *x == c);
        matches!(self.when, Trigger::Enters(x) | Trigger::FoeEnters(x) if x == c)
            || self.then.iter().any(|e| match e {
                RuleEffect::Spawn { at, .. }
                | RuleEffect::Place { at, .. }
                | RuleEffect::Clear(at) => *at == c,
                RuleEffect::Damage { area: a, .. }
                | RuleEffect::Heal { area: a, .. }
                | RuleEffect::Give { area: a, .. } => area(a),
                _ => false,
            })
    }
}

/// What sets a special rule off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trigger {
    /// A door between the two rooms, written by their letters ("BC"), opens (by a character or a
    /// rule).
    DoorOpened(String),
    /// The round of this number starts (before the cards are chosen).
    RoundStarts(u32),
    /// The round of this number ends (after the round's clean-up, before the next starts).
    RoundEnds(u32),
    /// A character enters a hex marked with this letter (by walking onto it; a jump or flight
    /// enters only where it ends).
    Enters(char),
    /// A monster enters a hex marked with this letter, as `Enters` reads entering.
    FoeEnters(char),
    /// A monster of the named type dies.
    Dies(String),
    /// Every monster that came into the game in the room of this letter is dead (placed when the
    /// room was revealed, or spawned on its hexes); an empty room is cleared when revealed.
    RoomCleared(char),
}

impl Trigger {
    /// The trigger's kind, in the order of [`Trigger::KINDS`].
    pub const fn index(&self) -> usize {
        match self {
            Trigger::DoorOpened(_) => 0,
            Trigger::RoundStarts(_) => 1,
            Trigger::RoundEnds(_) => 2,
            Trigger::Enters(_) => 3,
            Trigger::FoeEnters(_) => 4,
            Trigger::Dies(_) => 5,
            Trigger::RoomCleared(_) => 6,
        }
    }

    /// The coverage name of the trigger's kind: "Special rule: door opened", …
    pub const fn kind(&self) -> &'static str {
        Self::KINDS[self.index()]
    }

    /// When it fires, in words: "at the start of round 3 and every 2 rounds after".
    pub fn words(&self, every: u32) -> String {
        let again = match every {
            0 => String::new(),
            1 => " and every round after".into(),
            n => format!(" and every {n} rounds after"),
        };
        let pair = |rooms: &str| {
            let l: Vec<String> = rooms.chars().map(|c| c.to_string()).collect();
            l.join(" and ")
        };
        match self {
            Trigger::DoorOpened(r) => format!("when the door between rooms {} opens", pair(r)),
            Trigger::RoundStarts(n) => format!("at the start of round {n}{again}"),
            Trigger::RoundEnds(n) => format!("at the end of round {n}{again}"),
            Trigger::Enters(c) => format!("when a character enters a hex marked {c}"),
            Trigger::FoeEnters(c) => format!("when a monster enters a hex marked {c}"),
            Trigger::Dies(t) => format!("when a {t} dies"),
            Trigger::RoomCleared(c) => format!("when room {c} is cleared"),
        }
    }

    /// Every trigger kind's coverage name.
    pub const KINDS: [&'static str; 7] = [
        "Special rule: door opened",
        "Special rule: round starts",
        "Special rule: round ends",
        "Special rule: character enters",
        "Special rule: monster enters",
        "Special rule: monster dies",
        "Special rule: room cleared",
    ];
}

/// Where an effect on figures reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Area {
    /// The hexes marked with this letter.
    Marked(char),
    /// The room of this letter.
    Room(char),
    /// The whole board.
    Everywhere,
}

/// Which figures an effect reaches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// The characters and their summons.
    #[default]
    Characters,
    /// The monsters.
    Monsters,
    /// Every figure.
    Everyone,
}

/// What a special rule does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum RuleEffect {
    /// A monster of the type on each hex marked `at` (in a revealed room), or on the nearest
    /// empty hex when a figure stands there, while the type has a standee left: normal, or as
    /// `players` says for two, three and four characters. It acts this round if its type's
    /// initiative is still to come.
    Spawn {
        /// The monster type.
        monster: String,
        /// The letter of the marked hexes.
        at: char,
        /// What stands there for two, three and four characters; normal for every number when
        /// absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        players: Option<[Rank; 3]>,
    },
    /// The doors between the two rooms ("BC") open, and the rooms behind them are revealed; a
    /// locked one is unlocked.
    OpenDoor(String),
    /// The doors between the two rooms close (a door a figure stands in stays open); a character
    /// may open them again.
    CloseDoor(String),
    /// The doors between the two rooms close and lock: only a rule opens them again.
    LockDoor(String),
    /// The terrain on each hex marked `at` where no figure stands: an obstacle, trap, hazardous,
    /// difficult or icy terrain.
    Place {
        /// The terrain placed.
        terrain: Terrain,
        /// The letter of the marked hexes.
        at: char,
    },
    /// The hexes marked with this letter become plain floor (a wall stays).
    Clear(char),
    /// Each figure of `figures` in `area` suffers this much damage (no shield).
    Damage {
        /// The damage.
        amount: u32,
        /// Where.
        area: Area,
        /// Whom.
        #[serde(default)]
        figures: Side,
    },
    /// Each figure of `figures` in `area` heals this much.
    Heal {
        /// The healing.
        amount: u32,
        /// Where.
        area: Area,
        /// Whom.
        #[serde(default)]
        figures: Side,
    },
    /// Each figure of `figures` in `area` gains the condition.
    Give {
        /// The condition.
        condition: Condition,
        /// Where.
        area: Area,
        /// Whom.
        #[serde(default)]
        figures: Side,
    },
    /// A message to the players, in the log.
    Message(String),
    /// The goal becomes this one.
    Goal(Victory),
    /// The heroes lose, for this reason.
    Lose(String),
}

/// The terrains a rule may place.
const OVERLAYS: [Terrain; 5] = [
    Terrain::Obstacle,
    Terrain::Trap,
    Terrain::Hazard,
    Terrain::Difficult,
    Terrain::Icy,
];

/// The rooms of `layout` a two-letter door reference names, when both are rooms.
fn door_rooms(layout: &Layout, rooms: &str) -> Option<[usize; 2]> {
    let letters: Vec<char> = rooms.chars().collect();
    let [a, b] = letters[..] else {
        return None;
    };
    let index = |c: char| layout.rooms.iter().position(|r| r.letter == c);
    let (mut a, mut b) = (index(a)?, index(b)?);
    if a > b {
        std::mem::swap(&mut a, &mut b);
    }
    Some([a, b])
}

/// The doors of `layout` between the two rooms a reference names, by index.
pub(crate) fn doors_between(layout: &Layout, rooms: &str) -> Vec<usize> {
    let Some(pair) = door_rooms(layout, rooms) else {
        return Vec::new();
    };
    (0..layout.doors.len())
        .filter(|&d| layout.doors[d].rooms == pair)
        .collect()
}

impl Scenario {
    /// Checks the special rules against the map: every door, room, mark and monster type they
    /// name exists, every number is in bounds, and every trigger can fire.
    pub(in crate::rules::gloomhaven) fn check_special_rules(
        &self,
        file: &str,
        text: &str,
        layout: &Layout,
        placeable: &dyn Fn(usize) -> bool,
    ) -> Result<(), LoadError> {
        let at = |needle: &str, msg: String| LoadError::at_text(file, text, needle, msg);
        if self.special_rules.len() > MAX_RULES {
            return Err(at(
                "special_rules:",
                format!(
                    "special_rules: {} rules: expected at most {MAX_RULES}",
                    self.special_rules.len()
                ),
            ));
        }
        let room = |c: char| layout.rooms.iter().any(|r| r.letter == c && c != ' ');
        let door = |rooms: &str, what: &str| -> Result<(), LoadError> {
            if self.rooms.is_empty() {
                return Err(at(
                    &format!("\"{rooms}\""),
                    format!(
                        "special_rules: {what}({rooms:?}) names a door, but the scenario draws no rooms"
                    ),
                ));
            }
            if doors_between(layout, rooms).is_empty() {
                return Err(at(
                    &format!("\"{rooms}\""),
                    format!(
                        "special_rules: {what}({rooms:?}): no door joins {}: write the letters of the two rooms a door joins",
                        if rooms.chars().count() == 2 {
                            "those two rooms"
                        } else {
                            "anything named so"
                        }
                    ),
                ));
            }
            Ok(())
        };
        let mark = |c: char, what: &str| -> Result<(), LoadError> {
            if layout.marks.contains_key(&c) {
                Ok(())
            } else {
                Err(at(
                    &format!("'{c}'"),
                    format!("special_rules: {what}: no hex is marked {c:?} in `marks`"),
                ))
            }
        };
        let rounds = |n: u32, what: &str| -> Result<(), LoadError> {
            if n == 0 || n as i64 > MAX_ROUNDS {
                return Err(at(
                    &format!("{what}({n})"),
                    format!(
                        "special_rules: {what}({n}): expected a round from 1 to {}",
                        MAX_ROUNDS
                    ),
                ));
            }
            let last = self.round_limit.or(match self.victory {
                Victory::Survive(r) | Victory::Protect(r) => Some(r),
                _ => None,
            });
            match last {
                Some(l) if n > l => Err(at(
                    &format!("{what}({n})"),
                    format!(
                        "special_rules: {what}({n}) can never fire: the scenario ends with round {l}"
                    ),
                )),
                _ => Ok(()),
            }
        };
        let area = |a: &Area| -> Result<(), LoadError> {
            match *a {
                Area::Marked(c) => mark(c, "Marked"),
                Area::Room(c) if !room(c) => Err(at(
                    &format!("Room('{c}')"),
                    format!("special_rules: Room({c:?}): no room is drawn with {c:?}"),
                )),
                _ => Ok(()),
            }
        };
        for r in &self.special_rules {
            let name = format!("\"{}\"", r.name);
            if r.name.trim().is_empty() || r.name.chars().count() > 80 {
                return Err(at(
                    "name:",
                    "special_rules: every rule needs a name of 1 to 80 characters".into(),
                ));
            }
            let rounds_kind = matches!(r.when, Trigger::RoundStarts(_) | Trigger::RoundEnds(_));
            if r.every > 0 && !rounds_kind {
                return Err(at(
                    &name,
                    format!(
                        "special_rules: {}: `every` repeats a trigger of rounds; write `repeat: true` to fire each time",
                        r.name
                    ),
                ));
            }
            if r.repeat && matches!(r.when, Trigger::RoomCleared(_)) {
                return Err(at(
                    &name,
                    format!(
                        "special_rules: {}: a room is cleared once: `repeat` cannot fire it again",
                        r.name
                    ),
                ));
            }
            if r.repeat && rounds_kind {
                return Err(at(
                    &name,
                    format!(
                        "special_rules: {}: a trigger of rounds repeats with `every: N` (rounds between firings)",
                        r.name
                    ),
                ));
            }
            if r.every as i64 > MAX_ROUNDS {
                return Err(at(
                    "every:",
                    format!(
                        "special_rules: {}: `every` is {}: expected at most {}",
                        r.name, r.every, MAX_ROUNDS
                    ),
                ));
            }
            if r.then.is_empty() || r.then.len() > MAX_EFFECTS {
                return Err(at(
                    &name,
                    format!(
                        "special_rules: {}: `then` lists {} effects: expected 1 to {MAX_EFFECTS}",
                        r.name,
                        r.then.len()
                    ),
                ));
            }
            match &r.when {
                Trigger::DoorOpened(rooms) => door(rooms, "DoorOpened")?,
                Trigger::RoundStarts(n) => rounds(*n, "RoundStarts")?,
                Trigger::RoundEnds(n) => rounds(*n, "RoundEnds")?,
                Trigger::Enters(c) | Trigger::FoeEnters(c) => {
                    mark(*c, "Enters")?;
                    let walkable = layout.marks[c].iter().any(|h| {
                        layout
                            .map_terrain(*h)
                            .is_some_and(|t| !matches!(t, Terrain::Wall | Terrain::Obstacle))
                    });
                    if !walkable {
                        return Err(at(
                            &format!("'{c}'"),
                            format!(
                                "special_rules: Enters({c:?}) can never fire: every hex marked {c:?} is a wall or an obstacle"
                            ),
                        ));
                    }
                }
                Trigger::Dies(t) => match self.monster_index(t) {
                    None => {
                        return Err(at(
                            &format!("\"{t}\""),
                            format!("special_rules: Dies({t:?}) names an unknown monster type"),
                        ));
                    }
                    Some(k) if !placeable(k) => {
                        return Err(at(
                            &format!("\"{t}\""),
                            format!(
                                "special_rules: Dies({t:?}) can never fire: no {t} is placed on the map or spawned"
                            ),
                        ));
                    }
                    Some(_) => {}
                },
                Trigger::RoomCleared(c) => {
                    if !room(*c) {
                        return Err(at(
                            &format!("RoomCleared('{c}')"),
                            format!(
                                "special_rules: RoomCleared({c:?}): no room is drawn with {c:?}"
                            ),
                        ));
                    }
                }
            }
            for e in &r.then {
                match e {
                    RuleEffect::Spawn { monster, at: c, .. } => {
                        if self.monster_index(monster).is_none() {
                            return Err(at(
                                &format!("\"{monster}\""),
                                format!(
                                    "special_rules: Spawn of {monster:?}: unknown monster type"
                                ),
                            ));
                        }
                        mark(*c, "Spawn")?;
                    }
                    RuleEffect::OpenDoor(d) => door(d, "OpenDoor")?,
                    RuleEffect::CloseDoor(d) => door(d, "CloseDoor")?,
                    RuleEffect::LockDoor(d) => door(d, "LockDoor")?,
                    RuleEffect::Place { terrain, at: c } => {
                        if !OVERLAYS.contains(terrain) {
                            return Err(at(
                                "Place(",
                                format!(
                                    "special_rules: Place of {terrain:?}: expected Obstacle, Trap, Hazard, Difficult or Icy"
                                ),
                            ));
                        }
                        mark(*c, "Place")?;
                    }
                    RuleEffect::Clear(c) => mark(*c, "Clear")?,
                    RuleEffect::Damage {
                        amount, area: a, ..
                    }
                    | RuleEffect::Heal {
                        amount, area: a, ..
                    } => {
                        if *amount == 0 || *amount as i64 > MAX_NUMBER {
                            return Err(at(
                                "amount:",
                                format!(
                                    "special_rules: an amount of {amount}: expected 1 to {}",
                                    MAX_NUMBER
                                ),
                            ));
                        }
                        area(a)?;
                    }
                    RuleEffect::Give { area: a, .. } => area(a)?,
                    RuleEffect::Message(m) | RuleEffect::Lose(m) => {
                        let (field, what) = match e {
                            RuleEffect::Lose(_) => ("Lose(", "Lose needs a reason"),
                            _ => ("Message(", "a message"),
                        };
                        if m.trim().is_empty() || m.chars().count() > MAX_MESSAGE {
                            return Err(at(
                                field,
                                format!("special_rules: {what} of 1 to {MAX_MESSAGE} characters"),
                            ));
                        }
                    }
                    RuleEffect::Goal(v) => {
                        let mut changed = self.clone();
                        changed.victory = v.clone();
                        changed.check_goal(file, text, layout)?;
                    }
                }
            }
        }
        Ok(())
    }
}
