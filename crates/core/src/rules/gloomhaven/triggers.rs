//! Special rules at play: finding what a step set off (from its events, the hexes entered and
//! the rooms cleared) and doing what each rule fired does.

use super::actions::{Cause, Event, MAX_MONSTERS};
use super::scenario::special::{MAX_FIRINGS, doors_between};
use super::scenario::{Area, Condition, Layout, Rank, RuleEffect, Side, Trigger};
use super::state::{FigureId, State};
use crate::hex::{Hex, Terrain, qr, step};
use crate::modifiers::attack::Origin;

impl State {
    /// Fires the special rules this step set off (`ev` holds its events), then those their
    /// effects set off, until none is left or the game is over.
    pub(super) fn run_special_rules(&mut self, ev: &mut Vec<Event>) {
        if self.scenario.special_rules.is_empty() {
            return;
        }
        let Ok(layout) = self.scenario.layout("scenario", "") else {
            return;
        };
        let mut seen = 0;
        let mut firings = 0;
        loop {
            if self.phase.is_over() {
                return;
            }
            let mut due: Vec<(usize, Option<FigureId>)> = Vec::new();
            for e in &ev[seen..] {
                self.set_off_by(e, &layout, &mut due);
            }
            seen = ev.len();
            for (f, h) in std::mem::take(&mut self.stepped) {
                let hero = matches!(f, FigureId::Hero(_) | FigureId::Summon(_));
                for (r, rule) in self.scenario.special_rules.iter().enumerate() {
                    let c = match rule.when {
                        Trigger::Enters(c) if hero => c,
                        Trigger::FoeEnters(c) if !hero => c,
                        _ => continue,
                    };
                    if layout.marks.get(&c).is_some_and(|hs| hs.contains(&h)) {
                        due.push((r, Some(f)));
                    }
                }
            }
            for (r, rule) in self.scenario.special_rules.iter().enumerate() {
                if let Trigger::RoomCleared(c) = rule.when
                    && self.fired[r] == 0
                    && self.room_cleared(&layout, c)
                {
                    due.push((r, None));
                }
            }
            if due.is_empty() {
                return;
            }
            for (r, by) in due {
                if self.phase.is_over() || firings >= MAX_FIRINGS {
                    return;
                }
                let rule = &self.scenario.special_rules[r];
                if self.fired[r] > 0 && !rule.repeat && rule.every == 0 {
                    continue;
                }
                firings += 1;
                self.fired[r] += 1;
                ev.push(Event::SpecialRule { rule: r, by });
                let effects = rule.then.clone();
                for e in &effects {
                    self.rule_effect(r, e, &layout, ev);
                    if self.phase.is_over() {
                        return;
                    }
                }
            }
        }
    }

    /// The rules event `e` sets off, with the figure that set each off.
    fn set_off_by(&self, e: &Event, layout: &Layout, due: &mut Vec<(usize, Option<FigureId>)>) {
        for (r, rule) in self.scenario.special_rules.iter().enumerate() {
            let hit = match (&rule.when, e) {
                (Trigger::DoorOpened(rooms), Event::DoorOpened { door, hero }) => {
                    if doors_between(layout, rooms).contains(door) {
                        due.push((r, hero.map(FigureId::Hero)));
                    }
                    continue;
                }
                (Trigger::RoundStarts(n), Event::RoundStarted { round })
                | (Trigger::RoundEnds(n), Event::RoundEnded { round }) => {
                    in_rounds(*round, *n, rule.every)
                }
                (
                    Trigger::Dies(t),
                    Event::FigureDied {
                        figure: FigureId::Monster(m),
                        ..
                    },
                ) => {
                    if self.scenario.monsters[self.monsters[*m].kind].name == *t {
                        due.push((r, Some(FigureId::Monster(*m))));
                    }
                    continue;
                }
                _ => false,
            };
            if hit {
                due.push((r, None));
            }
        }
    }

