//! The table camera: orbit (right drag, Q/E), pan (middle drag, WASD/arrows), zoom (wheel, +/-). It
//! frames the whole board when a game goes on the table (and again at Home), and glides to keep
//! what a turn involves in view: the acting figure, those it aims at and the path it walks (F
//! glides to the acting figure).
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

use super::screen::Screen;
use super::shown::Shown;
use super::table::Table;
use super::view::{CellKey, plane_to_world};

/// Where the camera looks from, as an orbit around a focus point on the table.
#[derive(Resource, Debug, Clone)]
pub struct Orbit {
    pub focus: Vec3,
    pub yaw: f32,
    pub pitch: f32,
    pub distance: f32,
    /// Where `focus` glides to (snaps are animated).
    pub goal: Vec3,
    /// Where `distance` glides to, when the camera frames something; the players' zoom stops it.
    pub reach: Option<f32>,
    /// The view still frames the whole board as it was put on the table: folding a dock or
    /// resizing the window frames it again.
    pub whole_board: bool,
}

impl Orbit {
    /// Where the camera will be once its glide is over.
    fn goal_transform(&self) -> Transform {
        Orbit {
            focus: self.goal,
            distance: self.reach.unwrap_or(self.distance),
            ..self.clone()
        }
        .transform()
    }

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

/// What a turn involves stays this far inside the edges of the board's view (a fraction of its
/// size): nearer the edge, the camera glides.
const INSET: f32 = 0.08;
/// How high over its cell a figure's head is: a figure is in view when its head and its cell are.
const HEAD: f32 = 1.7;

/// A view the camera could take: where from, with which lens, on a view of which shape.
#[derive(Debug, Clone, Copy)]
pub struct Lens {
    /// The vertical field of view, in radians.
    pub fov: f32,
    /// The view's width over its height.
    pub aspect: f32,
}

impl Lens {
    /// Whether every point lies in front of a camera at `at`, inside the view shrunk by `inset` (a
    /// fraction of its size) on each side. The camera's own matrices lag a frame behind a change
    /// of the view's shape; this projection does not.
    pub fn shows(&self, at: &Transform, points: &[Vec3], inset: f32) -> bool {
        let half_y = (self.fov / 2.0).tan();
        let half_x = half_y * self.aspect;
        let edge = 1.0 - 2.0 * inset;
        let to_view = at.compute_affine().inverse();
        points.iter().all(|p| {
            let v = to_view.transform_point3(*p);
            // The camera looks down its -z axis.
            let depth = -v.z;
            depth > 0.1
                && (v.x / depth / half_x).abs() <= edge
                && (v.y / depth / half_y).abs() <= edge
        })
    }

    /// The nearest distance from which an orbit looking at `centre` shows every point with the
    /// `inset`; the farthest the camera goes if none does.
    pub fn fit(&self, orbit: &Orbit, centre: Vec3, points: &[Vec3], inset: f32) -> f32 {
        let at = |distance: f32| {
            Orbit {
                focus: centre,
                distance,
                ..orbit.clone()
            }
            .transform()
        };
        let (mut near, mut far) = (MIN_DISTANCE, MAX_DISTANCE);
        if self.shows(&at(near), points, inset) {
            return near;
        }
        // Further away, the points shrink towards the view's middle: halve the gap.
        for _ in 0..24 {
            let mid = (near + far) / 2.0;
            if self.shows(&at(mid), points, inset) {
                far = mid;
            } else {
                near = mid;
            }
        }
        far
    }
}

/// How near and how far the camera may be from what it looks at.
const MIN_DISTANCE: f32 = 3.0;
const MAX_DISTANCE: f32 = 60.0;

/// The middle of points on the table, as the middle of the box around them.
fn middle(points: &[Vec3]) -> Option<Vec3> {
    let first = *points.first()?;
    let (lo, hi) = points
        .iter()
        .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    Some(Vec3::new((lo.x + hi.x) / 2.0, 0.0, (lo.z + hi.z) / 2.0))
}

#[derive(Component)]
pub struct TableCamera;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SnapTo>()
        .add_systems(Startup, spawn_camera)
        .add_systems(OnEnter(Screen::Table), frame_new_board)
        .add_systems(Update, (controls, frame_board, keep_in_view, apply).chain());
}

