//! The workshop headless: a blank draft opens, clicks paint with the brush in hand, the panel's
//! fields set the palette and the scenario, refused edits say why, Ctrl+Z undoes, and the room in
//! hand is lit.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use foehold_core::lab::Value;

use super::{LAYER, ShopDraft, ShopTools, open_blank};
use crate::app::board::{CellMarks, Mark, RebuildBoard};
use crate::app::focus::Typing;
use crate::app::picking::{Picked, Target};
use crate::app::screen::OnTable;
use crate::app::table::Table;

/// The workshop under `MinimalPlugins` on a blank draft: what the board drawing, picking and egui
/// would add is inserted bare.
fn shop_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin))
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<CellMarks>()
        .init_resource::<Typing>()
        .add_message::<Picked>()
        .add_message::<RebuildBoard>()
        .add_plugins((crate::app::screen::plugin, super::plugin));
    // The first module the workshop makes: the tests paint its hexes.
    let first = foehold_core::workshop::any::shop_modules()[0].module;
    open_blank(app.world_mut(), first).unwrap();
    app.update();
    app.update();
    app
}

fn click(app: &mut App, brush: &str, cell: (i32, i32)) {
    app.world_mut().resource_mut::<ShopTools>().brush = brush.into();
    app.world_mut().write_message(Picked(Target::Cell(cell)));
    app.update();
}

fn draft(app: &App) -> &dyn super::AnyDraft {
    app.world().resource::<ShopDraft>().0.as_ref()
}

#[test]
fn clicks_paint_the_draft_and_the_table_follows() {
    let mut app = shop_app();
    assert_eq!(
        *app.world().resource::<State<OnTable>>().get(),
        OnTable::Workshop
    );
    assert_eq!(app.world().resource::<Table>().title, "Scenario workshop");
    assert!(!draft(&app).playable());
    for q in 0..3 {
        click(&mut app, "floor", (q, 0));
    }
    click(&mut app, "start", (0, 0));
    click(&mut app, "monster", (2, 0));
    let table = app.world().resource::<Table>();
    let on_map = table
        .board
        .cells
        .iter()
        .filter(|c| c.ground != crate::app::view::Ground::Outside)
        .count();
    assert_eq!(on_map, 3);
    let text = draft(&app).text();
    assert!(
        text.contains("heroes: [\n        (name: \"Hero 1\""),
        "{text}"
    );
    assert!(
        text.contains("(monster: \"Cellar Rat\", players: (Normal, Normal, Normal))"),
        "{text}"
    );
    // A spot clicked with a party size's brush changes what stands there for it.
    click(&mut app, "cycle-4", (2, 0));
    assert!(
        draft(&app)
            .text()
            .contains("players: (Normal, Normal, Elite)")
    );
    // Off the board: refused with the reason, nothing changed.
    let before = draft(&app).text();
    click(&mut app, "monster", (9, 9));
    let tools = app.world().resource::<ShopTools>();
    assert!(
        tools
            .refused
            .as_deref()
            .unwrap_or("")
            .contains("paint floor first"),
        "{:?}",
        tools.refused
    );
    assert_eq!(draft(&app).text(), before);
    // Ctrl+Z takes the last edit back.
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.press(KeyCode::ControlLeft);
    keys.press(KeyCode::KeyZ);
    app.update();
    assert!(
        draft(&app)
            .text()
            .contains("players: (Normal, Normal, Normal)")
    );
}

#[test]
fn the_room_in_hand_is_lit_and_fields_set_the_palette_and_the_scenario() {
    let mut app = shop_app();
    for q in 0..4 {
        click(&mut app, "floor", (q, 0));
    }
    // Room B painted on two hexes: with the room brush in hand, they are lit.
    let mut shop = app.world_mut().resource_mut::<ShopDraft>();
    shop.0
        .set(None, "brush:room", Value::Choice("B".into()))
        .unwrap();
    click(&mut app, "room", (2, 0));
    click(&mut app, "room", (3, 0));
    let lit: Vec<(i32, i32)> = app.world().resource::<CellMarks>().layers[LAYER]
        .iter()
        .filter(|(_, m)| **m == Mark::AoE)
        .map(|(k, _)| *k)
        .collect();
    assert_eq!(lit, [(2, 0), (3, 0)]);
    let mut shop = app.world_mut().resource_mut::<ShopDraft>();
    shop.0
        .set(None, "name", Value::Text("The Mill Race".into()))
        .unwrap();
    assert_eq!(shop.0.name(), "The Mill Race");
    let in_b = shop
        .0
        .view()
        .cells
        .iter()
        .filter(|c| c.place.as_deref() == Some("room B"))
        .count();
    assert_eq!(in_b, 2, "{}", shop.0.text());
    // Named, a new draft is to be saved under its name.
    app.update();
    let path = std::path::PathBuf::from(&app.world().resource::<ShopTools>().path);
    assert_eq!(
        path.file_name().and_then(|f| f.to_str()),
        Some("the-mill-race.ron")
    );
}

#[test]
fn a_scenario_is_saved_as_its_name_in_small_letters_and_dashes() {
    use foehold_core::workshop::file_for;
    assert_eq!(file_for("The Rat Larder"), "the-rat-larder.ron");
    assert_eq!(
        file_for("  Old Ferro's   Landing! "),
        "old-ferro-s-landing.ron"
    );
    assert_eq!(file_for("Élan 2"), "élan-2.ron");
    assert_eq!(file_for("?!"), "my-scenario.ron");
    assert_eq!(file_for(&"a".repeat(200)).len(), 48 + 4);
}
