//! The players' own change to the board, brought from the position lab ("play on from here").
//!
//! A Brimstone board is the scenario's map tiles, so only figures change: heroes and enemy
//! models moved, models taken off. It is applied whole or not at all, at a hero's turn or before
//! a model works out its targeting, never in the middle of a pick, a roll or a walk.

use super::actions::{Event, Figure};
use super::state::{Stage, State};
use crate::rules::ActionError;
use crate::rules::lab::Arrangement;
use crate::square::Square;

fn refuse<T>(why: impl Into<String>) -> Result<T, ActionError> {
    Err(ActionError::Invalid(why.into()))
}

impl State {
    /// The figure of a table id ([`super::view`]'s numbering), if it stands on the board.
    fn standing_figure(&self, id: u32) -> Option<Figure> {
        let i = id as usize;
        if i < self.heroes.len() {
            self.heroes[i].up().then_some(Figure::Hero(i))
        } else {
            let m = i - self.heroes.len();
            self.models
                .get(m)
                .filter(|x| x.active())
                .map(|_| Figure::Model(m))
        }
    }

    fn figure_name(&self, f: Figure) -> &str {
        match f {
            Figure::Hero(h) => self.hero_name(h),
            Figure::Model(m) => &self.models[m].name,
        }
    }

    /// Applies an arrangement: every figure named on the board, every square it goes to on the
    /// board, no wall, and free. A refused arrangement changes nothing.
    pub(super) fn arrange(
        &mut self,
        a: &Arrangement,
        ev: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let between = match self.stage {
            Stage::Hero { .. } | Stage::NextActor => false,
            Stage::Targeting { retreat: None, .. } => !self.picks.is_empty(),
            _ => true,
        };
        if between {
            return refuse(
                "the fight is in the middle of a step: arrange the board at a hero's turn or \
                 before a model works out its targeting",
            );
        }
        if let Some(&(c, _)) = a.ground.first() {
            return refuse(format!(
                "square ({}, {}) was changed: a Brimstone board is the scenario's map tiles and \
                 does not change in play",
                c.0, c.1
            ));
        }
        let figure = |id: u32| {
            self.standing_figure(id)
                .ok_or_else(|| ActionError::Invalid(format!("figure {id} is not on the board")))
        };
        let mut off = Vec::new();
        for &id in &a.off {
            match figure(id)? {
                Figure::Hero(h) => {
                    return refuse(format!(
                        "{} cannot be taken off the board: a hero leaves the fight only when \
                         knocked out",
                        self.hero_name(h)
                    ));
                }
                Figure::Model(m) => off.push(m),
            }
        }
        let mut moves: Vec<(Figure, Square)> = Vec::new();
        for &(id, to) in &a.moves {
            let f = figure(id)?;
            if moves.iter().any(|(g, _)| *g == f)
                || matches!(f, Figure::Model(m) if off.contains(&m))
            {
                return refuse(format!("{} is named twice", self.figure_name(f)));
            }
            moves.push((f, to));
        }
        let board = &self.scenario.board;
        let now = |f: Figure| -> Option<Square> {
            match f {
                Figure::Hero(h) => Some(self.heroes[h].at),
                Figure::Model(m) => self.models[m].at,
            }
        };
        let at = |f: Figure| {
            moves
                .iter()
                .find(|(g, _)| *g == f)
                .map(|(_, s)| *s)
                .or(now(f))
        };
        let standing: Vec<Figure> = (0..self.heroes.len())
            .map(Figure::Hero)
            .chain(
                (0..self.models.len())
                    .filter(|&m| self.models[m].active() && !off.contains(&m))
                    .map(Figure::Model),
            )
            .collect();
        for &(f, to) in &moves {
            if !board.contains(to) || board.is_wall(to) {
                return refuse(format!(
                    "{} would stand off the board or in a wall at ({}, {})",
                    self.figure_name(f),
                    to.0,
                    to.1
                ));
            }
            if let Some(&g) = standing.iter().find(|&&g| g != f && at(g) == Some(to)) {
                return refuse(format!(
                    "{} and {} would stand on the same square ({}, {})",
                    self.figure_name(g),
                    self.figure_name(f),
                    to.0,
                    to.1
                ));
            }
        }
        let taken_off: Vec<String> = off.iter().map(|&m| self.models[m].name.clone()).collect();
        for &m in &off {
            self.models[m].dead = true;
        }
        for &(f, to) in &moves {
            match f {
                Figure::Hero(h) => self.heroes[h].at = to,
                Figure::Model(m) => self.models[m].at = Some(to),
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
    use super::super::lab::Case;
    use super::super::state::{ModelState, Stage};
    use super::super::{Action, Brimstone};
    use crate::game::Game;
    use crate::lab::{Arrangement, Bench, Lab};
    use crate::rules::state_hash;
    use crate::rules::view::Ground;

    /// A seeded Cinder Adit stopped at the first hero turn whose moment is a model's targeting
    /// with another enemy on the board, and the lab's bench on that moment.
    fn at_a_moment() -> (Game<Brimstone>, Bench<Brimstone>) {
        crate::lab::seeded_moment::<Brimstone>("cinder-adit.ron", 1, |s, p| {
            matches!(s.stage, Stage::Hero { moved: false, .. })
                && s.ask.is_none()
                && matches!(p, Case::Targeting(c) if !c.enemies.is_empty())
        })
    }

    /// A floor square of the position with nothing on it, other than `not`.
    fn free_square(bench: &Bench<Brimstone>, not: &[(i32, i32)]) -> (i32, i32) {
        let v = <Brimstone as Lab>::position_view(bench.position());
        v.cells
            .iter()
            .find(|c| {
                c.ground == Ground::Floor
                    && !v.figures.iter().any(|f| f.cell == c.key)
                    && !v.tokens.iter().any(|t| t.cell == c.key)
                    && !not.contains(&c.key)
            })
            .unwrap()
            .key
    }

    fn targeting(bench: &Bench<Brimstone>) -> &super::super::case::TargetingCase {
        match bench.position() {
            Case::Targeting(c) => c,
            Case::Placement(_) => unreachable!("a targeting moment"),
        }
    }

    #[test]
    fn a_fight_edited_in_the_lab_plays_on_and_undo_takes_it_back() {
        let (mut g, mut bench) = at_a_moment();
        assert_eq!(bench.play_on(&g.state), Ok(None), "nothing edited");
        let c = targeting(&bench).clone();
        let hero = c.heroes[0].at;
        let to = free_square(&bench, &[]);
        let other = c.enemies[0].at;
        bench
            .edit_moving(Some((hero, to)), |p| Brimstone::drag(p, hero, to))
            .unwrap();
        bench
            .edit(|p| Brimstone::paint(p, "remove", other, None))
            .unwrap();
        let change = bench.arrangement().unwrap();
        assert_eq!((change.moves.len(), change.off.len()), (1, 1), "{change:?}");
        crate::lab::plays_on(
            &mut g,
            &bench,
            "The players arrange the board in the lab: 1 figure moved,",
            |s| {
                assert_eq!(
                    s.heroes.iter().filter(|h| h.at == to).count(),
                    1,
                    "the hero moved"
                );
                assert!(
                    !s.models.iter().any(|m| m.active() && m.at == Some(other)),
                    "the model is off"
                );
            },
        );
    }

    #[test]
    fn fight_edits_the_game_cannot_hold_are_refused() {
        let (g, bench) = at_a_moment();
        let c = targeting(&bench).clone();
        let spot = free_square(&bench, &[]);
        let refused = |edit: &dyn Fn(&mut Case) -> Result<(), String>| -> String {
            let mut b = bench.clone();
            b.edit(edit).unwrap();
            b.play_on(&g.state).unwrap_err()
        };
        let wall = refused(&|p| Brimstone::paint(p, "wall", spot, None));
        assert!(wall.contains("map tiles"), "{wall}");
        let hero = c.heroes[0].at;
        let off = refused(&|p| Brimstone::paint(p, "remove", hero, None));
        assert!(off.contains("cannot be taken off"), "{off}");
    }

    #[test]
    fn a_bad_fight_arrangement_is_refused_and_the_game_is_as_it_was() {
        let (mut g, _) = at_a_moment();
        let before = state_hash(&g.state);
        let hero = g.state.heroes[0].at;
        let n = g.state.heroes.len() as u32;
        let model = n + g.state.models.iter().position(ModelState::active).unwrap() as u32;
        for bad in [
            Arrangement {
                moves: vec![(999, (0, 0))],
                ..Arrangement::default()
            },
            Arrangement {
                moves: vec![(model, hero)],
                ..Arrangement::default()
            },
            Arrangement {
                moves: vec![(model, (900, 900))],
                ..Arrangement::default()
            },
            Arrangement {
                off: vec![0],
                ..Arrangement::default()
            },
        ] {
            assert!(g.arrange(Action::Arrange(bad.clone())).is_err(), "{bad:?}");
            assert_eq!(state_hash(&g.state), before, "{bad:?}");
        }
    }
}
