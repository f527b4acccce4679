//! The table's controls of the game as a whole, from the windows and the keys: undo and redo by
//! player decision (Ctrl+Z, Ctrl+Y), a jump in the history, pause and step (Space, `.`), the dice
//! breaking a tie (R), the replay of the rules' last run, save and load.

use bevy::prelude::*;
use foehold_core::game::save::Save;
use foehold_core::rules::ToMove;
use foehold_loop::{CoreGame, SubmitAction};

use super::follow::{Record, Seen};
use super::{Control, Keeping, Pace, dice_pick};
use crate::modules::Module;

/// Whether Ctrl is held for a shortcut this frame. A quick Ctrl+Z at a low frame rate presses and
/// releases Ctrl within one frame, so a Ctrl released this frame counts as held.
pub fn ctrl_held(keys: &ButtonInput<KeyCode>) -> bool {
    let ctrls = [KeyCode::ControlLeft, KeyCode::ControlRight];
    keys.any_pressed(ctrls) || keys.any_just_released(ctrls)
}

/// The keys of the table as controls, unless the players are typing in a text field.
fn keyed(keys: &ButtonInput<KeyCode>, pace: &mut Pace) -> Vec<Control> {
    let mut wanted = Vec::new();
    let ctrl = ctrl_held(keys);
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        wanted.push(Control::Undo);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        wanted.push(Control::Redo);
    }
    if keys.just_pressed(KeyCode::KeyR) && !ctrl {
        wanted.push(Control::Dice);
    }
    if keys.just_pressed(KeyCode::Space) {
        pace.paused = !pace.paused;
    }
    if keys.just_pressed(KeyCode::Period) {
        pace.step = true;
    }
    wanted
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
pub fn controls<R: Module>(
    mut commands: Commands,
    mut controls: MessageReader<Control>,
    keys: Res<ButtonInput<KeyCode>>,
    typing: Option<Res<crate::app::focus::Typing>>,
    mut game: ResMut<CoreGame<R>>,
    mut pace: ResMut<Pace>,
    mut seen: ResMut<Seen<R>>,
    mut record: ResMut<Record<R>>,
    mut keeping: ResMut<Keeping>,
    seats: Res<super::Seats>,
    mut submit: MessageWriter<SubmitAction<R>>,
) {
    let mut wanted: Vec<Control> = controls.read().cloned().collect();
    if !typing.is_some_and(|t| t.0) {
        wanted.extend(keyed(&keys, &mut pace));
    }
    for c in wanted {
        let g = &mut game.0;
        let moved = match c {
            Control::Undo => {
                let moved = g.go_to(g.decision_before());
                if !moved {
                    pace.say("nothing to undo");
                }
                moved
            }
            Control::Redo => {
                let moved = g.go_to(g.decision_after());
                if !moved {
                    pace.say("nothing to redo");
                }
                moved
            }
            Control::JumpTo(n) => g.go_to(n),
            Control::ReplayRules => {
                match record.before.clone() {
                    Some((state, _)) if !record.steps.is_empty() => {
                        record.replay = Some((state, record.steps.clone()));
                        pace.wait = 0.5;
                    }
                    _ => pace.say("no run of the rules to replay yet"),
                }
                false
            }
            Control::Dice => {
                // Only a tie the players break: a hero's own choice stays the player's.
                if let Some(a) = dice_pick(g) {
                    submit.write(SubmitAction(a));
                }
                false
            }
            Control::Save(path) => {
                match super::keep::write(g, &seats, &path, false) {
                    Ok(()) => {
                        keeping.saved_at = Some(g.cursor);
                        pace.say(format!("saved to {}", path.display()));
                    }
                    Err(e) => pace.say(format!("could not save {}: {e}", path.display())),
                }
                false
            }
            Control::Load(path) => {
                match Save::<R>::load(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|s| {
                        let seats = s.seats.clone();
                        s.replay(&path).map(|g| (g, seats))
                    }) {
                    Ok((loaded, seated)) => {
                        let said = format!("loaded {}", path.display());
                        commands.queue(move |world: &mut World| {
                            super::open::install::<R>(world, loaded, true);
                            super::open::reseat(world, seated);
                            world.resource_mut::<Pace>().say(said);
                        });
                    }
                    // The game on the table stays as it was.
                    Err(e) => pace.say(format!("could not load: {e}")),
                }
                false
            }
        };
        if moved {
            // Going back never lets the rules run on into the undone future by themselves: the
            // players say when (Play), so a redo still finds it.
            let rules_next = !matches!(
                g.to_move(),
                ToMove::Heroes(_) | ToMove::Tie { .. } | ToMove::Over { .. }
            );
            if g.cursor < g.log.len() && rules_next && !pace.paused {
                pace.paused = true;
                pace.say(
                    "paused after going back: Play (Space) lets the rules go on, Redo steps forward",
                );
            }
            seen.rewound = true;
            record.replay = None;
        }
    }
}
