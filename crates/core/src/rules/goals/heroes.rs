//! A hero's turn: where it can move, what it can do after, and each action carried out.

use super::actions::{Action, Event, Fig, Roll};
use super::board::Board;
use super::scenario::Qr;
use super::state::{AdventureState, Phase, Reaction, State};
use crate::hex::path::{UNREACHED, path_costs};
use crate::hex::{distance, hex};
use crate::rules::ActionError;

impl State {
    /// The hexes hero `h` can end a Move on, with their move points, in board order.
    ///
    /// Heroes pass through heroes, never through foes, walls, prohibited terrain or Domes; woods and
    /// rough cost 2; a hero ends on a hex holding no figure.
    pub(crate) fn hero_moves(&self, h: usize, board: &Board) -> Vec<(Qr, u32)> {
        let x = &self.heroes[h];
        let Some(start) = board.index(hex(x.hex.0, x.hex.1)) else {
            return Vec::new();
        };
        let speed = self.file().heroes[h].speed;
        let cost = path_costs(board.map(), &[start], speed, |_, to| {
            let q = board.hex(to);
            if self.foe_at((q.x, q.y)).is_some() {
                return None;
            }
            board.enter_cost(to)
        });
        cost.iter()
            .enumerate()
            .filter(|&(i, &c)| c != UNREACHED && i != start)
            .map(|(i, &c)| {
                let q = board.hex(i);
                ((q.x, q.y), c)
            })
            .filter(|(p, _)| self.hero_at(*p).is_none())
            .collect()
    }

    /// Every action hero `h` may take now, in a fixed order.
    pub(crate) fn hero_actions(&self, h: usize, moved: bool) -> Vec<Action> {
        let Ok(board) = self.board() else {
            return vec![Action::End];
        };
        let mut out = Vec::new();
        if !moved {
            out.extend(
                self.hero_moves(h, &board)
                    .into_iter()
                    .map(|(p, _)| Action::Move(p)),
            );
        }
        let x = &self.heroes[h];
        let spec = &self.file().heroes[h];
        let at = hex(x.hex.0, x.hex.1);
        if !self.is_dome(x.hex) {
            let foes: Vec<usize> = (0..self.foes.len()).filter(|&f| self.foe_in(f)).collect();
            for &f in &foes {
                let p = self.foes[f].hex;
                if distance(at, hex(p.0, p.1)) == 1 {
                    out.push(Action::Melee(f));
                }
            }
            if let Some((lo, hi)) = spec.range {
                let from = board.index(at);
                for &f in &foes {
                    let p = self.foes[f].hex;
                    let d = distance(at, hex(p.0, p.1));
                    let seen = match (from, board.index(hex(p.0, p.1))) {
                        (Some(a), Some(b)) => board.sees(a, b),
                        _ => false,
                    };
                    if (lo..=hi).contains(&d) && seen {
                        out.push(Action::Shoot(f));
                    }
                }
            }
            // A minion carries nothing and explores nothing: it only moves and fights.
            if !spec.minion && self.loot.iter().any(|p| p.hex == x.hex) {
                out.push(Action::PickUp);
            }
            if spec.can_trade && x.gold + x.cards > 0 {
                for o in (0..self.heroes.len()).filter(|&o| o != h && self.hero_in(o)) {
                    let p = self.heroes[o].hex;
                    if self.file().heroes[o].can_trade
                        && !self.is_dome(p)
                        && distance(at, hex(p.0, p.1)) == 1
                    {
                        out.push(Action::Trade(o));
                    }
                }
            }
            for &f in &foes {
                let p = self.foes[f].hex;
                let alone = foes.iter().filter(|&&g| self.foes[g].hex == p).count() == 1;
                if alone && distance(at, hex(p.0, p.1)) == 1 {
                    out.push(Action::SlipAway(f));
                }
            }
            if !spec.minion
                && let Some(a) = self.adventure_at(x.hex)
                && self.adventures[a] == AdventureState::Open
            {
                out.push(Action::Explore);
            }
            let mut domes: Vec<Qr> = (0..6)
                .map(|d| crate::hex::step(at, d))
                .map(|q| (q.x, q.y))
                .filter(|&p| self.is_dome(p) && self.hero_at(p).is_none())
                .collect();
            domes.sort_unstable();
            out.extend(domes.into_iter().map(Action::Hide));
        }
        out.push(Action::End);
        out
    }

