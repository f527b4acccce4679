//! The players' own change to the board, brought from the position lab ("play on from here").
//!
//! A moment of the game opened in the lab and edited there comes back as one [`Arrangement`]:
//! figures moved or taken off and ground changed. It is applied whole or not at all, between
//! turns' steps, and the game goes on from the board as the players set it.

use super::actions::Event;
use super::figure_id;
use super::state::{FigureId, State};
use crate::hex::{Hex, Terrain, hex};
use crate::rules::ActionError;
use crate::rules::lab::Arrangement;
use crate::rules::view::Ground;

fn refuse<T>(why: impl Into<String>) -> Result<T, ActionError> {
    Err(ActionError::Invalid(why.into()))
}

/// The terrain a lab ground stands for on a Gloomhaven board.
fn terrain(g: Ground) -> Option<Terrain> {
    Some(match g {
        Ground::Floor => Terrain::Floor,
        Ground::Obstacle => Terrain::Obstacle,
        Ground::Trap => Terrain::Trap,
        Ground::Hazard => Terrain::Hazard,
        Ground::Difficult => Terrain::Difficult,
        Ground::Icy => Terrain::Icy,
        Ground::Wall => Terrain::Wall,
        _ => return None,
    })
}

impl State {
    /// Applies an arrangement: every figure named must be on the board, every cell named on the
    /// board, and the result must leave each figure on a cell it may stand on, alone. A refused
    /// arrangement changes nothing.
    pub(super) fn arrange(
        &mut self,
        a: &Arrangement,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if let Some(f) = self.acting().filter(|_| self.plan.is_some()) {
            return refuse(format!(
                "{} is in the middle of its turn: arrange the board before its turn or after it",
                self.name(f)
            ));
        }
        let mut map = self.map.clone();
        for &((q, r), g) in &a.ground {
            let Some(t) = terrain(g) else {
                return refuse(format!("a Gloomhaven board has no {} ground", g.name()));
            };
            if map.0.set_terrain(hex(q, r), t).is_err() {
                return refuse(format!("hex ({q}, {r}) is not on the board"));
            }
        }
        let figure = |id: u32| -> Result<FigureId, ActionError> {
            let f = figure_id(id);
            let known = match f {
                FigureId::Hero(i) => i < self.heroes.len(),
                FigureId::Monster(i) => i < self.monsters.len(),
                FigureId::Summon(i) => i < self.summons.len(),
            };
            if known && self.alive(f) {
                Ok(f)
            } else {
                refuse(format!("figure {id} is not on the board"))
            }
        };
        let mut off = Vec::new();
        for &id in &a.off {
            let f = figure(id)?;
            if let FigureId::Hero(_) = f {
                return refuse(format!(
                    "{} cannot be taken off the board: a character plays on until it is exhausted",
                    self.name(f)
                ));
            }
            off.push(f);
        }
        let mut moves: Vec<(FigureId, Hex)> = Vec::new();
        for &(id, (q, r)) in &a.moves {
            let f = figure(id)?;
            if off.contains(&f) || moves.iter().any(|(g, _)| *g == f) {
                return refuse(format!("{} is named twice", self.name(f)));
            }
            moves.push((f, hex(q, r)));
        }
        // Where every figure left on the board stands once arranged.
        let standing: Vec<(FigureId, Hex)> = self
            .active_heroes()
            .map(FigureId::Hero)
            .chain(self.living_summons().map(FigureId::Summon))
            .chain(self.living_monsters().map(FigureId::Monster))
            .filter(|f| !off.contains(f))
            .map(|f| {
                let to = moves.iter().find(|(g, _)| *g == f).map(|(_, h)| *h);
                (f, to.unwrap_or_else(|| self.hex_of(f)))
            })
            .collect();
        for (i, &(f, h)) in standing.iter().enumerate() {
            let Some(at) = map.0.index_of(h) else {
                return refuse(format!("{} would stand off the board", self.name(f)));
            };
            if matches!(
                map.0.terrain_at(at as usize),
                Terrain::Wall | Terrain::Obstacle
            ) {
                return refuse(format!(
                    "{} would stand on a wall or an obstacle at ({}, {})",
                    self.name(f),
                    h.x,
                    h.y
                ));
            }
            if let Some((g, _)) = standing[..i].iter().find(|(_, k)| *k == h) {
                return refuse(format!(
                    "{} and {} would stand on the same hex ({}, {})",
                    self.name(*g),
                    self.name(f),
                    h.x,
                    h.y
                ));
            }
        }
        for (f, h) in &moves {
            match *f {
                FigureId::Hero(i) => self.heroes[i].hex = *h,
                FigureId::Monster(i) => self.monsters[i].hex = *h,
                FigureId::Summon(i) => self.summons[i].hex = *h,
            }
        }
        for f in &off {
            match *f {
                FigureId::Monster(i) => self.monsters[i].alive = false,
                FigureId::Summon(i) => self.summons[i].alive = false,
                FigureId::Hero(_) => {}
            }
        }
        self.map = map;
        // What earlier monster turns worked out was for the old board.
        self.shared = Default::default();
        ev.push(Event::Arranged {
            moved: moves.len(),
            taken_off: off.iter().map(|f| self.name(*f)).collect(),
            cells: a.ground.len(),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::case::Puzzle;
    use super::super::state::Phase;
    use super::super::{Action, Gloomhaven, MONSTER_BASE};
    use crate::game::Game;
    use crate::hex::{Terrain, hex};
    use crate::lab::{Arrangement, Bench, Lab};
    use crate::rules::state_hash;

    /// A seeded game of the Ember Orchard stopped at the first hero turn whose moment opens, and
    /// the lab's bench on that moment.
    fn at_a_moment() -> (Game<Gloomhaven>, Bench<Gloomhaven>) {
        crate::lab::seeded_moment::<Gloomhaven>("ember-orchard.ron", 3, |s, p| {
            matches!(s.phase, Phase::HeroTurn { played: None, .. })
                && s.plan.is_none()
                && !p.allies.is_empty()
        })
    }

    /// A floor hex of the position with no figure on it, other than `not`.
    fn free_floor(p: &Puzzle, not: &[(i32, i32)]) -> (i32, i32) {
        let m = &p.map;
        *m.hexes
            .iter()
            .find(|h| {
                ![&m.obstacles, &m.traps, &m.hazards, &m.difficult, &m.icy]
                    .iter()
                    .any(|l| l.contains(h))
                    && p.active != **h
                    && !p.allies.contains(h)
                    && !p.enemies.iter().any(|e| e.hex == **h)
                    && !not.contains(h)
            })
            .unwrap()
    }

    #[test]
    fn a_moment_edited_in_the_lab_plays_on_in_the_game_and_undo_takes_it_back() {
        let (mut g, mut bench) = at_a_moment();
        assert_eq!(bench.play_on(&g.state), Ok(None), "nothing edited");
        let p = bench.position().clone();
        let from = p.enemies[0].hex;
        let to = free_floor(&p, &[]);
        let rough = free_floor(&p, &[to]);
        let ally = p.allies[0];
        bench
            .edit_moving(Some((from, to)), |p| Gloomhaven::drag(p, from, to))
            .unwrap();
        bench
            .edit(|p| Gloomhaven::paint(p, "difficult", rough, None))
            .unwrap();
        bench
            .edit(|p| Gloomhaven::paint(p, "remove", ally, None))
            .unwrap();
        let change = bench.arrangement().unwrap();
        assert_eq!(change.moves.len(), 1, "{change:?}");
        assert_eq!(change.off.len(), 1, "{change:?}");
        assert!(change.off[0] >= MONSTER_BASE, "the ally is a monster");
        assert_eq!(change.ground.len(), 1, "{change:?}");
        crate::lab::plays_on(
            &mut g,
            &bench,
            "The players arrange the board in the lab: 1 figure moved, Ash Hound 2 taken off, 1 hex changed",
            |s| {
                let hero = s
                    .figure_at(hex(to.0, to.1))
                    .expect("a figure on the new hex");
                assert_eq!(s.hex_of(hero), hex(to.0, to.1));
                assert!(
                    s.figure_at(hex(from.0, from.1)).is_none(),
                    "it left its hex"
                );
                assert!(
                    s.figure_at(hex(ally.0, ally.1)).is_none(),
                    "the ally is off"
                );
                let i = s.map.0.index_of(hex(rough.0, rough.1)).unwrap() as usize;
                assert_eq!(s.map.0.terrain_at(i), Terrain::Difficult);
            },
        );
    }

    #[test]
    fn edits_the_game_cannot_hold_are_refused_with_their_reason() {
        let (g, bench) = at_a_moment();
        let p = bench.position().clone();
        let spot = free_floor(&p, &[]);
        let refused = |edit: &dyn Fn(&mut Puzzle) -> Result<(), String>| -> String {
            let mut b = bench.clone();
            b.edit(edit).unwrap();
            b.play_on(&g.state).unwrap_err()
        };
        let placed = refused(&|p| Gloomhaven::paint(p, "ally", spot, None));
        assert!(placed.contains("placed in the lab"), "{placed}");
        let card =
            refused(&|p| Gloomhaven::set(p, None, "move", crate::rules::lab::Value::Number(7)));
        assert!(card.contains("Move"), "{card}");
        let offset = (spot.0 - p.active.0, spot.1 - p.active.1);
        let area = refused(&|p| {
            p.action.aoe.push(offset);
            Ok(())
        });
        assert!(area.contains("cannot hold"), "{area}");
        let hero = p.enemies[0].hex;
        let off = refused(&|p| Gloomhaven::paint(p, "remove", hero, None));
        assert!(off.contains("cannot be taken off"), "{off}");
    }

    #[test]
    fn a_bad_arrangement_is_refused_and_the_game_is_as_it_was() {
        let (mut g, _) = at_a_moment();
        let before = state_hash(&g.state);
        let hero = g.state.heroes[0].hex;
        let monster = MONSTER_BASE + g.state.living_monsters().next().unwrap() as u32;
        for bad in [
            Arrangement {
                moves: vec![(999, (0, 0))],
                ..Arrangement::default()
            },
            Arrangement {
                moves: vec![(monster, (hero.x, hero.y))],
                ..Arrangement::default()
            },
            Arrangement {
                moves: vec![(monster, (500, 500))],
                ..Arrangement::default()
            },
            Arrangement {
                ground: vec![((hero.x, hero.y), crate::rules::view::Ground::Wall)],
                ..Arrangement::default()
            },
            Arrangement {
                ground: vec![((0, 0), crate::rules::view::Ground::Dome)],
                ..Arrangement::default()
            },
        ] {
            assert!(g.arrange(Action::Arrange(bad.clone())).is_err(), "{bad:?}");
            assert_eq!(state_hash(&g.state), before, "{bad:?}");
        }
        let huge = Arrangement {
            off: vec![1; crate::rules::lab::MAX_ARRANGED + 1],
            ..Arrangement::default()
        };
        assert!(huge.check(crate::hex::MAX_COORD).is_err());
        let far = Arrangement {
            moves: vec![(0, (crate::hex::MAX_COORD + 1, 0))],
            ..Arrangement::default()
        };
        assert!(far.check(crate::hex::MAX_COORD).is_err());
    }
}