    /// Whether the room of letter `c` is revealed and every monster that came into the game in
    /// it is dead.
    fn room_cleared(&self, layout: &Layout, c: char) -> bool {
        let Some(r) = layout.rooms.iter().position(|x| x.letter == c) else {
            return false;
        };
        self.revealed.get(r).copied().unwrap_or(true)
            && !self.monsters.iter().any(|m| m.alive && m.room == Some(r))
    }

    /// Does one effect of rule `r`.
    fn rule_effect(&mut self, r: usize, e: &RuleEffect, layout: &Layout, ev: &mut Vec<Event>) {
        let marked = |c: char| layout.marks.get(&c).cloned().unwrap_or_default();
        match e {
            RuleEffect::Spawn {
                monster,
                at,
                players,
            } => {
                let Some(kind) = self.scenario.monster_index(monster) else {
                    return;
                };
                let rank = players.map_or(Rank::Normal, |p| p[self.heroes.len().clamp(2, 4) - 2]);
                if rank == Rank::Absent {
                    return;
                }
                let mut ids = Vec::new();
                for h in marked(*at) {
                    let standing = self
                        .monsters
                        .iter()
                        .filter(|x| x.alive && x.kind == kind)
                        .count();
                    if standing >= self.scenario.monsters[kind].standees as usize
                        || self.monsters.len() >= MAX_MONSTERS
                    {
                        break;
                    }
                    let Some(hex) = self.nearest_empty(h) else {
                        continue;
                    };
                    let id = self.add_monster(kind, rank == Rank::Elite, hex, Origin::Spawned);
                    // A monster a rule brings acts this round when its initiative is to come.
                    self.monsters[id].arrived = 0;
                    self.monsters[id].room = layout.room_of(hex);
                    ev.push(Event::RuleSpawned {
                        monster: id,
                        rule: r,
                        hex,
                    });
                    ids.push(id);
                }
                self.join_the_round(&ids, ev);
            }
            RuleEffect::OpenDoor(rooms) => {
                for d in doors_between(layout, rooms) {
                    self.doors[d].locked = false;
                    if !self.doors[d].open {
                        self.open_door(d, None, ev);
                    }
                }
            }
            RuleEffect::CloseDoor(rooms) | RuleEffect::LockDoor(rooms) => {
                let lock = matches!(e, RuleEffect::LockDoor(_));
                for d in doors_between(layout, rooms) {
                    let h = self.doors[d].hex;
                    if !self.map.0.contains(h) {
                        continue;
                    }
                    if self.figure_at(h).is_some() {
                        ev.push(Event::DoorHeld { door: d });
                        continue;
                    }
                    self.doors[d].open = false;
                    self.doors[d].locked = lock;
                    let _ = self.map.0.set_terrain(h, Terrain::Wall);
                    ev.push(Event::DoorClosed {
                        door: d,
                        locked: lock,
                    });
                }
            }
            RuleEffect::Place { terrain, at } => {
                let hexes: Vec<Hex> = marked(*at)
                    .into_iter()
                    .filter(|&h| {
                        self.map
                            .0
                            .terrain(h)
                            .is_some_and(|t| t != Terrain::Wall && t != *terrain)
                            && self.figure_at(h).is_none()
                    })
                    .collect();
                for &h in &hexes {
                    let _ = self.map.0.set_terrain(h, *terrain);
                }
                if !hexes.is_empty() {
                    ev.push(Event::TerrainChanged {
                        hexes,
                        terrain: *terrain,
                    });
                }
            }
            RuleEffect::Clear(at) => {
                let hexes: Vec<Hex> = marked(*at)
                    .into_iter()
                    .filter(|&h| {
                        self.map
                            .0
                            .terrain(h)
                            .is_some_and(|t| !matches!(t, Terrain::Wall | Terrain::Floor))
                    })
                    .collect();
                for &h in &hexes {
                    let _ = self.map.0.set_terrain(h, Terrain::Floor);
                }
                if !hexes.is_empty() {
                    ev.push(Event::TerrainChanged {
                        hexes,
                        terrain: Terrain::Floor,
                    });
                }
            }
            RuleEffect::Damage {
                amount,
                area,
                figures,
            } => {
                for f in self.figures_in(layout, *area, *figures) {
                    if !self.alive(f) {
                        continue;
                    }
                    ev.push(Event::Suffered {
                        figure: f,
                        amount: *amount,
                        cause: Cause::Special(r),
                    });
                    self.damage(f, *amount, ev);
                }
            }
            RuleEffect::Heal {
                amount,
                area,
                figures,
            } => {
                // A figure unhurt and neither poisoned nor wounded has nothing to heal.
                for f in self.figures_in(layout, *area, *figures) {
                    let hurt = match f {
                        FigureId::Hero(h) => self.heroes[h].hp < self.heroes[h].max_hp,
                        FigureId::Monster(m) => self.monsters[m].hp < self.monsters[m].max_hp,
                        FigureId::Summon(i) => self.summons[i].hp < self.summons[i].spec.hp as i32,
                    };
                    let sick = self
                        .conditions(f)
                        .iter()
                        .any(|c| matches!(c.condition, Condition::Poison | Condition::Wound));
                    if hurt || sick {
                        self.heal(f, *amount, ev);
                    }
                }
            }
            RuleEffect::Give {
                condition,
                area,
                figures,
            } => {
                for f in self.figures_in(layout, *area, *figures) {
                    self.add_condition(f, *condition, ev);
                }
            }
            RuleEffect::Message(text) => ev.push(Event::Told { text: text.clone() }),
            RuleEffect::Goal(v) => {
                self.goal = Some(v.clone());
                ev.push(Event::GoalChanged { goal: v.clone() });
            }
            RuleEffect::Lose(reason) => self.lose(reason.clone(), ev),
        }
    }

