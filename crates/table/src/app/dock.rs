//! The docks: a column left of the board for what the players do, one right of it for what the
//! table shows, and a band over it for the banner. Windows stack in their column, each in a fixed
//! slot; the board is drawn in the space left between them, so no window covers a cell.
//!
//! A column folds to a thin strip (its button, or on its own when the window is too narrow for
//! both), and each window folds to its title.
//!
//! Nothing moves under the pointer: while it is in a column, a window there that shrinks or
//! closes keeps its room until the pointer leaves the column (or points at that window itself, as
//! when folding it), so the windows below stay where the player aimed.

use std::collections::BTreeMap;

use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, Viewport};
use bevy::prelude::*;
use bevy::render::render_resource::BlendState;
use bevy::window::PrimaryWindow;
use bevy_egui::{
    EguiContexts, EguiGlobalSettings, EguiPrimaryContextPass, PrimaryEguiContext, egui,
};

use super::camera::TableCamera;
use super::tag::Tagged;

/// Where a docked window goes: its column, and its place in it (top to bottom, in this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    /// The left column: the players' own.
    Menu,
    /// Online play: the code, the seats, whom the game waits for.
    Online,
    /// What the players decide now: their moves, cards, a tie; the end of the game.
    Turn,
    /// The scenario's goal and the module's small windows (the round's override card).
    Scenario,
    History,
    /// The right column, what the table shows: first the pace of the rules' steps (small, and
    /// always within reach).
    Steps,
    Figure,
    /// A random pick spinning to its option.
    Pick,
    /// The dice tray.
    Dice,
    /// The odds of the next attack, before it is made.
    Odds,
    /// A foe's walk down its options.
    Walk,
}

/// A column of the dock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    Left,
    Right,
}

impl Slot {
    pub fn column(self) -> Column {
        match self {
            Slot::Menu | Slot::Online | Slot::Turn | Slot::Scenario | Slot::History => Column::Left,
            Slot::Figure | Slot::Pick | Slot::Dice | Slot::Odds | Slot::Walk | Slot::Steps => {
                Column::Right
            }
        }
    }
}

/// The space between and around the windows, in logical pixels.
const GAP: f32 = 6.0;
/// A folded column's strip.
const STRIP: f32 = 26.0;
/// The band over the board: the banner's two lines.
const BAND: f32 = 60.0;

/// Below this width (logical pixels) the right column starts folded; below the second, the left
/// one too (the board needs room to be clicked at all).
const NARROW: f32 = 1000.0;
const TINY: f32 = 520.0;

/// The docks' layout this frame, and the windows' heights as last drawn.
#[derive(Resource, Debug)]
pub struct Dock {
    /// The window's size, in logical pixels.
    screen: egui::Rect,
    /// Whether each column is unfolded: the players' choice, else what the window's width allows.
    chosen: [Option<bool>; 2],
    /// The width the choice was made at: crossing a threshold forgets it.
    chosen_at: f32,
    /// Each slot's room for stacking (its window's height as drawn last frame, or more while the
    /// pointer holds it), and each window's rectangle as drawn so far this frame.
    last: BTreeMap<Slot, f32>,
    drawn: BTreeMap<Slot, egui::Rect>,
    /// The windows' rectangles as drawn last frame.
    last_drawn: BTreeMap<Slot, egui::Rect>,
    /// The banner's height as last drawn: in a narrow window its lines wrap, and the band grows.
    banner: f32,
}

impl Default for Dock {
    fn default() -> Dock {
        Dock {
            screen: egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0)),
            chosen: [None, None],
            chosen_at: 0.0,
            last: BTreeMap::new(),
            drawn: BTreeMap::new(),
            last_drawn: BTreeMap::new(),
            banner: 0.0,
        }
    }
}

impl Dock {
    fn index(c: Column) -> usize {
        match c {
            Column::Left => 0,
            Column::Right => 1,
        }
    }

