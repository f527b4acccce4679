//! The egui layer over the board: the fonts, name plates with hit points and conditions over the
//! minis, the acting foe's focus and path lines and damage numbers; helpers the windows share.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::board::Mark;
use super::camera::TableCamera;
use super::focus::{Typing, note_typing};
use super::minis::{Mini, side_colour};
use super::table::Table;
use super::tag::Tagged;
use super::view::{FigureInfo, Side};
use foehold_core::rules::view::{Odds, WholeAttack};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Typing>()
        .init_resource::<PlateSpots>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                set_up,
                note_typing,
                (name_plates, overlays).run_if(super::screen::at_table),
            )
                .chain()
                .in_set(Drawn),
        );
    app.configure_sets(EguiPrimaryContextPass, Windows.after(Drawn));
}

/// The fonts, name plates and lines over the board: drawn before any window, so windows lie on top.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Drawn;

/// The system set of every window, after the name plates and lines drawn over the board: the shared
/// windows, then a module's own.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Windows;

/// Where the name plates were drawn this frame: words over figures keep off them.
#[derive(Resource, Debug, Default)]
pub struct PlateSpots(pub Vec<egui::Rect>);

/// The sizes a name plate is drawn at, against the nearest one's: far enough apart to tell near
/// from far, still readable; a few steps, not any size, so the font atlas holds them all.
const PLATE_SCALES: [f32; 3] = [0.8, 0.9, 1.0];

/// The sizes of a plate's name, hit points and condition initials, at full size.
const PLATE_TEXT: [f32; 3] = [13.0, 11.0, 9.0];

/// The plate size, of [`PLATE_SCALES`], nearest to a wanted one.
fn plate_scale(wanted: f32) -> f32 {
    PLATE_SCALES
        .into_iter()
        .min_by(|a, b| (a - wanted).abs().total_cmp(&(b - wanted).abs()))
        .unwrap_or(1.0)
}

/// The spot around a lit cell's centre that no plate covers, in points.
const LIT_CELL: egui::Vec2 = egui::vec2(34.0, 22.0);

/// How long a button may be held and still count as a click, in seconds. egui times a press by
/// frames: at a low frame rate a quick click whose press and release fall in two frames looked
/// held for a whole frame, and past egui's 0.8 s it was dropped.
const SLOW_CLICK: f64 = 4.0;

/// Once: the monospace face (which has arrows, used in traces such as "Rat → Mara") becomes a
/// fallback of the proportional one, so no glyph shows as a box; clicks survive slow frames. On the
/// next frame, when the fonts are in, every glyph the table writes is laid out at every size it
/// uses: egui's font atlas then grows to its full size at start-up, not in play, where a grown
/// atlas is a new texture and the labels lost their glyphs for a frame.
fn set_up(mut contexts: EguiContexts, mut done: Local<u8>) -> Result {
    if *done >= 2 {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    if *done == 1 {
        warm_glyphs(ctx);
        *done = 2;
        return Ok(());
    }
    let mut fonts = egui::FontDefinitions::default();
    let mono = fonts
        .families
        .get(&egui::FontFamily::Monospace)
        .and_then(|f| f.first().cloned());
    if let (Some(mono), Some(prop)) = (
        mono,
        fonts.families.get_mut(&egui::FontFamily::Proportional),
    ) {
        prop.push(mono);
    }
    ctx.set_fonts(fonts);
    ctx.options_mut(|o| o.input_options.max_click_duration = SLOW_CLICK);
    *done = 1;
    Ok(())
}

/// The characters beyond plain ASCII that the table's words use.
const TABLE_SYMBOLS: &str = "°±²·×é–—…→↔−√∪≈≥⏸▲▶▼◀★⟲⟳✓";

/// The sizes, in points, text is written at: the windows' styles, the board's words and every
/// size of a name plate.
fn text_sizes(ctx: &egui::Context) -> Vec<f32> {
    let mut sizes: Vec<f32> = ctx
        .global_style()
        .text_styles
        .values()
        .map(|f| f.size)
        .collect();
    sizes.extend([
        9.0, 10.0, 11.0, 12.0, 13.0, 15.0, 16.0, 17.0, 22.0, 26.0, 32.0,
    ]);
    for s in PLATE_SCALES {
        sizes.extend(PLATE_TEXT.iter().map(|t| t * s));
    }
    sizes.sort_by(f32::total_cmp);
    sizes.dedup();
    sizes
}

fn warm_glyphs(ctx: &egui::Context) {
    let mut text: String = (' '..='~').collect();
    text.push_str(TABLE_SYMBOLS);
    let sizes = text_sizes(ctx);
    ctx.fonts_mut(|fonts| {
        for size in sizes {
            for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
                let font = egui::FontId::new(size, family);
                fonts.layout_no_wrap(text.clone(), font, egui::Color32::WHITE);
            }
        }
    });
}

