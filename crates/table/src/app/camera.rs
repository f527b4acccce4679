//! The table camera: orbit (right drag, Q/E), pan (middle drag, WASD/arrows), zoom (wheel, +/-), and a
//! smooth snap to the active figure (F, or whenever the turn passes to another figure).
#![expect(
    clippy::disallowed_methods,
    reason = "the camera orbits and eases with trig and exp; it draws, it decides nothing"
)]

use bevy::input::ButtonState;
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::WindowEvent;
use bevy_egui::EguiContexts;
use bevy_egui::input::EguiWantsInput;

use super::table::Table;

/// Where the camera looks from, as an orbit around a focus point on the table.
#[derive(Resource, Debug, Clone)]
pub struct Orbit {
    pub focus: Vec3,
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
    /// Where `focus` glides to (snaps are animated).
    pub goal: Vec3,
}

impl Orbit {
    fn transform(&self) -> Transform {
        let dir = Vec3::new(
            self.yaw.sin() * self.pitch.cos(),
            self.pitch.sin(),
            self.yaw.cos() * self.pitch.cos(),
        );
        Transform::from_translation(self.focus + dir * self.distance)
            .looking_at(self.focus, Vec3::Y)
    }
}

/// Ask the camera to glide to a figure's cell.
#[derive(Message, Debug, Clone, Copy)]
pub struct SnapTo(pub Vec3);

#[derive(Component)]
pub struct TableCamera;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SnapTo>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, (controls, snap_on_turn, apply).chain());
}

fn spawn_camera(mut commands: Commands, table: Res<Table>) {
    let (centre, radius) = table.board.bounds();
    let orbit = Orbit {
        focus: centre,
        goal: centre,
        yaw: 0.0,
        pitch: 0.95,
        distance: radius * 2.1 + 3.0,
    };
    commands.spawn((
        Camera3d::default(),
        orbit.transform(),
        TableCamera,
        Msaa::Sample4,
    ));
    commands.insert_resource(orbit);
}

/// The drags in progress: where the pointer is and which buttons went down on the board.
///
/// Drags follow the pointer across the window rather than raw device motion, which X servers do
/// not report for every pointer (a tablet, a remote desktop, synthetic input). The window's events
/// are replayed in order, so a drag that starts, moves and ends within one slow frame still turns
/// the camera, and the way to where a button went down is no part of the drag.
#[derive(Default)]
pub struct Drag {
    pointer: Option<Vec2>,
    orbiting: bool,
    panning: bool,
}