    /// Carries out a hero's action; anything not listed by [`State::hero_actions`] is refused.
    pub(crate) fn hero_action(
        &mut self,
        h: usize,
        moved: bool,
        action: Action,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if matches!(action, Action::Advance | Action::Draw(_) | Action::Roll(_)) {
            return Err(ActionError::NotReady(format!(
                "{} is to act first",
                self.file().heroes[h].name
            )));
        }
        if !self.hero_actions(h, moved).contains(&action) {
            return Err(ActionError::Invalid(format!(
                "{} cannot {action:?} now",
                self.file().heroes[h].name
            )));
        }
        let here = self.heroes[h].hex;
        match action {
            Action::Move(to) => {
                let board = self.board().map_err(ActionError::Invalid)?;
                let points = self
                    .hero_moves(h, &board)
                    .into_iter()
                    .find(|(p, _)| *p == to)
                    .map_or(0, |(_, c)| c);
                self.heroes[h].hex = to;
                ev.push(Event::Moved {
                    hero: h,
                    to,
                    points,
                });
                // A foe lying in wait shoots as the hero its ambush is for steps onto an adventure
                // it watches or next to it; Choose Target then says whom it shoots.
                let onto = self
                    .adventure_at(to)
                    .filter(|&a| self.adventures[a] == AdventureState::Open);
                let at = hex(to.0, to.1);
                for f in 0..self.foes.len() {
                    let foe = &self.foes[f];
                    if !self.foe_in(f) || !foe.waiting {
                        continue;
                    }
                    let next_to = distance(at, hex(foe.hex.0, foe.hex.1)) == 1;
                    let draws = match &foe.watch {
                        Some(w) => {
                            w.hero == h
                                && (next_to || onto.is_some_and(|a| w.adventures.contains(&a)))
                        }
                        // A game from before the watch was kept plays on as it was.
                        None => next_to || onto.is_some(),
                    };
                    if draws {
                        self.reactions.push(Reaction::Shot(f));
                    }
                }
                self.phase = Phase::Hero {
                    hero: h,
                    moved: true,
                };
                return Ok(());
            }
            Action::Melee(f) | Action::Shoot(f) => {
                let ranged = matches!(action, Action::Shoot(_));
                let spec = &self.file().heroes[h];
                let rating = if ranged { spec.aim } else { spec.melee };
                let chance =
                    rating - self.defence(Fig::Foe(f), ranged) + self.aura_bonus(Fig::Hero(h));
                ev.push(Event::Attacks {
                    attacker: Fig::Hero(h),
                    defender: Fig::Foe(f),
                    ranged: ranged.then(String::new),
                    chance,
                });
                self.rolls.push(Roll::Hit {
                    attacker: Fig::Hero(h),
                    defender: Fig::Foe(f),
                    chance,
                });
                if !ranged {
                    // The Melee step: once the hero's blow is settled, the foe strikes back.
                    self.reactions.push(Reaction::MeleeStep(f));
                }
            }
            Action::PickUp => {
                if let Some(k) = self.loot.iter().position(|p| p.hex == here) {
                    let p = self.loot.remove(k);
                    self.heroes[h].gold += p.gold;
                    self.heroes[h].cards += p.cards;
                    ev.push(Event::PickedUp {
                        hero: h,
                        gold: p.gold,
                        cards: p.cards,
                    });
                }
            }
            Action::Trade(o) => {
                let (gold, cards) = (self.heroes[h].gold, self.heroes[h].cards);
                self.heroes[h].gold = 0;
                self.heroes[h].cards = 0;
                self.heroes[o].gold += gold;
                self.heroes[o].cards += cards;
                ev.push(Event::Traded { from: h, to: o });
            }
            Action::SlipAway(f) => {
                self.heroes[h].hex = self.foes[f].hex;
                self.foes[f].hex = here;
                ev.push(Event::SlippedAway { hero: h, foe: f });
            }
            Action::Explore => {
                let Some(adventure) = self.adventure_at(here) else {
                    return Err(ActionError::Invalid("no adventure here".into()));
                };
                ev.push(Event::Explores { hero: h, adventure });
                // A carried card is spent on the roll: the only use cards have for heroes.
                let bonus = if self.heroes[h].cards > 0 {
                    self.heroes[h].cards -= 1;
                    ev.push(Event::SpentCard { hero: h });
                    2
                } else {
                    0
                };
                self.rolls.push(Roll::Explore {
                    hero: h,
                    adventure,
                    bonus,
                });
            }
            Action::Hide(dome) => {
                self.heroes[h].hex = dome;
                ev.push(Event::Hid { hero: h, dome });
            }
            Action::End => ev.push(Event::Ends { hero: h }),
            Action::Advance
            | Action::Draw(_)
            | Action::Roll(_)
            | Action::Choose(_)
            | Action::Arrange(_) => {
                return Err(ActionError::WrongPhase("a hero is acting"));
            }
        }
        // Any action but a Move ends the hero's turn.
        self.phase = self.next_hero(h + 1);
        Ok(())
    }
}