/// The camera, framing the first board (again once the docks give the board its part of the
/// window).
fn spawn_camera(mut commands: Commands, table: Res<Table>, options: Res<super::Options>) {
    let (centre, _) = table.board.bounds();
    let mut orbit = Orbit {
        focus: centre,
        goal: centre,
        yaw: 0.0,
        pitch: 0.95,
        distance: 10.0,
        reach: None,
        whole_board: false,
    };
    frame_whole_board(&mut orbit, &table, None);
    orbit.distance = orbit.reach.unwrap_or(orbit.distance);
    commands.spawn((
        Camera3d::default(),
        orbit.transform(),
        TableCamera,
        if options.quick_render() {
            Msaa::Off
        } else {
            Msaa::Sample4
        },
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
    cameras: Query<(&Camera, &Projection), With<TableCamera>>,
) {
    let board = cameras
        .single()
        .ok()
        .and_then(|(c, _)| c.logical_viewport_rect());
    let on_board = |p: Vec2| board.is_none_or(|r| r.contains(p));
    let egui_pointer = egui.as_ref().is_some_and(|e| e.wants_any_pointer_input());
    let typing = typing.is_some_and(|t| t.0);
    let dt = time.delta_secs();
    // Windows stay where they were drawn, so this answers for where a button goes down now; egui's
    // own "wants the pointer" is a frame late.
    let ctx = contexts.ctx_mut().ok();
    // A press on a dock is not on the board either.
    let over_window =
        |p: Vec2| ctx.as_ref().is_some_and(|c| super::focus::window_at(c, p)) || !on_board(p);
    let (turn, pan) = held.follow(events.read(), over_window);
    let before = (orbit.yaw, orbit.pitch, orbit.distance, orbit.goal);
    if turn != Vec2::ZERO {
        orbit.yaw -= turn.x * 0.006;
        orbit.pitch = (orbit.pitch + turn.y * 0.006).clamp(0.2, 1.5);
    }
    if pan != Vec2::ZERO {
        let pan = pan_vector(orbit.yaw, Vec2::new(-pan.x, -pan.y)) * orbit.distance * 0.0015;
        orbit.goal += pan;
        orbit.focus += pan;
    }
    if !egui_pointer && held.pointer.is_some_and(on_board) {
        let lines = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
        };
        orbit.distance = (orbit.distance * (1.0 - lines * 0.1)).clamp(MIN_DISTANCE, MAX_DISTANCE);
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
            orbit.distance = (orbit.distance * (1.0 - dt)).max(MIN_DISTANCE);
        }
        if keys.pressed(KeyCode::Minus) || keys.pressed(KeyCode::NumpadSubtract) {
            orbit.distance = (orbit.distance * (1.0 + dt)).min(MAX_DISTANCE);
        }
        if keys.just_pressed(KeyCode::KeyF)
            && let Some(f) = table.active.and_then(|id| table.figure(id))
        {
            snaps.write(SnapTo(table.board.world(f.cell)));
        }
        if keys.just_pressed(KeyCode::Home) {
            orbit.whole_board = false;
            frame_whole_board(&mut orbit, &table, cameras.single().ok());
        }
    }
    // The players moved the view: it is theirs until something must be framed.
    if (orbit.yaw, orbit.pitch, orbit.distance, orbit.goal) != before {
        orbit.reach = None;
        orbit.whole_board = false;
    }
}

/// Screen-space movement turned into a table-plane movement for the current yaw.
fn pan_vector(yaw: f32, screen: Vec2) -> Vec3 {
    let right = Vec3::new(yaw.cos(), 0.0, -yaw.sin());
    let forward = Vec3::new(-yaw.sin(), 0.0, -yaw.cos());
    right * screen.x - forward * screen.y
}

/// The lens of a perspective camera on its view, once it has a size.
fn lens(camera: &Camera, projection: &Projection) -> Option<Lens> {
    let Projection::Perspective(p) = projection else {
        return None;
    };
    let size = camera.logical_viewport_size()?;
    (size.y > 0.0).then(|| Lens {
        fov: p.fov,
        aspect: size.x / size.y,
    })
}

/// Frames the whole board, every cell's corners in view.
fn frame_whole_board(orbit: &mut Orbit, table: &Table, camera: Option<(&Camera, &Projection)>) {
    let lens = camera.and_then(|(c, p)| lens(c, p)).unwrap_or(Lens {
        fov: std::f32::consts::FRAC_PI_4,
        aspect: 1.0,
    });
    let corners: Vec<Vec3> = table
        .board
        .cells
        .iter()
        .flat_map(|c| c.corners.iter().map(|k| plane_to_world(*k)))
        .collect();
    let centre = middle(&corners).unwrap_or(Vec3::ZERO);
    orbit.goal = centre;
    orbit.reach = Some(lens.fit(orbit, centre, &corners, 0.02));
    orbit.whole_board = true;
}

/// A board put on the table is framed whole, at once: no glide from the last one's place.
fn frame_new_board(
    table: Res<Table>,
    orbit: Option<ResMut<Orbit>>,
    camera: Query<(&Camera, &Projection), With<TableCamera>>,
) {
    let Some(mut orbit) = orbit else {
        return;
    };
    frame_whole_board(&mut orbit, &table, camera.single().ok());
    orbit.focus = orbit.goal;
    orbit.distance = orbit.reach.unwrap_or(orbit.distance);
}

