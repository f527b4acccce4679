//! What the table shows of a Gloomhaven game through the presentation every module implements: the
//! cell each action is about, each action in words, and the cues of each action's events.

use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::game::check::{action_cells_on_board, seats_to_move};
use foehold_core::rules::gloomhaven::{Action, Event, Game, Gloomhaven, Scenario, TieBreaker};
use foehold_core::rules::view::Show;
use foehold_core::rules::{Present, Rules};

fn game(name: &str, seed: u64) -> Game {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name);
    let s = Arc::new(Scenario::load(&path).unwrap_or_else(|e| panic!("{e}")));
    Game::new(s, path.display().to_string(), seed, TieBreaker::Seeded).unwrap()
}

#[test]
fn every_hero_action_about_a_cell_names_a_cell_of_the_board() {
    for seed in 1..=3 {
        let mut g = game("tutorial.ron", seed);
        let named = action_cells_on_board(&mut g, 20_000).unwrap_or_else(|e| panic!("{e}"));
        assert!(named > 100, "seed {seed}: {named} actions named a cell");
    }
}

#[test]
fn the_cues_of_a_whole_game_follow_its_events() {
    let (mut steps, mut aims, mut draws) = (0, 0, 0);
    for name in ["tutorial.ron", "ember-orchard.ron"] {
        let mut g = game(name, 4);
        while let Some(action) = g.auto_action() {
            // Every action a seat may take has words; a card drawn is named by them.
            for seat in seats_to_move(&g.to_move()) {
                for a in g.legal_actions(seat) {
                    let label = Gloomhaven::action_label(&g.state, &a);
                    assert!(!label.is_empty(), "{a:?}");
                    if let (Action::Draw(i), Some(d)) = (&a, &g.state.drawing) {
                        assert_eq!(label, format!("draws {}", d.want.options[*i]));
                    }
                }
            }
            let before = g.state.clone();
            let events = g.apply(action).unwrap();
            let shows = Gloomhaven::shows(&before, &g.state, &events);
            let view = Gloomhaven::view(&before);
            let cell_of = |id: u32| view.figures.iter().find(|f| f.id == id).map(|f| f.cell);
            // Each path is shown hex by hex from where the figure stood, on cells of the board.
            let mut at: Vec<(u32, (i32, i32))> = Vec::new();
            for s in &shows {
                if let Show::Step { figure, from, to } = s {
                    let expected = at
                        .iter()
                        .rev()
                        .find(|(f, _)| f == figure)
                        .map(|(_, c)| *c)
                        .or_else(|| cell_of(*figure));
                    assert_eq!(
                        Some(*from),
                        expected,
                        "{name}: a step starts where the last ended"
                    );
                    assert!(
                        view.cells.iter().any(|c| c.key == *to),
                        "{to:?} is on the board"
                    );
                    at.push((*figure, *to));
                    steps += 1;
                }
            }
            let path_hexes: usize = events
                .iter()
                .map(|e| match e {
                    Event::PathChosen { path, .. } => path.len(),
                    _ => 0,
                })
                .sum();
            assert_eq!(at.len(), path_hexes, "{name}: one step per hex entered");
            for e in &events {
                match e {
                    Event::FoeTargeted { focus, .. } if !focus.is_empty() => {
                        assert!(shows.iter().any(|s| matches!(s, Show::Aim { .. })));
                        aims += 1;
                    }
                    Event::CardsDrawn { cards, .. } => {
                        let words = format!("draws {}", cards.join(", "));
                        assert!(
                            shows.iter().any(
                                |s| matches!(s, Show::Over { text, .. } if text.starts_with(&words))
                            ),
                            "{words} is shown over the attacker"
                        );
                        draws += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(matches!(
            Gloomhaven::to_move(&g.state),
            foehold_core::rules::ToMove::Over { .. }
        ));
    }
    assert!(
        steps > 50 && aims > 20 && draws > 20,
        "{steps} steps, {aims} aims, {draws} draws"
    );
}