    /// Whether a column shows its windows.
    pub fn open(&self, c: Column) -> bool {
        let w = self.screen.width();
        let fits = match c {
            Column::Left => w >= TINY,
            Column::Right => w >= NARROW,
        };
        self.chosen[Self::index(c)].unwrap_or(fits)
    }

    /// A column's width, folded or not.
    fn width(&self, c: Column) -> f32 {
        if !self.open(c) {
            return STRIP;
        }
        let w = self.screen.width();
        // Wide windows give the board the extra room; narrow ones keep the columns readable.
        match c {
            Column::Left => (w * 0.25).clamp(230.0, 330.0),
            Column::Right => (w * 0.24).clamp(230.0, 320.0),
        }
    }

    /// A column's rectangle.
    pub fn column(&self, c: Column) -> egui::Rect {
        let s = self.screen;
        match c {
            Column::Left => {
                egui::Rect::from_min_max(s.min, egui::pos2(s.min.x + self.width(c), s.max.y))
            }
            Column::Right => {
                egui::Rect::from_min_max(egui::pos2(s.max.x - self.width(c), s.min.y), s.max)
            }
        }
    }

    /// The band over the board, for the banner.
    pub fn band(&self) -> egui::Rect {
        let (l, r) = (self.column(Column::Left), self.column(Column::Right));
        egui::Rect::from_min_max(
            egui::pos2(l.max.x, self.screen.min.y),
            egui::pos2(
                r.min.x,
                (self.screen.min.y + self.band_height()).min(self.screen.max.y),
            ),
        )
    }

    /// The band's height: the banner's two lines, more if they wrap.
    fn band_height(&self) -> f32 {
        BAND.max(self.banner + 2.0 * GAP)
    }

    /// The banner was drawn this high.
    pub fn banner_drawn(&mut self, height: f32) {
        self.banner = height;
    }

    /// Where the board is drawn: what the columns and the band leave.
    pub fn board(&self) -> egui::Rect {
        let band = self.band();
        egui::Rect::from_min_max(
            egui::pos2(band.min.x, band.max.y),
            egui::pos2(band.max.x, self.screen.max.y),
        )
    }

    /// Where a slot's window goes: its column's top, below the windows of the slots before it as
    /// they were drawn last frame; and the height left under it.
    fn place(&self, slot: Slot) -> (egui::Pos2, f32) {
        let col = self.column(slot.column());
        let above: f32 = self
            .last
            .range(..slot)
            .filter(|(s, _)| s.column() == slot.column())
            .map(|(_, h)| h + GAP)
            .sum();
        let top = col.min.y + GAP + above;
        // The column's foot holds its fold button.
        let bottom = col.max.y - STRIP - 2.0 * GAP;
        (egui::pos2(col.min.x + GAP, top), (bottom - top).max(60.0))
    }

    /// Shows a window in its slot: as wide as the column, no taller than the room under it (its
    /// contents scroll), foldable to its title. Nothing shows while the column is folded.
    pub fn show<R>(
        &mut self,
        ctx: &egui::Context,
        slot: Slot,
        window: egui::Window<'_>,
        add_contents: impl FnOnce(&mut egui::Ui) -> R,
    ) -> Option<egui::InnerResponse<Option<R>>> {
        if !self.open(slot.column()) {
            return None;
        }
        let (at, room) = self.place(slot);
        // The window's frame and margins lie outside its contents' width.
        let inner = self.width(slot.column()) - 2.0 * GAP - 14.0;
        // Sized by its contents: the default size would cap them at a few hundred pixels.
        let shown = window
            .auto_sized()
            .fixed_pos(at)
            .movable(false)
            // In its slot even when the column runs out of room: pushed up, it would cover the
            // window above; folding a window above makes room.
            .constrain(false)
            .resizable(false)
            .collapsible(true)
            .min_width(inner)
            .max_width(inner)
            .show(ctx, |ui| {
                // As tall as its contents, up to the room there is; then they scroll.
                egui::ScrollArea::vertical()
                    .id_salt(("dock", slot))
                    .max_height(room - 40.0)
                    .auto_shrink([false, true])
                    .show(ui, add_contents)
                    .inner
            });
        if let Some(r) = &shown {
            self.drawn.insert(slot, r.response.rect);
        }
        shown
    }