impl Drag {
    /// Follows this frame's window events; gives the pointer's travel with the right button held
    /// (orbit) and with the middle one held (pan). A press where `over_window` says a window is
    /// starts no drag.
    fn follow<'a>(
        &mut self,
        events: impl Iterator<Item = &'a WindowEvent>,
        over_window: impl Fn(Vec2) -> bool,
    ) -> (Vec2, Vec2) {
        let (mut turn, mut pan) = (Vec2::ZERO, Vec2::ZERO);
        for e in events {
            match e {
                WindowEvent::CursorMoved(m) => {
                    if let Some(before) = self.pointer {
                        let d = m.position - before;
                        if self.orbiting {
                            turn += d;
                        }
                        if self.panning {
                            pan += d;
                        }
                    }
                    self.pointer = Some(m.position);
                }
                WindowEvent::CursorLeft(_) => self.pointer = None,
                WindowEvent::MouseButtonInput(b) => {
                    let down = b.state == ButtonState::Pressed
                        && self.pointer.is_some_and(|p| !over_window(p));
                    match b.button {
                        MouseButton::Right => self.orbiting = down,
                        MouseButton::Middle => self.panning = down,
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        (turn, pan)
    }
}

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn controls(
    mut orbit: ResMut<Orbit>,
    keys: Res<ButtonInput<KeyCode>>,
    mut events: MessageReader<WindowEvent>,
    mut held: Local<Drag>,
    mut contexts: EguiContexts,
    scroll: Res<AccumulatedMouseScroll>,
    egui: Option<Res<EguiWantsInput>>,
    typing: Option<Res<super::focus::Typing>>,
    time: Res<Time>,
    table: Res<Table>,
    mut snaps: MessageWriter<SnapTo>,
) {
    let egui_pointer = egui.as_ref().is_some_and(|e| e.wants_any_pointer_input());
    let typing = typing.is_some_and(|t| t.0);
    let dt = time.delta_secs();
    // Windows stay where they were drawn, so this answers for where a button goes down now; egui's
    // own "wants the pointer" is a frame late.
    let ctx = contexts.ctx_mut().ok();
    let over_window = |p: Vec2| ctx.as_ref().is_some_and(|c| super::focus::window_at(c, p));
    let (turn, pan) = held.follow(events.read(), over_window);
    if turn != Vec2::ZERO {
        orbit.yaw -= turn.x * 0.006;
        orbit.pitch = (orbit.pitch + turn.y * 0.006).clamp(0.2, 1.5);
    }
    if pan != Vec2::ZERO {
        let pan = pan_vector(orbit.yaw, Vec2::new(-pan.x, -pan.y)) * orbit.distance * 0.0015;
        orbit.goal += pan;
        orbit.focus += pan;
    }
    if !egui_pointer {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        orbit.distance = (orbit.distance * (1.0 - lines * 0.1)).clamp(3.0, 60.0);
    }
    if !typing {
        let mut pan = Vec2::ZERO;
        for (k, d) in [
            (KeyCode::KeyW, Vec2::Y),
            (KeyCode::ArrowUp, Vec2::Y),
            (KeyCode::KeyS, -Vec2::Y),
            (KeyCode::ArrowDown, -Vec2::Y),
            (KeyCode::KeyA, -Vec2::X),
            (KeyCode::ArrowLeft, -Vec2::X),
            (KeyCode::KeyD, Vec2::X),
            (KeyCode::ArrowRight, Vec2::X),
        ] {
            if keys.pressed(k) {
                pan += d;
            }
        }
        let step = pan_vector(orbit.yaw, Vec2::new(pan.x, -pan.y)) * orbit.distance * 0.8 * dt;
        orbit.goal += step;
        orbit.focus += step;
        if keys.pressed(KeyCode::KeyQ) {
            orbit.yaw += 1.5 * dt;
        }
        if keys.pressed(KeyCode::KeyE) {
            orbit.yaw -= 1.5 * dt;
        }
        if keys.pressed(KeyCode::Equal) || keys.pressed(KeyCode::NumpadAdd) {
            orbit.distance = (orbit.distance * (1.0 - dt)).max(3.0);
        }
        if keys.pressed(KeyCode::Minus) || keys.pressed(KeyCode::NumpadSubtract) {
            orbit.distance = (orbit.distance * (1.0 + dt)).min(60.0);
        }
        if keys.just_pressed(KeyCode::KeyF)
            && let Some(f) = table.active.and_then(|id| table.figure(id))
        {
            snaps.write(SnapTo(table.board.world(f.cell)));
        }
        if keys.just_pressed(KeyCode::Home) {
            snaps.write(SnapTo(table.board.bounds().0));
        }
    }
}

/// Screen-space movement turned into a table-plane movement for the current yaw.
fn pan_vector(yaw: f32, screen: Vec2) -> Vec3 {
    let right = Vec3::new(yaw.cos(), 0.0, -yaw.sin());
    let forward = Vec3::new(-yaw.sin(), 0.0, -yaw.cos());
    right * screen.x - forward * screen.y
}

/// Glides to the figure whose turn begins (not at start-up: the first view frames the whole board).
fn snap_on_turn(
    table: Res<Table>,
    mut last: Local<Option<Option<u32>>>,
    mut snaps: MessageWriter<SnapTo>,
) {
    if last.is_none() {
        *last = Some(table.active);
    }
    if Some(table.active) != *last {
        *last = Some(table.active);
        if let Some(f) = table.active.and_then(|id| table.figure(id)) {
            snaps.write(SnapTo(table.board.world(f.cell)));
        }
    }
}

fn apply(
    mut orbit: ResMut<Orbit>,
    mut snaps: MessageReader<SnapTo>,
    time: Res<Time>,
    mut cam: Query<&mut Transform, With<TableCamera>>,
) {
    if let Some(s) = snaps.read().last() {
        orbit.goal = s.0;
    }
    let k = 1.0 - (-6.0 * time.delta_secs()).exp();
    let goal = orbit.goal;
    orbit.focus = orbit.focus.lerp(goal, k);
    for mut t in &mut cam {
        *t = orbit.transform();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::mouse::MouseButtonInput;
    use bevy::window::CursorMoved;

    fn moved(x: f32, y: f32) -> WindowEvent {
        WindowEvent::CursorMoved(CursorMoved {
            window: Entity::PLACEHOLDER,
            position: Vec2::new(x, y),
            delta: None,
        })
    }

    fn button(button: MouseButton, state: ButtonState) -> WindowEvent {
        WindowEvent::MouseButtonInput(MouseButtonInput {
            button,
            state,
            window: Entity::PLACEHOLDER,
        })
    }

    #[test]
    fn a_drag_within_one_frame_turns_by_the_travel_after_the_press_only() {
        let mut drag = Drag::default();
        // The pointer jumps to where the button goes down, drags 120 px right, lets go, moves on.
        let frame = [
            moved(100.0, 100.0),
            moved(700.0, 650.0),
            button(MouseButton::Right, ButtonState::Pressed),
            moved(760.0, 650.0),
            moved(820.0, 640.0),
            button(MouseButton::Right, ButtonState::Released),
            moved(900.0, 700.0),
        ];
        let (turn, pan) = drag.follow(frame.iter(), |_| false);
        assert_eq!(turn, Vec2::new(120.0, -10.0));
        assert_eq!(pan, Vec2::ZERO);
        // A middle drag that goes on into the next frame pans in both.
        let (_, a) = drag.follow(
            [
                button(MouseButton::Middle, ButtonState::Pressed),
                moved(910.0, 700.0),
            ]
            .iter(),
            |_| false,
        );
        let (_, b) = drag.follow([moved(930.0, 690.0)].iter(), |_| false);
        assert_eq!((a, b), (Vec2::new(10.0, 0.0), Vec2::new(20.0, -10.0)));
        // A press over a window (here: the top left corner) starts no drag; one beside it does.
        let window = |p: Vec2| p.x < 50.0 && p.y < 50.0;
        let mut drag = Drag::default();
        let (turn, _) = drag.follow(
            [
                moved(10.0, 10.0),
                button(MouseButton::Right, ButtonState::Pressed),
                moved(60.0, 10.0),
                button(MouseButton::Right, ButtonState::Released),
                moved(300.0, 300.0),
                button(MouseButton::Right, ButtonState::Pressed),
                moved(310.0, 300.0),
            ]
            .iter(),
            window,
        );
        assert_eq!(turn, Vec2::new(10.0, 0.0));
    }
}