pub fn egui_colour(c: Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb(
        (s.red * 255.0) as u8,
        (s.green * 255.0) as u8,
        (s.blue * 255.0) as u8,
    )
}

/// A short colour per condition so markers read at a glance.
pub fn condition_colour(name: &str) -> egui::Color32 {
    match name {
        "poison" => egui::Color32::from_rgb(120, 200, 60),
        "wound" => egui::Color32::from_rgb(200, 40, 40),
        "stun" => egui::Color32::from_rgb(240, 200, 40),
        "immobilize" => egui::Color32::from_rgb(150, 110, 70),
        "disarm" => egui::Color32::from_rgb(160, 160, 160),
        "muddle" => egui::Color32::from_rgb(170, 120, 220),
        "invisible" => egui::Color32::from_rgb(200, 230, 255),
        "strengthen" => egui::Color32::from_rgb(255, 140, 40),
        _ => egui::Color32::LIGHT_GRAY,
    }
}

/// The background layer's painter, clipped to where the board is drawn: name plates and lines stay
/// off the docks.
pub fn board_painter(ctx: &egui::Context, camera: &Camera) -> egui::Painter {
    let painter = ctx.layer_painter(egui::LayerId::background());
    match camera.logical_viewport_rect() {
        Some(r) => painter.with_clip_rect(egui::Rect::from_min_max(
            egui::pos2(r.min.x, r.min.y),
            egui::pos2(r.max.x, r.max.y),
        )),
        None => painter,
    }
}

