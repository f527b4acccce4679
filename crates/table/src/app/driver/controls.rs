//! The table's controls of the game as a whole, from the windows and the keys: undo and redo by
//! player decision (Ctrl+Z, Ctrl+Y), a jump in the history, pause and step (Space, `.`), the dice
//! breaking a tie (R), the replay of the rules' last run, save and load.

use bevy::input::ButtonState;
use bevy::prelude::*;
use bevy::window::WindowEvent;
use foehold_core::game::save::Save;
use foehold_core::rules::ToMove;
use foehold_loop::{CoreGame, LoopSettings, SubmitAction};

use super::follow::{Record, Seen};
use super::{Control, Keeping, Pace, dice_pick};
use crate::modules::Module;

use crate::app::focus::ctrl_held;

/// A key of the table's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// Ctrl+Z.
    Undo,
    /// Ctrl+Y.
    Redo,
    /// R: the dice break the tie.
    Dice,
    /// Space.
    Pause,
    /// `.`: one step of the rules.
    Step,
}

/// The table's keys pressed this frame, with the key that made each.
fn keyed(keys: &ButtonInput<KeyCode>) -> Vec<(Key, KeyCode)> {
    let ctrl = ctrl_held(keys);
    [
        (ctrl, KeyCode::KeyZ, Key::Undo),
        (ctrl, KeyCode::KeyY, Key::Redo),
        (!ctrl, KeyCode::KeyR, Key::Dice),
        (true, KeyCode::Space, Key::Pause),
        (true, KeyCode::Period, Key::Step),
    ]
    .into_iter()
    .filter(|&(when, code, _)| when && keys.just_pressed(code))
    .map(|(_, code, key)| (key, code))
    .collect()
}

/// The keys pressed after a click within this frame's window events. egui tells of a window's
/// button clicked only after `Update`, so what the click asked reaches the game a frame later: a
/// key pressed after it waits as long, to come after it.
fn pressed_after_a_click<'a>(events: impl Iterator<Item = &'a WindowEvent>) -> Vec<KeyCode> {
    let mut clicked = false;
    let mut after = Vec::new();
    for e in events {
        match e {
            WindowEvent::MouseButtonInput(b)
                if b.button == MouseButton::Left && b.state == ButtonState::Released =>
            {
                clicked = true;
            }
            WindowEvent::KeyboardInput(k)
                if clicked && k.state == ButtonState::Pressed && !k.repeat =>
            {
                after.push(k.key_code);
            }
            _ => {}
        }
    }
    after
}

/// The table's keys in the order the players pressed them among their clicks: `now` for this
/// frame (those a frame late first), `next` for the keys that wait for a click of this frame.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Keys {
    pub now: Vec<Key>,
    next: Vec<Key>,
}

/// Reads the table's keys of this frame, unless the players are typing in a text field.
pub fn read_keys(
    mut keys: ResMut<Keys>,
    input: Res<ButtonInput<KeyCode>>,
    mut events: MessageReader<WindowEvent>,
    typing: Option<Res<crate::app::focus::Typing>>,
) {
    let late = pressed_after_a_click(events.read());
    let mut now = std::mem::take(&mut keys.next);
    let mut next = Vec::new();
    if !typing.is_some_and(|t| t.0) {
        for (key, code) in keyed(&input) {
            if late.contains(&code) {
                next.push(key);
            } else {
                now.push(key);
            }
        }
    }
    let read = Keys { now, next };
    keys.set_if_neq(read);
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
pub fn controls<R: Module>(
    mut commands: Commands,
    mut controls: MessageReader<Control>,
    keys: Res<Keys>,
    mut game: ResMut<CoreGame<R>>,
    mut pace: ResMut<Pace>,
    mut seen: ResMut<Seen<R>>,
    mut record: ResMut<Record<R>>,
    mut keeping: ResMut<Keeping>,
    seats: Res<super::Seats>,
    mut submit: MessageWriter<SubmitAction<R>>,
    (settings, mut ask_undo): (Res<LoopSettings>, MessageWriter<super::AskUndo>),
    (mut notice, mut store, mine): (
        ResMut<crate::app::notice::Notice>,
        ResMut<crate::app::store::Store>,
        Option<Res<crate::app::store::Mine>>,
    ),
) {
    // The windows' requests came before this frame's keys: egui tells of them a frame late.
    let mut wanted: Vec<Control> = controls.read().cloned().collect();
    for key in &keys.now {
        match key {
            Key::Undo => wanted.push(Control::Undo),
            Key::Redo => wanted.push(Control::Redo),
            Key::Dice => wanted.push(Control::Dice),
            Key::Pause => pace.paused = !pace.paused,
            Key::Step => pace.step = true,
        }
    }
    for c in wanted {
        // Online, the host holds the game: an undo is asked of it, and this table does not move
        // through the log by itself.
        if settings.held_elsewhere {
            match c {
                Control::Undo => {
                    ask_undo.write(super::AskUndo);
                    continue;
                }
                Control::Redo | Control::JumpTo(_) | Control::Load(_) => {
                    pace.say("not in an online game: the host keeps the log (Undo asks the host)");
                    continue;
                }
                _ => {}
            }
        }
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
                match dice_pick(g, settings.table_draws) {
                    Ok(Some(a)) => {
                        submit.write(SubmitAction(a));
                    }
                    Ok(None) => {}
                    Err(why) => pace.say(why),
                }
                false
            }
            Control::Save(path) => {
                match super::keep::write(store.0.as_mut(), g, &seats, &path, false) {
                    Ok(()) => {
                        keeping.saved_at = Some(g.cursor);
                        notice.done(format!("the game is saved to {}", path.display()));
                    }
                    Err(e) => notice.failed(format!("could not save {e}")),
                }
                false
            }
            Control::Load(path) => {
                match Save::<R>::load(store.0.as_ref(), &path)
                    .map_err(|e| e.to_string())
                    .and_then(|s| {
                        let seats = s.seats.clone();
                        // A scenario of the player's own monsters replays with them.
                        let library = mine.as_ref().map(|m| m.library(&store)).unwrap_or_default();
                        s.replay_in(store.0.as_ref(), &path, &library)
                            .map(|g| (g, seats))
                    }) {
                    Ok((loaded, seated)) => {
                        let said = format!("loaded {}", path.display());
                        commands.queue(move |world: &mut World| {
                            crate::app::screen::arrive(world, move |world| {
                                super::open::install::<R>(world, loaded, true);
                                super::open::reseat(world, seated);
                                world.resource_mut::<Pace>().say(said);
                            });
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
