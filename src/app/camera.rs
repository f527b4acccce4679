//! The table camera: orbit (right drag, Q/E), pan (middle drag, WASD/arrows), zoom (wheel, +/-), and a
//! smooth snap to the active figure (F, or whenever the turn passes to another figure).
#![expect(
    clippy::disallowed_methods,
    reason = "the camera orbits and eases with trig and exp; it draws, it decides nothing"
)]

use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
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

#[expect(
    clippy::too_many_arguments,
    reason = "a Bevy system takes one parameter per resource, query and message it uses"
)]
fn controls(
    mut orbit: ResMut<Orbit>,
    keys: Res<ButtonInput<KeyCode>>,
    buttons: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut last_pointer: Local<Option<Vec2>>,
    scroll: Res<AccumulatedMouseScroll>,
    egui: Option<Res<EguiWantsInput>>,
    typing: Option<Res<super::ui::Typing>>,
    time: Res<Time>,
    table: Res<Table>,
    mut snaps: MessageWriter<SnapTo>,
) {
    let egui_pointer = egui.as_ref().is_some_and(|e| e.wants_any_pointer_input());
    let typing = typing.is_some_and(|t| t.0);
    let dt = time.delta_secs();
    // Drags follow the pointer across the window rather than raw device motion, which X servers
    // do not report for every pointer (a tablet, a remote desktop, synthetic input).
    let pointer = windows.single().ok().and_then(Window::cursor_position);
    let drag = match (pointer, *last_pointer) {
        (Some(now), Some(before)) => now - before,
        _ => Vec2::ZERO,
    };
    *last_pointer = pointer;
    // A drag starts where the button went down: the way there is no part of it.
    let dragging = |b: MouseButton| buttons.pressed(b) && !buttons.just_pressed(b);
    if !egui_pointer {
        if dragging(MouseButton::Right) {
            orbit.yaw -= drag.x * 0.006;
            orbit.pitch = (orbit.pitch + drag.y * 0.006).clamp(0.2, 1.5);
        }
        if dragging(MouseButton::Middle) {
            let pan = pan_vector(orbit.yaw, Vec2::new(-drag.x, -drag.y)) * orbit.distance * 0.0015;
            orbit.goal += pan;
            orbit.focus += pan;
        }
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