fn name_plates(
    mut contexts: EguiContexts,
    table: Res<Table>,
    marks: Res<super::board::CellMarks>,
    mut spots: ResMut<PlateSpots>,
    // A mini is a root entity: its own transform is where it stands from the frame it is spawned
    // (a figure back after an undo), while the global one is worked out only after this draws and
    // would put the plate at the board's origin for a frame.
    minis: Query<(&Mini, &Transform, &Visibility)>,
    camera: Query<(&Camera, &GlobalTransform), With<TableCamera>>,
) -> Result {
    spots.0.clear();
    let ctx = contexts.ctx_mut()?;
    let Ok((camera, cam_t)) = camera.single() else {
        return Ok(());
    };
    let painter = board_painter(ctx, camera);
    // The cells a player must click (a tie's options, the foes a half can attack): no plate covers
    // one, so the lit cell wins.
    let lit: Vec<egui::Rect> = marks
        .merged()
        .into_iter()
        .filter(|(_, m)| matches!(m, Mark::Tie | Mark::Target))
        .filter_map(|(k, _)| on_screen(camera, cam_t, table.board.world(k) + Vec3::Y * 0.05))
        .map(|c| egui::Rect::from_center_size(c, LIT_CELL))
        .collect();
    // Far plates first so near ones are drawn on top.
    let mut plates: Vec<(f32, Vec2, &FigureInfo)> = Vec::new();
    for (mini, t, seen) in &minis {
        let Some(f) = table.figure(mini.id) else {
            continue;
        };
        // A mini still waiting to land has no plate yet.
        if *seen == Visibility::Hidden {
            continue;
        }
        // A fallen foe's plate goes with it; a knocked-out hero keeps its own, at 0.
        if mini.dead && f.side != Side::Hero {
            continue;
        }
        let head = t.translation + Vec3::Y * 1.65;
        let Ok(p) = camera.world_to_viewport(cam_t, head) else {
            continue;
        };
        plates.push((cam_t.translation().distance(head), p, f));
    }
    plates.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Plates shrink with distance, against the nearest: a far figure's reads smaller, as its mini
    // does, and a crowd's column of plates is shorter.
    let nearest = plates.last().map_or(1.0, |p| p.0.max(0.01));
    let scales: Vec<f32> = plates
        .iter()
        .map(|(d, _, _)| plate_scale(nearest / d))
        .collect();
    let labels: Vec<_> = plates
        .iter()
        .zip(&scales)
        .map(|((_, _, f), s)| {
            let label = if f.elite {
                format!("★ {}", f.name)
            } else {
                f.name.clone()
            };
            let font = egui::FontId::proportional(PLATE_TEXT[0] * s);
            painter.layout_no_wrap(label, font, egui::Color32::WHITE)
        })
        .collect();
    // Where each plate would sit over its mini (the row of condition dots above it included),
    // then moved up until no two cover each other: figures in a cluster keep readable plates.
    let wanted: Vec<egui::Rect> = plates
        .iter()
        .zip(&labels)
        .zip(&scales)
        .map(|(((_, p, f), galley), s)| {
            let w = galley.size().x.max(56.0 * s) + 30.0 * s;
            let dots = if f.conditions.is_empty() {
                0.0
            } else {
                14.0 * s
            };
            // The name alone when no hit points are kept.
            let tall = if f.max_hp > 0 { 29.0 } else { 19.0 } * s;
            egui::Rect::from_min_max(
                egui::pos2(p.x - w / 2.0, p.y - tall - dots),
                egui::pos2(p.x + w / 2.0, p.y + 1.0),
            )
        })
        .collect();
    let placed = declutter(&wanted, &lit);
    for ((((_, p, f), galley), s), (want, got)) in plates
        .iter()
        .zip(labels)
        .zip(scales)
        .zip(wanted.iter().zip(&placed))
    {
        spots.0.push(*got);
        let dots = if f.conditions.is_empty() {
            0.0
        } else {
            14.0 * s
        };
        let rect = egui::Rect::from_min_max(got.min + egui::vec2(0.0, dots), got.max);
        let w = rect.width();
        let border = egui_colour(side_colour(f.side, f.tint));
        // A plate moved off its mini points back at it.
        if (got.center().y - want.center().y).abs() > 1.0 {
            painter.line_segment(
                [rect.center_bottom(), egui::pos2(p.x, p.y)],
                egui::Stroke::new(1.5, border),
            );
        }
        painter.rect_filled(rect, 4.0 * s, egui::Color32::from_black_alpha(170));
        painter.rect_stroke(
            rect,
            4.0 * s,
            egui::Stroke::new(1.5, border),
            egui::StrokeKind::Inside,
        );
        painter.galley_with_override_text_color(
            rect.left_top() + egui::vec2((w - galley.size().x) / 2.0, 2.0 * s),
            galley,
            egui::Color32::WHITE,
        );
        // Hit points: a bar, and the number inside the plate so that neighbours' never run
        // together; a lab position keeps none.
        if f.max_hp > 0 {
            let bar = egui::Rect::from_min_size(
                rect.left_top() + egui::vec2(4.0, 19.0) * s,
                egui::vec2(w - 30.0 * s, 7.0 * s),
            );
            painter.rect_filled(bar, 2.0, egui::Color32::from_gray(50));
            let frac = (f.hp.max(0) as f32 / f.max_hp.max(1) as f32).clamp(0.0, 1.0);
            let fill =
                egui::Rect::from_min_size(bar.min, egui::vec2(bar.width() * frac, bar.height()));
            let hp_colour = if frac > 0.5 {
                egui::Color32::from_rgb(70, 200, 80)
            } else if frac > 0.25 {
                egui::Color32::from_rgb(230, 180, 40)
            } else {
                egui::Color32::from_rgb(220, 50, 40)
            };
            painter.rect_filled(fill, 2.0, hp_colour);
            painter.text(
                egui::pos2(rect.right() - 4.0 * s, bar.center().y),
                egui::Align2::RIGHT_CENTER,
                format!("{}", f.hp),
                egui::FontId::proportional(PLATE_TEXT[1] * s),
                egui::Color32::WHITE,
            );
        }
        // Condition markers: coloured dots with the initial, above the plate.
        for (i, c) in f.conditions.iter().enumerate() {
            let centre = egui::pos2(
                rect.left() + (7.0 + i as f32 * 14.0) * s,
                rect.top() - 7.0 * s,
            );
            painter.circle_filled(centre, 6.5 * s, condition_colour(c));
            let initial = c
                .chars()
                .next()
                .unwrap_or('?')
                .to_ascii_uppercase()
                .to_string();
            painter.text(
                centre,
                egui::Align2::CENTER_CENTER,
                initial,
                egui::FontId::proportional(PLATE_TEXT[2] * s),
                egui::Color32::BLACK,
            );
        }
    }
    Ok(())
}