    /// The players fold or unfold a column.
    fn toggle(&mut self, c: Column) {
        let open = self.open(c);
        self.chosen[Self::index(c)] = Some(!open);
        self.chosen_at = self.screen.width();
    }

    /// A new frame in a window of this size, the pointer where it is: last frame's heights are the
    /// ones to stack by, except that a window in the pointer's column keeps the room it had.
    fn begin(&mut self, screen: egui::Rect, pointer: Option<egui::Pos2>) {
        let crossed = |a: f32, b: f32| [NARROW, TINY].iter().any(|&t| (a < t) != (b < t));
        if crossed(self.chosen_at, screen.width()) {
            self.chosen = [None, None];
        }
        self.screen = screen;
        let drawn = std::mem::take(&mut self.drawn);
        let now: BTreeMap<Slot, f32> = drawn.iter().map(|(&s, r)| (s, r.height())).collect();
        let slots: std::collections::BTreeSet<Slot> =
            self.last.keys().chain(now.keys()).copied().collect();
        let mut room = BTreeMap::new();
        for slot in slots {
            let held = pointer.is_some_and(|p| {
                let col = self.column(slot.column());
                let own = self.last_drawn.get(&slot).is_some_and(|r| r.contains(p));
                col.x_range().contains(p.x) && !own
            });
            let h = match (now.get(&slot), self.last.get(&slot)) {
                (Some(&h), Some(&before)) if held => Some(h.max(before)),
                (None, Some(&before)) if held => Some(before),
                (h, _) => h.copied(),
            };
            if let Some(h) = h {
                room.insert(slot, h);
            }
        }
        self.last = room;
        self.last_drawn = drawn;
    }
}

pub(super) fn plugin(app: &mut App) {
    // The windows get a camera of their own: egui sizes its screen by its camera's viewport, and
    // the board's camera draws only in what the docks leave.
    // The keyboard goes to egui by the table's own reader (`keys.rs`), key by key.
    app.insert_resource(EguiGlobalSettings {
        auto_create_primary_context: false,
        input_system_settings: bevy_egui::EguiInputSystemSettings {
            run_write_keyboard_input_messages_system: false,
            ..default()
        },
        ..default()
    })
    .add_systems(Startup, spawn_window_camera);
    app.init_resource::<Dock>().add_systems(
        EguiPrimaryContextPass,
        (arrange, folds.run_if(super::screen::at_table))
            .chain()
            .before(super::ui::Drawn),
    );
}

