//! What a scenario file says that loads and plays but is most likely a slip: a room no door leads
//! to, a monster type nothing places, a special rule that can never fire.
//!
//! An error stops a file; a warning does not (the scenario plays as written), so it is told beside
//! the file (`foehold check`, the workshop's list) with the same `file:line:column` as an error.

use std::collections::BTreeSet;

use super::special::Trigger;
use super::{Layout, Rank, Scenario, grid_char_position};
use crate::error::LoadError;
use crate::hex::Terrain;

impl Scenario {
    /// The warnings of a scenario already read and checked from `text` (its `layout` read from
    /// it too); `inline`: how many of its monster types the file writes itself.
    pub(crate) fn warnings(
        &self,
        file: &str,
        text: &str,
        layout: &Layout,
        inline: usize,
    ) -> Vec<LoadError> {
        let at = |needle: &str, msg: String| LoadError::at_text(file, text, needle, msg);
        let mut out = Vec::new();
        let seen = revealable(layout);
        // Rooms no chain of doors from the first room reaches: nothing in them ever plays.
        for (i, room) in layout.rooms.iter().enumerate() {
            if seen.contains(&i) {
                continue;
            }
            let place = self
                .rooms
                .iter()
                .enumerate()
                .find_map(|(row, line)| {
                    line.chars()
                        .position(|c| c == room.letter)
                        .map(|col| (row, col))
                })
                .map_or_else(
                    || LoadError::whole(file, ""),
                    |(row, col)| {
                        grid_char_position(file, text, "rooms:", row, col).with(String::new())
                    },
                );
            let name = if self.room_names.contains_key(&room.letter) {
                format!("{} ({:?})", room.name, room.letter)
            } else {
                room.name.clone()
            };
            out.push(LoadError {
                message: format!(
                    "rooms: {name} is never revealed: no door leads to it from the first room"
                ),
                ..place
            });
        }
        // Spots where nothing stands for any number of characters, and letters no spot uses.
        let on_map = |c: &char| self.map.iter().any(|row| row.contains(*c));
        for (c, p) in &self.legend {
            if !on_map(c) {
                out.push(at(
                    &format!("'{c}'"),
                    format!("legend: {c:?} ({}) stands nowhere on the map", p.monster),
                ));
            } else if (2..=4).all(|n| p.rank(n) == Rank::Absent) {
                out.push(at(
                    &format!("'{c}'"),
                    format!(
                        "legend: {c:?} is absent for 2, 3 and 4 characters: no {} ever stands there",
                        p.monster
                    ),
                ));
            }
        }
        // Monster types the file writes that nothing brings onto the board (those of the library
        // are copied in only when named, so they are used).
        for m in &self.monsters[..inline.min(self.monsters.len())] {
            let named = self
                .legend
                .iter()
                .any(|(c, p)| p.monster == m.name && on_map(c))
                || self.monsters.iter().any(|o| o.spawns().any(|n| *n == m.name))
                || self.special_rules.iter().flat_map(|r| &r.then).any(|e| {
                    matches!(e, super::special::RuleEffect::Spawn { monster, .. } if *monster == m.name)
                });
            if !named {
                out.push(at(
                    &format!("\"{}\"", m.name),
                    format!(
                        "monsters: {} is written but nothing places or spawns it",
                        m.name
                    ),
                ));
            }
        }
        // Special rules whose trigger lies only where the game never goes.
        let hidden = |i: usize| !seen.contains(&i);
        for r in &self.special_rules {
            let why = match &r.when {
                Trigger::Enters(c) | Trigger::FoeEnters(c) => {
                    let open = layout.marks.get(c).into_iter().flatten().any(|h| {
                        layout.room_of(*h).is_none_or(|i| !hidden(i))
                            && layout
                                .map_terrain(*h)
                                .is_none_or(|t| !matches!(t, Terrain::Wall | Terrain::Obstacle))
                    });
                    (!open).then(|| format!("every hex marked {c:?} lies in a room never revealed"))
                }
                Trigger::DoorOpened(rooms) => {
                    let letters: Vec<char> = rooms.chars().collect();
                    let shut = layout.doors.iter().all(|d| {
                        let joins = d.rooms.map(|i| layout.rooms[i].letter);
                        !(letters.contains(&joins[0]) && letters.contains(&joins[1]))
                            || d.rooms.iter().all(|&i| hidden(i))
                    });
                    shut.then(|| format!("the door {rooms} joins rooms never revealed"))
                }
                Trigger::RoomCleared(c) => layout
                    .rooms
                    .iter()
                    .position(|room| room.letter == *c)
                    .filter(|&i| hidden(i))
                    .map(|_| format!("room {c:?} is never revealed")),
                Trigger::Dies(t) => {
                    let placed =
                        layout
                            .monsters
                            .iter()
                            .zip(&layout.monster_rooms)
                            .any(|((_, c), &room)| {
                                !hidden(room)
                                    && self.legend.get(c).is_some_and(|p| {
                                        p.monster == *t
                                            && (2..=4).any(|n| p.rank(n) != Rank::Absent)
                                    })
                            });
                    let spawned = self.monsters.iter().any(|m| m.spawns().any(|n| n == t))
                        || self.special_rules.iter().flat_map(|r| &r.then).any(|e| {
                            matches!(e, super::special::RuleEffect::Spawn { monster, .. } if monster == t)
                        });
                    (!placed && !spawned)
                        .then(|| format!("every {t} stands in a room never revealed"))
                }
                Trigger::RoundStarts(_) | Trigger::RoundEnds(_) => None,
            };
            if let Some(why) = why {
                out.push(at(
                    &format!("\"{}\"", r.name),
                    format!("special_rules: \"{}\" can never fire: {why}", r.name),
                ));
            }
        }
        out
    }
}

/// The rooms a game can reveal: the first, and every room a chain of doors from it reaches (a
/// locked door too, which a rule may open).
fn revealable(layout: &Layout) -> BTreeSet<usize> {
    let mut seen = BTreeSet::from([layout.start_room]);
    loop {
        let before = seen.len();
        for d in &layout.doors {
            if d.rooms.iter().any(|i| seen.contains(i)) {
                seen.extend(d.rooms);
            }
        }
        if seen.len() == before {
            return seen;
        }
    }
}