/// Moves the plates wanted at `wanted` so that none covers another nor any of `keep_clear`: from
/// the lowest on screen up (left to right on a row), each rises above every plate already placed
/// and every kept-clear spot it would cover. Plates that touch nothing stay where they are.
pub fn declutter(wanted: &[egui::Rect], keep_clear: &[egui::Rect]) -> Vec<egui::Rect> {
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by(|&a, &b| {
        let (ca, cb) = (wanted[a].center(), wanted[b].center());
        cb.y.total_cmp(&ca.y)
            .then(ca.x.total_cmp(&cb.x))
            .then(a.cmp(&b))
    });
    let mut placed = wanted.to_vec();
    let mut done: Vec<usize> = Vec::with_capacity(wanted.len());
    for i in order {
        let mut r = wanted[i];
        // Each move goes above one placed plate or spot, so as many moves as those suffice.
        for _ in 0..=done.len() + keep_clear.len() {
            let covered = done
                .iter()
                .map(|&j| placed[j])
                .chain(keep_clear.iter().copied())
                .filter(|p| p.intersects(r.shrink(0.5)))
                .map(|p| p.top())
                .reduce(f32::min);
            match covered {
                Some(top) => r = r.translate(egui::vec2(0.0, top - 2.0 - r.bottom())),
                None => break,
            }
        }
        placed[i] = r;
        done.push(i);
    }
    placed
}

/// `word` moved sideways until it covers none of `plates`: to the right past the plates it covers,
/// or to the left, whichever keeps it inside `bounds` (the board's part of the window) and moves it
/// less. It stays where it is when it covers none.
pub fn clear_of(word: egui::Rect, plates: &[egui::Rect], bounds: egui::Rect) -> egui::Rect {
    let slide = |right: bool| {
        let mut r = word;
        // Each move passes at least one plate, so as many moves as plates suffice.
        for _ in 0..=plates.len() {
            let covered = plates.iter().filter(|p| p.intersects(r));
            let to = if right {
                covered.map(|p| p.right() + 4.0 - r.left()).reduce(f32::max)
            } else {
                covered.map(|p| p.left() - 4.0 - r.right()).reduce(f32::min)
            };
            match to {
                Some(dx) => r = r.translate(egui::vec2(dx, 0.0)),
                None => break,
            }
        }
        r
    };
    let (right, left) = (slide(true), slide(false));
    let moved = |r: &egui::Rect| (r.left() - word.left()).abs();
    match (bounds.contains_rect(right), bounds.contains_rect(left)) {
        (true, false) => right,
        (false, true) => left,
        _ if moved(&left) < moved(&right) => left,
        _ => right,
    }
}