    /// The living figures of `side` standing in `area`, heroes first, then summons, then
    /// monsters, each by id.
    fn figures_in(&self, layout: &Layout, area: Area, side: Side) -> Vec<FigureId> {
        let inside = |h: Hex| match area {
            Area::Everywhere => true,
            Area::Marked(c) => layout.marks.get(&c).is_some_and(|hs| hs.contains(&h)),
            Area::Room(c) => layout
                .room_of(h)
                .is_some_and(|r| layout.rooms[r].letter == c),
        };
        let mut out = Vec::new();
        if side != Side::Monsters {
            out.extend(self.active_heroes().map(FigureId::Hero));
            out.extend(self.living_summons().map(FigureId::Summon));
        }
        if side != Side::Characters {
            out.extend(self.living_monsters().map(FigureId::Monster));
        }
        out.retain(|&f| inside(self.hex_of(f)));
        out
    }

    /// `h` when it is on the board, empty and a monster may stand there; else the nearest such
    /// hex by steps that do not cross walls (the first in `(q, r)` order among equals).
    fn nearest_empty(&self, h: Hex) -> Option<Hex> {
        let map = &self.map.0;
        let standable = |x: Hex| {
            map.terrain(x)
                .is_some_and(|t| !matches!(t, Terrain::Wall | Terrain::Obstacle))
                && self.closed_door_at(x).is_none()
                && self.figure_at(x).is_none()
        };
        if !map.contains(h) || map.terrain(h) == Some(Terrain::Wall) {
            return None;
        }
        let mut ring = vec![h];
        let mut seen = vec![h];
        while !ring.is_empty() {
            let mut free: Vec<Hex> = ring.iter().copied().filter(|&x| standable(x)).collect();
            if !free.is_empty() {
                free.sort_by_key(|&x| qr(x));
                return Some(free[0]);
            }
            let mut next = Vec::new();
            for &x in &ring {
                let Some(i) = map.index_of(x) else { continue };
                for d in 0..6 {
                    let y = step(x, d);
                    if seen.contains(&y)
                        || !map.contains(y)
                        || map.terrain(y) == Some(Terrain::Wall)
                        || map.thin_wall(usize::from(i), d)
                    {
                        continue;
                    }
                    seen.push(y);
                    next.push(y);
                }
            }
            ring = next;
        }
        None
    }
}

/// Whether `round` is `first`, or `every` rounds on from it (`every` 0: only `first`).
fn in_rounds(round: u32, first: u32, every: u32) -> bool {
    round == first || (every > 0 && round > first && (round - first).is_multiple_of(every))
}
