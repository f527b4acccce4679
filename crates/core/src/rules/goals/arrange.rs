//! The players' own change to the board, brought from the position lab ("play on from here").
//!
//! A goal-priority board is the scenario's map, so only figures change: heroes and foes moved,
//! foes taken off. The arrangement is applied whole or not at all.

use super::FOE_BASE;
use super::actions::{Event, Fig};
use super::state::State;
use crate::rules::ActionError;
use crate::rules::lab::Arrangement;
use crate::rules::view::Ground;

fn refuse<T>(why: impl Into<String>) -> Result<T, ActionError> {
    Err(ActionError::Invalid(why.into()))
}

impl State {
    /// Applies an arrangement: every figure named must be in the game and every hex it goes to on
    /// the map, free, and a hex it may stand on (a Dome only for a hero). A refused arrangement
    /// changes nothing.
    pub(super) fn arrange(
        &mut self,
        a: &Arrangement,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if let Some(&(c, g)) = a.ground.first() {
            return refuse(format!(
                "hex ({}, {}) was made {}: a goal-priority board is the scenario's map and does \
                 not change in play",
                c.0,
                c.1,
                Ground::name(g)
            ));
        }
        let figure = |id: u32| -> Result<Fig, ActionError> {
            let fig = if id >= FOE_BASE {
                Fig::Foe((id - FOE_BASE) as usize)
            } else {
                Fig::Hero(id as usize)
            };
            let inside = match fig {
                Fig::Hero(h) => self.hero_in(h),
                Fig::Foe(f) => self.foe_in(f),
            };
            if inside {
                Ok(fig)
            } else {
                refuse(format!("figure {id} is not in the game"))
            }
        };
        let mut off = Vec::new();
        for &id in &a.off {
            let fig = figure(id)?;
            match fig {
                Fig::Hero(_) => {
                    return refuse(format!(
                        "{} cannot be taken off the board: a hero leaves the game only when \
                         wounded out",
                        self.name(fig)
                    ));
                }
                Fig::Foe(f) if self.foes[f].gold + self.foes[f].cards > 0 => {
                    return refuse(format!(
                        "{} carries loot: defeat it in the game, where it drops what it carries",
                        self.name(fig)
                    ));
                }
                Fig::Foe(f) => off.push(f),
            }
        }
        let mut moves: Vec<(Fig, (i32, i32))> = Vec::new();
        for &(id, to) in &a.moves {
            let fig = figure(id)?;
            if moves.iter().any(|(g, _)| *g == fig)
                || matches!(fig, Fig::Foe(f) if off.contains(&f))
            {
                return refuse(format!("{} is named twice", self.name(fig)));
            }
            moves.push((fig, to));
        }
        let at = |fig: Fig| -> (i32, i32) {
            moves.iter().find(|(g, _)| *g == fig).map_or_else(
                || match fig {
                    Fig::Hero(h) => self.heroes[h].hex,
                    Fig::Foe(f) => self.foes[f].hex,
                },
                |(_, to)| *to,
            )
        };
        let standing: Vec<Fig> = (0..self.heroes.len())
            .filter(|&h| self.hero_in(h))
            .map(Fig::Hero)
            .chain(
                (0..self.foes.len())
                    .filter(|&f| self.foe_in(f) && !off.contains(&f))
                    .map(Fig::Foe),
            )
            .collect();
        for &(fig, to) in &moves {
            if self.tile(to).is_none() {
                return refuse(format!(
                    "{} would stand off the map at ({}, {})",
                    self.name(fig),
                    to.0,
                    to.1
                ));
            }
            if matches!(fig, Fig::Foe(_)) && self.is_dome(to) {
                return refuse(format!(
                    "{} would stand in a Dome at ({}, {}): no foe enters one",
                    self.name(fig),
                    to.0,
                    to.1
                ));
            }
            if let Some(other) = standing.iter().find(|&&g| g != fig && at(g) == to) {
                return refuse(format!(
                    "{} and {} would stand on the same hex ({}, {})",
                    self.name(*other),
                    self.name(fig),
                    to.0,
                    to.1
                ));
            }
        }
        let taken_off: Vec<String> = off.iter().map(|&f| self.foe_name(f).to_string()).collect();
        for &f in &off {
            let hex = self.foes[f].hex;
            self.foes[f].health = 0;
            // A foe that had entered its host's hex stays where it is: its host is gone.
            for x in &mut self.foes {
                if x.hex == hex {
                    x.entered_from = None;
                }
            }
        }
        for &(fig, to) in &moves {
            match fig {
                Fig::Hero(h) => self.heroes[h].hex = to,
                Fig::Foe(f) => {
                    self.foes[f].hex = to;
                    self.foes[f].entered_from = None;
                }
            }
        }
        ev.push(Event::Arranged {
            moved: moves.len(),
            taken_off,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::case::GoalTurn;
    use super::super::state::Phase;
    use super::super::{Action, FOE_BASE, Goals};
    use crate::game::Game;
    use crate::lab::{Arrangement, Bench, Lab};
    use crate::rules::state_hash;

    /// A seeded Dome Crossing stopped at the first hero turn whose moment opens with a foe beside
    /// the acting one, and the lab's bench on that moment.
    fn at_a_moment() -> (Game<Goals>, Bench<Goals>) {
        crate::lab::seeded_moment::<Goals>("dome-crossing.ron", 2, |s, p| {
            matches!(s.phase, Phase::Hero { moved: false, .. })
                && s.tie.is_none()
                && s.rolls.is_empty()
                && s.reactions.is_empty()
                && p.foes.len() > 1
        })
    }

    /// A plain hex of the position with no figure, Dome, loot or adventure on it, other than `not`.
    fn free_hex(p: &GoalTurn, not: &[(i32, i32)]) -> (i32, i32) {
        let b = &p.board;
        *b.hexes
            .iter()
            .find(|h| {
                !b.walls.contains(h)
                    && !b.blocked.contains(h)
                    && !b
                        .dome_keys
                        .iter()
                        .any(|k| k.hexes.contains(h) || k.domes.contains(h))
                    && !b.adventures.iter().any(|a| a.spaces.contains(h))
                    && !b.loot.iter().any(|l| l.hex == **h)
                    && !p.heroes.iter().any(|x| x.hex == **h)
                    && !p.foes.iter().any(|x| x.hex == **h)
                    && !not.contains(h)
            })
            .unwrap()
    }

    #[test]
    fn a_goal_turn_edited_in_the_lab_plays_on_and_undo_takes_it_back() {
        let (mut g, mut bench) = at_a_moment();
        assert_eq!(bench.play_on(&g.state), Ok(None), "nothing edited");
        let p = bench.position().clone();
        let hero = p.heroes[0].hex;
        let to = free_hex(&p, &[]);
        let other = p.foes.iter().find(|f| f.name != p.active).unwrap().hex;
        bench
            .edit_moving(Some((hero, to)), |p| Goals::drag(p, hero, to))
            .unwrap();
        bench
            .edit(|p| Goals::paint(p, "remove", other, None))
            .unwrap();
        let change = bench.arrangement().unwrap();
        assert_eq!((change.moves.len(), change.off.len()), (1, 1), "{change:?}");
        assert!(change.off[0] >= FOE_BASE);
        crate::lab::plays_on(
            &mut g,
            &bench,
            "The players arrange the board in the lab: 1 figure moved,",
            |s| {
                assert!(
                    s.hero_at(to).is_some() && s.hero_at(hero).is_none(),
                    "the hero moved"
                );
                assert!(s.foe_at(other).is_none(), "the foe is off");
            },
        );
    }

    #[test]
    fn goal_turn_edits_the_game_cannot_hold_are_refused() {
        let (g, bench) = at_a_moment();
        let p = bench.position().clone();
        let spot = free_hex(&p, &[]);
        let refused = |edit: &dyn Fn(&mut GoalTurn) -> Result<(), String>| -> String {
            let mut b = bench.clone();
            b.edit(edit).unwrap();
            b.play_on(&g.state).unwrap_err()
        };
        let wall = refused(&|p| Goals::paint(p, "wall", spot, None));
        assert!(wall.contains("scenario's map"), "{wall}");
        let placed = refused(&|p| Goals::paint(p, "foe", spot, None));
        assert!(placed.contains("placed in the lab"), "{placed}");
        let hero = p.heroes[0].hex;
        let off = refused(&|p| Goals::paint(p, "remove", hero, None));
        assert!(off.contains("cannot be taken off"), "{off}");
        let loot = refused(&|p| Goals::paint(p, "loot", spot, None));
        assert!(loot.contains("cannot hold"), "{loot}");
    }

    #[test]
    fn a_bad_goal_arrangement_is_refused_and_the_game_is_as_it_was() {
        let (mut g, _) = at_a_moment();
        let before = state_hash(&g.state);
        let hero = g.state.heroes[0].hex;
        let foe = FOE_BASE
            + (0..g.state.foes.len())
                .find(|&f| g.state.foe_in(f))
                .unwrap() as u32;
        for bad in [
            Arrangement {
                moves: vec![(999, (0, 0))],
                ..Arrangement::default()
            },
            Arrangement {
                moves: vec![(foe, hero)],
                ..Arrangement::default()
            },
            Arrangement {
                moves: vec![(foe, (100, 100))],
                ..Arrangement::default()
            },
            Arrangement {
                moves: vec![(foe, hero), (foe, hero)],
                ..Arrangement::default()
            },
        ] {
            assert!(g.arrange(Action::Arrange(bad.clone())).is_err(), "{bad:?}");
            assert_eq!(state_hash(&g.state), before, "{bad:?}");
        }
    }
}