/// A figure's name, side, hit points, conditions and card, and `at`: where it stands, in words.
pub fn figure_details(ui: &mut egui::Ui, f: &FigureInfo, at: &str) {
    let side = match f.side {
        Side::Hero => "hero",
        Side::Foe => "foe",
        Side::Ally => "ally",
    };
    ui.colored_label(
        egui_colour(side_colour(f.side, f.tint)),
        egui::RichText::new(&f.name).strong().size(16.0),
    );
    ui.label(format!("{side}{}", if f.elite { " · elite" } else { "" }));
    if f.max_hp > 0 {
        ui.label(format!("hit points {}/{}", f.hp, f.max_hp));
    }
    if let Some(p) = f.owner {
        ui.label(format!("played by Player {p}"));
    }
    if !f.conditions.is_empty() {
        ui.horizontal_wrapped(|ui| {
            for c in &f.conditions {
                ui.colored_label(condition_colour(c), c);
            }
        });
    }
    // Its printed card, as the module names its stats and ratings.
    if !f.card.is_empty() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            for line in &f.card {
                ui.label(line);
            }
        });
    }
    ui.label(format!("on {at}"));
}

/// A point of the 3D table on the screen, in egui's points; `None` where the camera cannot show it.
pub fn on_screen(camera: &Camera, at: &GlobalTransform, p: Vec3) -> Option<egui::Pos2> {
    camera
        .world_to_viewport(at, p)
        .ok()
        .map(|v| egui::pos2(v.x, v.y))
}

/// Lines and numbers drawn over the 3D view: the acting foe's focus line, its path, damage popups.
fn overlays(
    mut contexts: EguiContexts,
    table: Res<Table>,
    shown: Res<super::shown::Shown>,
    spots: Res<PlateSpots>,
    // Root entities: their own transform is current from the frame they are spawned.
    minis: Query<(&Mini, &Transform)>,
    camera: Query<(&Camera, &GlobalTransform), With<TableCamera>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((camera, cam_t)) = camera.single() else {
        return Ok(());
    };
    // Under every window, as the name plates are: a line never crosses the hand-off or a panel.
    let painter = board_painter(ctx, camera);
    let project = |p: Vec3| on_screen(camera, cam_t, p);
    let mini_at = |id: u32| {
        minis
            .iter()
            .find(|(m, _)| m.id == id)
            .map(|(_, t)| t.translation)
    };
    if let Some((foe, focus)) = &shown.focus
        && let Some(from) = mini_at(*foe)
    {
        for target in focus {
            if let (Some(a), Some(b)) = (
                project(from + Vec3::Y * 0.9),
                mini_at(*target).and_then(|t| project(t + Vec3::Y * 0.9)),
            ) {
                painter.line_segment(
                    [a, b],
                    egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 70, 50)),
                );
                painter.circle_stroke(
                    b,
                    14.0,
                    egui::Stroke::new(2.5, egui::Color32::from_rgb(255, 70, 50)),
                );
            }
        }
    }
    let path: Vec<egui::Pos2> = shown
        .path
        .iter()
        .filter_map(|c| project(table.board.world(*c) + Vec3::Y * 0.2))
        .collect();
    if path.len() > 1 {
        painter.add(egui::Shape::line(
            path.clone(),
            egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 215, 60)),
        ));
    }
    for p in &path {
        painter.circle_filled(*p, 4.0, egui::Color32::from_rgb(255, 215, 60));
    }
    for (i, pop) in shown.popups.iter().enumerate() {
        let Some(at) =
            mini_at(pop.figure).and_then(|t| project(t + Vec3::Y * (1.9 + pop.age * 0.6)))
        else {
            continue;
        };
        // Words over one figure at once ("-2", then "knocked out") stack upwards, not on top of
        // each other.
        let below = shown.popups[..i]
            .iter()
            .filter(|p| p.figure == pop.figure)
            .count();
        let at = at - egui::vec2(0.0, 28.0 * below as f32);
        let alpha = ((2.0 - pop.age) / 2.0 * 255.0).clamp(0.0, 255.0) as u8;
        let colour = if pop.harm {
            egui::Color32::from_rgba_unmultiplied(255, 60, 40, alpha)
        } else {
            egui::Color32::from_rgba_unmultiplied(80, 255, 120, alpha)
        };
        let galley =
            painter.layout_no_wrap(pop.text.clone(), egui::FontId::proportional(26.0), colour);
        // Words rise beside a crowd's plates, not across them.
        let word = clear_of(
            egui::Rect::from_center_size(at, galley.size()),
            &spots.0,
            painter.clip_rect(),
        );
        painter.galley(word.min, galley, colour);
    }
    Ok(())
}