/// The camera egui draws the windows with, over the whole window and after the board's camera.
fn spawn_window_camera(mut commands: Commands) {
    commands.spawn((
        PrimaryEguiContext,
        Camera2d,
        // It draws nothing of the world.
        RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: CameraOutputMode::Write {
                blend_state: Some(BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

/// Lays the docks out for the window's size and draws the board in what they leave.
fn arrange(
    mut contexts: EguiContexts,
    mut dock: ResMut<Dock>,
    window: Query<&Window, With<PrimaryWindow>>,
    mut camera: Query<&mut Camera, With<TableCamera>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let pointer = ctx.input(|i| i.pointer.hover_pos());
    dock.begin(ctx.content_rect(), pointer);
    let Ok(window) = window.single() else {
        return Ok(());
    };
    let board = dock.board();
    let scale = window.scale_factor();
    let size = UVec2::new(window.physical_width(), window.physical_height());
    let min = UVec2::new(
        (board.min.x * scale).max(0.0) as u32,
        (board.min.y * scale).max(0.0) as u32,
    )
    .min(size.saturating_sub(UVec2::ONE));
    // Never empty: a window shrunk to nothing still has a board of one pixel.
    let extent = UVec2::new(
        (board.width() * scale).max(1.0) as u32,
        (board.height() * scale).max(1.0) as u32,
    )
    .min(size.saturating_sub(min))
    .max(UVec2::ONE);
    let viewport = Viewport {
        physical_position: min,
        physical_size: extent,
        ..default()
    };
    for mut c in &mut camera {
        if c.viewport
            .as_ref()
            .is_none_or(|v| (v.physical_position, v.physical_size) != (min, extent))
        {
            c.viewport = Some(viewport.clone());
        }
    }
    Ok(())
}

/// The buttons that fold and unfold the columns, at their inner edges.
fn folds(mut contexts: EguiContexts, mut dock: ResMut<Dock>) -> Result {
    let ctx = contexts.ctx_mut()?;
    for c in [Column::Left, Column::Right] {
        let col = dock.column(c);
        let open = dock.open(c);
        let (x, label) = match (c, open) {
            (Column::Left, true) => (col.max.x - STRIP, "◀"),
            (Column::Left, false) => (col.min.x + 2.0, "▶"),
            (Column::Right, true) => (col.min.x, "▶"),
            (Column::Right, false) => (col.min.x + 2.0, "◀"),
        };
        // Open columns keep their button at the foot, out of the windows' way.
        let y = if open {
            col.max.y - STRIP - GAP
        } else {
            col.min.y + GAP
        };
        let name = match c {
            Column::Left => "left",
            Column::Right => "right",
        };
        let clicked = egui::Area::new(egui::Id::new(("dock fold", name)))
            .fixed_pos(egui::pos2(x, y))
            .order(egui::Order::Foreground)
            .show(ctx, |ui| {
                ui.button(label)
                    .tagged(format!("dock:{name}"))
                    .on_hover_text(if open {
                        "Fold this column: more room for the board"
                    } else {
                        "Unfold this column"
                    })
                    .clicked()
            })
            .inner;
        if clicked {
            dock.toggle(c);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dock(w: f32, h: f32) -> Dock {
        let mut d = Dock::default();
        d.begin(
            egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w, h)),
            None,
        );
        d
    }

    #[test]
    fn the_board_gets_what_the_columns_and_the_band_leave_and_narrow_windows_fold_columns() {
        let wide = dock(1280.0, 800.0);
        let (l, r, board) = (
            wide.column(Column::Left),
            wide.column(Column::Right),
            wide.board(),
        );
        assert!(wide.open(Column::Left) && wide.open(Column::Right));
        assert_eq!((board.min.x, board.max.x), (l.max.x, r.min.x));
        assert_eq!((board.min.y, board.max.y), (BAND, 800.0));
        assert!(board.width() > 600.0, "{board:?}");
        // Too narrow for both: the right column folds to its strip, the left one stays.
        let narrow = dock(640.0, 400.0);
        assert!(narrow.open(Column::Left) && !narrow.open(Column::Right));
        assert_eq!(narrow.column(Column::Right).width(), STRIP);
        assert!(narrow.board().width() > 350.0, "{:?}", narrow.board());
        // Tiny: both fold, and the board keeps nearly all of the window.
        let tiny = dock(480.0, 300.0);
        assert!(!tiny.open(Column::Left) && !tiny.open(Column::Right));
        assert_eq!(tiny.board().width(), 480.0 - 2.0 * STRIP);
    }

    #[test]
    fn the_players_fold_a_column_until_the_window_crosses_a_width_that_folds_it_anyway() {
        let mut d = dock(1280.0, 800.0);
        d.toggle(Column::Left);
        assert!(!d.open(Column::Left));
        d.begin(
            egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1200.0, 800.0)),
            None,
        );
        assert!(!d.open(Column::Left), "the choice holds at a similar width");
        d.begin(
            egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(900.0, 800.0)),
            None,
        );
        assert!(
            d.open(Column::Left),
            "a new width class: the width decides again"
        );
        assert!(!d.open(Column::Right));
        d.toggle(Column::Right);
        assert!(
            d.open(Column::Right),
            "the players unfold the folded column"
        );
    }

    #[test]
    fn windows_stack_in_their_column_by_slot_under_those_drawn_last_frame() {
        let mut d = dock(1280.0, 800.0);
        // Last frame: the menu, a turn window and the pace controls were drawn.
        let drawn = |h: f32| egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(300.0, h));
        d.drawn.insert(Slot::Menu, drawn(100.0));
        d.drawn.insert(Slot::Turn, drawn(200.0));
        d.drawn.insert(Slot::Steps, drawn(80.0));
        d.begin(d.screen, None);
        let (menu, _) = d.place(Slot::Menu);
        let (turn, _) = d.place(Slot::Turn);
        let (history, room) = d.place(Slot::History);
        assert_eq!(menu.y, GAP);
        assert_eq!(turn.y, GAP + 100.0 + GAP);
        // The scenario window was not drawn: the history comes right under the turn.
        assert_eq!(history.y, turn.y + 200.0 + GAP);
        assert_eq!(room, 800.0 - STRIP - 2.0 * GAP - history.y);
        // The right column stacks apart, from its own top.
        let (figure, _) = d.place(Slot::Figure);
        assert_eq!(figure.y, GAP + 80.0 + GAP);
        assert!(figure.x > d.board().max.x);
    }

    #[test]
    fn a_window_that_shrinks_keeps_its_room_while_the_pointer_aims_in_its_column() {
        let mut d = dock(1280.0, 800.0);
        let draw = |d: &mut Dock, slot: Slot, h: f32| {
            let (at, _) = d.place(slot);
            d.drawn
                .insert(slot, egui::Rect::from_min_size(at, egui::vec2(300.0, h)));
        };
        draw(&mut d, Slot::Online, 180.0);
        draw(&mut d, Slot::Turn, 300.0);
        d.begin(d.screen, None);
        let (cards, _) = d.place(Slot::Turn);
        // The pointer on the card window; the online window above shrinks, then closes.
        let aiming = Some(egui::pos2(cards.x + 50.0, cards.y + 100.0));
        draw(&mut d, Slot::Online, 100.0);
        draw(&mut d, Slot::Turn, 300.0);
        d.begin(d.screen, aiming);
        assert_eq!(d.place(Slot::Turn).0, cards, "held while aiming");
        draw(&mut d, Slot::Turn, 300.0);
        d.begin(d.screen, aiming);
        assert_eq!(d.place(Slot::Turn).0, cards, "closed, still held");
        // A window that grows still pushes the ones below: it is never covered.
        draw(&mut d, Slot::Online, 250.0);
        draw(&mut d, Slot::Turn, 300.0);
        d.begin(d.screen, aiming);
        assert_eq!(d.place(Slot::Turn).0.y, cards.y + 70.0);
        // The pointer leaves the column (over the board): the column closes up.
        draw(&mut d, Slot::Turn, 300.0);
        d.begin(d.screen, Some(egui::pos2(640.0, 400.0)));
        assert_eq!(d.place(Slot::Turn).0.y, GAP);
        // Pointing at the window that shrinks (folding it) lets it shrink at once.
        draw(&mut d, Slot::Online, 180.0);
        draw(&mut d, Slot::Turn, 300.0);
        d.begin(d.screen, None);
        draw(&mut d, Slot::Online, 30.0);
        draw(&mut d, Slot::Turn, 300.0);
        d.begin(d.screen, Some(egui::pos2(20.0, 20.0)));
        assert_eq!(d.place(Slot::Turn).0.y, GAP + 30.0 + GAP);
    }
}