/// The whole board is framed again when the view changes shape (a dock folds, the window is
/// resized) while the players have not moved the camera since it was framed, and whenever the
/// board grows (a room revealed), so that the new room is in view.
fn frame_board(
    table: Res<Table>,
    mut orbit: ResMut<Orbit>,
    camera: Query<(&Camera, &Projection), With<TableCamera>>,
    mut seen: Local<Option<Vec2>>,
    mut grew: Local<u64>,
) {
    let Ok((cam, projection)) = camera.single() else {
        return;
    };
    if table.board_grew != *grew {
        *grew = table.board_grew;
        frame_whole_board(&mut orbit, &table, Some((cam, projection)));
    }
    let size = cam.logical_viewport_size();
    if *seen != size {
        *seen = size;
        if orbit.whole_board {
            frame_whole_board(&mut orbit, &table, Some((cam, projection)));
        }
    }
}

/// Keeps what the turn involves in view: the acting figure when its turn begins, then those it
/// aims at and the path it walks. The camera moves only when something would be out of view or at
/// its edge, and then glides (and draws back, if it must) to frame them all.
fn keep_in_view(
    table: Res<Table>,
    shown: Res<Shown>,
    mut orbit: ResMut<Orbit>,
    camera: Query<(&Camera, &Projection), With<TableCamera>>,
    mut last: Local<Vec<CellKey>>,
) {
    let mut cells: Vec<CellKey> = table
        .active
        .and_then(|id| table.figure(id))
        .map(|f| f.cell)
        .into_iter()
        .collect();
    if let Some((by, at)) = &shown.focus {
        cells.extend(
            std::iter::once(by)
                .chain(at)
                .filter_map(|id| table.figure(*id))
                .map(|f| f.cell),
        );
    }
    cells.extend(shown.path.iter().copied());
    if *last == cells {
        return;
    }
    last.clone_from(&cells);
    let Some(lens) = camera.single().ok().and_then(|(c, p)| lens(c, p)) else {
        return;
    };
    // A figure's cell and its head.
    let points: Vec<Vec3> = cells
        .iter()
        .map(|c| table.board.world(*c))
        .flat_map(|p| [p, p + Vec3::Y * HEAD])
        .collect();
    // The whole board's frame holds figures at its very edge: they are in view.
    let inset = if orbit.whole_board { 0.0 } else { INSET };
    // Judged from where the camera is going: a glide under way is not undone, nor done twice.
    if lens.shows(&orbit.goal_transform(), &points, inset) {
        return;
    }
    if let Some(centre) = middle(&points) {
        // Closer only if the players had zoomed far out; further if it must.
        let reach = lens.fit(&orbit, centre, &points, INSET);
        orbit.goal = centre;
        orbit.reach = Some(orbit.distance.max(reach));
        orbit.whole_board = false;
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
        orbit.whole_board = false;
    }
    let k = 1.0 - (-6.0 * time.delta_secs()).exp();
    let goal = orbit.goal;
    orbit.focus = orbit.focus.lerp(goal, k);
    if let Some(reach) = orbit.reach {
        orbit.distance += (reach - orbit.distance) * k;
    }
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

    fn orbit() -> Orbit {
        Orbit {
            focus: Vec3::ZERO,
            goal: Vec3::ZERO,
            yaw: 0.0,
            pitch: 0.95,
            distance: 10.0,
            reach: None,
            whole_board: false,
        }
    }

    #[test]
    fn the_lens_fits_the_nearest_view_that_shows_every_point_and_a_wider_view_fits_nearer() {
        let square = Lens {
            fov: std::f32::consts::FRAC_PI_4,
            aspect: 1.0,
        };
        let o = orbit();
        // A row of cells across the table, and a figure's head over one end.
        let points = [
            Vec3::new(-6.0, 0.0, 0.0),
            Vec3::new(6.0, 0.0, 0.0),
            Vec3::new(6.0, HEAD, 0.0),
        ];
        let d = square.fit(&o, Vec3::ZERO, &points, 0.05);
        let at = |distance| {
            Orbit {
                distance,
                ..o.clone()
            }
            .transform()
        };
        assert!(square.shows(&at(d), &points, 0.05), "in view at {d}");
        assert!(
            !square.shows(&at(d * 0.95), &points, 0.05),
            "and not from nearer: {d}"
        );
        let wide = Lens {
            aspect: 2.0,
            ..square
        };
        assert!(wide.fit(&o, Vec3::ZERO, &points, 0.05) < d);
        // Behind the camera is never in view.
        assert!(!square.shows(&at(5.0), &[at(5.0).translation * 2.0], 0.0));
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