/// Bars of chances with their percentage above and their label below, the bar at `lit` in gold:
/// the odds windows of every module draw them.
pub fn chance_bars(
    ui: &mut egui::Ui,
    bars: &[(String, f64)],
    size: egui::Vec2,
    colour: egui::Color32,
    lit: Option<usize>,
) -> egui::Response {
    let top = bars.iter().map(|b| b.1).fold(0.0_f64, f64::max).max(1e-9);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let w = rect.width() / bars.len().max(1) as f32;
    for (i, (label, p)) in bars.iter().enumerate() {
        let h = (p / top) as f32 * (rect.height() - 30.0);
        let x = rect.left() + i as f32 * w;
        let base = rect.bottom() - 14.0;
        let bar =
            egui::Rect::from_min_max(egui::pos2(x + 3.0, base - h), egui::pos2(x + w - 3.0, base));
        let fill = if lit == Some(i) {
            egui::Color32::from_rgb(255, 215, 60)
        } else {
            colour
        };
        painter.rect_filled(bar, 2.0, fill);
        painter.text(
            bar.center_top(),
            egui::Align2::CENTER_BOTTOM,
            format!("{:.0}%", p * 100.0),
            egui::FontId::proportional(10.0),
            ui.visuals().text_color(),
        );
        painter.text(
            egui::pos2(x + w / 2.0, rect.bottom()),
            egui::Align2::CENTER_BOTTOM,
            label,
            egui::FontId::proportional(11.0),
            ui.visuals().strong_text_color(),
        );
    }
    response
}

