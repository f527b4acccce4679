//! Rooms behind doors: a character opens a door by entering it, and the rooms behind it are
//! revealed with their monsters, placed for the party's size.
//!
//! A room not revealed is not on the board at all, so no rule sees it (focus, paths, sight, areas,
//! the lab's moments); a closed door stands on the board as a wall hex, which monsters and summons
//! treat as one, and only a character's move may enter (`heroes.rs`).

use super::actions::Event;
use super::scenario::{Layout, Rank, add_thin_walls, board_of};
use super::state::{Actor, Phase, State};
use crate::hex::{Hex, Terrain, qr};
use crate::modifiers::attack::Origin;

impl State {
    /// Closed door `d` opens (entered by character `hero`, or by a special rule), and the rooms
    /// it leads to are revealed.
    pub(super) fn open_door(&mut self, d: usize, hero: Option<usize>, ev: &mut Vec<Event>) {
        let Ok(layout) = self.scenario.layout("scenario", "") else {
            return;
        };
        let Some(door) = layout.doors.get(d).copied() else {
            return;
        };
        self.doors[d].open = true;
        let _ = self.map.0.set_terrain(door.hex, Terrain::Floor);
        ev.push(Event::DoorOpened { door: d, hero });
        for r in door.rooms {
            if !self.revealed.get(r).copied().unwrap_or(true) {
                self.reveal_room(&layout, r, ev);
            }
        }
    }

    /// Puts room `r` on the board with its doors and monsters; monsters of a type that has no
    /// ability card this round draw one and join the turn order if their initiative is still to
    /// come.
    fn reveal_room(&mut self, layout: &Layout, r: usize, ev: &mut Vec<Event>) {
        self.revealed[r] = true;
        let room = &layout.rooms[r];
        let board = &self.map.0;
        let mut hexes: Vec<(Hex, Terrain)> = board
            .hexes()
            .iter()
            .filter_map(|&h| board.terrain(h).map(|t| (h, t)))
            .collect();
        hexes.extend(room.hexes.iter().filter(|(h, _)| !board.contains(*h)));
        for (i, d) in layout.doors.iter().enumerate() {
            if d.rooms.contains(&r) && !board.contains(d.hex) {
                let t = if self.doors[i].open {
                    Terrain::Floor
                } else {
                    Terrain::Wall
                };
                hexes.push((d.hex, t));
            }
        }
        // The scenario was checked whole when read: its parts build a board too.
        let Ok(mut map) = board_of(&hexes) else {
            return;
        };
        add_thin_walls(&mut map, &self.scenario.thin_walls);
        self.map.0 = map;

        // Its monsters, for the party's size: elites first, then by hex, each type numbered on.
        let characters = self.heroes.len();
        let mut placed: Vec<(usize, bool, Hex)> = layout
            .monsters
            .iter()
            .zip(&layout.monster_rooms)
            .filter(|(_, room)| **room == r)
            .filter_map(|((h, letter), _)| {
                let p = self.scenario.legend.get(letter)?;
                let kind = self.scenario.monster_index(&p.monster)?;
                match p.rank(characters) {
                    Rank::Absent => None,
                    Rank::Normal => Some((kind, false, *h)),
                    Rank::Elite => Some((kind, true, *h)),
                }
            })
            .collect();
        placed.sort_by_key(|&(kind, elite, h)| (kind, !elite, qr(h)));
        let mut ids = Vec::new();
        for (kind, elite, h) in placed {
            if self.monsters.len() >= super::actions::MAX_MONSTERS {
                break;
            }
            let id = self.add_monster(kind, elite, h, Origin::Placed);
            if !self.scenario.special_rules.is_empty() {
                self.monsters[id].room = Some(r);
            }
            ids.push(id);
        }
        ev.push(Event::RoomRevealed {
            room: r,
            name: room.name.clone(),
            monsters: ids.clone(),
        });
        self.join_the_round(&ids, ev);
    }

    /// Monsters revealed during a round: a type without an ability card this round draws one, and
    /// acts in its place in the turn order if that place is still to come (else from next round).
    pub(super) fn join_the_round(&mut self, ids: &[usize], ev: &mut Vec<Event>) {
        if !matches!(
            self.phase,
            Phase::HeroTurn { .. } | Phase::FoeTurn { .. } | Phase::SummonTurn { .. }
        ) {
            return;
        }
        let mut kinds: Vec<usize> = ids.iter().map(|&m| self.monsters[m].kind).collect();
        kinds.sort_unstable();
        kinds.dedup();
        let now = self.order.get(self.turn).map(|&a| self.order_key(a));
        let mut joined = false;
        for k in kinds {
            if self.order.contains(&Actor::Monsters(k)) || !self.draw_ability(k, ev) {
                continue;
            }
            let key = self.order_key(Actor::Monsters(k));
            // An initiative already passed: the type waits for the next round.
            if now.is_some_and(|n| key <= n) {
                continue;
            }
            let at = (self.turn + 1..self.order.len())
                .find(|&j| self.order_key(self.order[j]) > key)
                .unwrap_or(self.order.len());
            self.order.insert(at, Actor::Monsters(k));
            joined = true;
        }
        if joined {
            ev.push(Event::TurnOrder {
                order: self.order.clone(),
            });
        }
    }
}
