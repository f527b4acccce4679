//! Every module's table shows the scenario's goal and how it stands, at every step of a game: the
//! foes it counts are the foes on the board.

use std::path::Path;

use foehold_core::game::check::seeded_game;
use foehold_core::rules::Present;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::view::{Side, TableView};

/// The number after `prefix` in the goal panel's line that starts with it.
fn counted(view: &TableView, prefix: &str) -> Option<usize> {
    let goal = view.panels.iter().find(|p| p.title == "The goal")?;
    let line = goal.lines.iter().find(|l| l.starts_with(prefix))?;
    line[prefix.len()..].split_whitespace().next()?.parse().ok()
}

/// Plays `scenario` with the seeded ties and the autopilot, checking the goal panel at every
/// step against the foes standing in the view; returns how many steps it showed a count.
fn follow<R: Present>(scenario: &str, seed: u64, prefix: &str) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(scenario);
    let mut game = seeded_game::<R>(&path, seed).unwrap_or_else(|e| panic!("{e}"));
    let mut counted_steps = 0;
    for _ in 0..5_000 {
        let view = R::view(&game.state);
        assert!(
            view.panels.iter().any(|p| p.title == "The goal"),
            "{scenario}: no goal panel"
        );
        if let Some(n) = counted(&view, prefix) {
            let standing = view
                .figures
                .iter()
                .filter(|f| f.side == Side::Foe && f.hp > 0)
                .count();
            assert_eq!(
                n, standing,
                "{scenario}: the goal counts the foes on the board"
            );
            counted_steps += 1;
        }
        let Some(a) = game.automatic(true, true) else {
            break;
        };
        game.apply(a).expect("an automatic action is legal");
    }
    counted_steps
}

#[test]
fn the_goal_panel_counts_the_foes_standing_at_every_step() {
    assert!(follow::<Gloomhaven>("sunken-kiln.ron", 1, "Monsters left:") > 20);
    assert!(follow::<Brimstone>("cinder-adit.ron", 1, "Enemies standing:") > 20);
    assert!(follow::<Brimstone>("cinder-adit-ambush.ron", 3, "Enemies standing:") > 20);
    // The goal-priority module's goal counts adventures, not foes: its panel is there.
    follow::<Goals>("dome-crossing.ron", 1, "no count");
}