/// The chance of each number of hits, as bars; the bar of the hits rolled is lit once they are in.
pub fn histogram(ui: &mut egui::Ui, odds: &Odds, hits: Option<usize>) {
    ui.label(egui::RichText::new(&odds.what).strong());
    let n = odds.chances.len().saturating_sub(1);
    ui.label(format!(
        "{n} {} (d{}): the chance of each number showing {}+",
        if n == 1 { "die" } else { "dice" },
        odds.sides,
        odds.needed
    ));
    let bars: Vec<(String, f64)> = odds
        .chances
        .iter()
        .enumerate()
        .map(|(k, c)| (k.to_string(), c.to_f64()))
        .collect();
    let size = egui::vec2(40.0 * bars.len() as f32, 94.0);
    let colour = egui::Color32::from_rgb(90, 140, 220);
    let response = chance_bars(ui, &bars, size, colour, hits);
    response.tagged("odds:bars").on_hover_text(
        odds.chances
            .iter()
            .enumerate()
            .map(|(k, c)| format!("{k} hits: {c}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
}

/// The whole attack a roll belongs to: the chance of each number of wounds, every die of it
/// together, apart from the roll's own bars.
pub fn whole_attack(ui: &mut egui::Ui, whole: &WholeAttack) {
    ui.label(egui::RichText::new("The whole attack").strong());
    ui.label(&whole.what);
    // Only the numbers of wounds that can happen: an enemy dealing 2 a hit never deals 3.
    let bars: Vec<(String, f64)> = whole
        .wounds
        .iter()
        .enumerate()
        .filter(|(k, c)| *k == 0 || !c.is_zero())
        .map(|(k, c)| (k.to_string(), c.to_f64()))
        .collect();
    let size = egui::vec2(40.0 * bars.len() as f32, 70.0);
    let colour = egui::Color32::from_rgb(200, 90, 80);
    chance_bars(ui, &bars, size, colour, None)
        .tagged("odds:whole")
        .on_hover_text(
            whole
                .wounds
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.is_zero())
                .map(|(k, c)| format!("{k} wounds: {c}"))
                .collect::<Vec<_>>()
                .join("\n"),
        );
}

#[cfg(test)]
mod tests {
    use super::{clear_of, declutter};
    use bevy_egui::egui::{Rect, pos2, vec2};

    fn plate(x: f32, y: f32) -> Rect {
        Rect::from_center_size(pos2(x, y), vec2(80.0, 30.0))
    }

    #[test]
    fn clustered_plates_stack_apart_and_lone_ones_stay() {
        // Two heroes on one spot, a third half over them, and one far off.
        let wanted = [
            plate(100.0, 200.0),
            plate(100.0, 200.0),
            plate(130.0, 190.0),
            plate(400.0, 200.0),
        ];
        let placed = declutter(&wanted, &[]);
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                assert!(!a.intersects(b.shrink(0.5)), "{a:?} covers {b:?}");
            }
            // Plates only ever rise, keeping their column.
            assert!(a.bottom() <= wanted[i].bottom() && a.center().x == wanted[i].center().x);
        }
        assert_eq!(placed[3], wanted[3], "a plate nothing covers stays put");
        assert_eq!(
            placed[0], wanted[0],
            "the lowest, leftmost of a cluster keeps its place"
        );
        assert_eq!(
            declutter(&wanted, &[]),
            placed,
            "the same picture every frame"
        );
    }

    #[test]
    fn a_word_over_a_column_of_plates_moves_beside_it_and_a_clear_one_stays() {
        let column = declutter(
            &[
                plate(300.0, 200.0),
                plate(300.0, 200.0),
                plate(310.0, 200.0),
            ],
            &[],
        );
        let word = Rect::from_center_size(pos2(290.0, 170.0), vec2(60.0, 26.0));
        let clear = |r: Rect| column.iter().all(|p| !p.intersects(r));
        // On a wide board it goes the shorter way, to the left.
        let wide = Rect::from_min_max(pos2(0.0, 0.0), pos2(600.0, 400.0));
        let moved = clear_of(word, &column, wide);
        assert!(clear(moved), "{moved:?}");
        assert_eq!(moved.center().y, word.center().y, "it keeps its height");
        assert!(moved.left() < word.left(), "{moved:?}");
        // Where the board ends just left of the column, it goes right, staying on the board.
        let cut = Rect::from_min_max(pos2(200.0, 0.0), pos2(600.0, 400.0));
        let right = clear_of(word, &column, cut);
        assert!(clear(right) && cut.contains_rect(right), "{right:?}");
        assert!(right.left() > word.left(), "{right:?}");
        let far = Rect::from_center_size(pos2(500.0, 170.0), vec2(60.0, 26.0));
        assert_eq!(
            clear_of(far, &column, wide),
            far,
            "a word over no plate stays put"
        );
    }

    #[test]
    fn a_plate_over_a_lit_cell_rises_clear_of_it() {
        let lit = Rect::from_center_size(pos2(120.0, 205.0), vec2(34.0, 22.0));
        let wanted = [plate(100.0, 200.0), plate(400.0, 200.0)];
        let placed = declutter(&wanted, &[lit]);
        assert!(!placed[0].intersects(lit.shrink(0.5)), "{:?}", placed[0]);
        assert!(placed[0].bottom() < wanted[0].bottom(), "it rises");
        assert_eq!(placed[1], wanted[1], "a plate far from it stays");
    }
}
