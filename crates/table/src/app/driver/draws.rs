//! The players' own draws: with the table's draws on (`--table-draws`, or the switch in the rules'
//! steps window), every card drawn and die rolled waits for the players to enter what they drew or
//! rolled at their own table, one button per outcome.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use foehold_core::rules::{Present, Seat, ToMove};
use foehold_loop::{CoreGame, LoopSettings, SubmitAction};

use crate::app::dock::{Dock, Slot};
use crate::app::tag::Tagged;
use crate::modules::Module;

/// The outcomes of the draw waiting now, one per name, in the rules' order: each name with the
/// first action of that name and how many outcomes bear it (six "+0" cards are one button).
pub fn outcomes<R: Present>(
    state: &R::State,
    actions: Vec<R::Action>,
) -> Vec<(String, R::Action, usize)> {
    let mut out: Vec<(String, R::Action, usize)> = Vec::new();
    for a in actions {
        let name = R::action_label(state, &a);
        match out.iter_mut().find(|(n, _, _)| *n == name) {
            Some((_, _, count)) => *count += 1,
            None => out.push((name, a, 1)),
        }
    }
    out
}

/// The window asking for the draw or roll the players made.
pub fn draws<R: Module>(
    mut contexts: EguiContexts,
    game: Res<CoreGame<R>>,
    settings: Res<LoopSettings>,
    mut submit: MessageWriter<SubmitAction<R>>,
    mut dock: ResMut<Dock>,
) -> Result {
    if !settings.table_draws || !matches!(game.0.to_move(), ToMove::Chance { .. }) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let s = &game.0.state;
    let window = egui::Window::new("Draw or roll at your table").id(egui::Id::new("draws"));
    dock.show(ctx, Slot::Turn, window, |ui| {
        let words = R::chance_words(s);
        // The rules' words begin a sentence here.
        let mut chars = words.chars();
        let words: String = chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default();
        ui.label(egui::RichText::new(words).strong().size(16.0))
            .tagged("draw:what");
        ui.weak("Click what you drew or rolled; it goes into the log like any draw.");
        let options = outcomes::<R>(s, game.0.legal_actions(Seat::Chance));
        ui.horizontal_wrapped(|ui| {
            for (name, a, count) in options {
                let text = if count > 1 {
                    format!("{name}  ×{count}")
                } else {
                    name.clone()
                };
                if ui.button(text).tagged(format!("draw:{name}")).clicked() {
                    submit.write(SubmitAction(a));
                }
            }
        });
        ui.separator();
        if ui
            .button("Let the program draw this one")
            .tagged("draw:program")
            .clicked()
            && let Some(a) = game.0.automatic(false, false)
        {
            submit.write(SubmitAction(a));
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::outcomes;
    use foehold_core::rules::toy::{Action, Toy};
    use foehold_core::rules::{Rules, Seat, TieBreaker, ToMove};

    #[test]
    fn the_outcomes_of_a_draw_are_one_button_per_name() {
        let scenario = foehold_core::rules::toy::scenario().expect("the toy parses");
        let mut g =
            foehold_core::game::Game::<Toy>::new(scenario, "toy.ron", 2, TieBreaker::Seeded)
                .expect("sets up");
        while !matches!(g.to_move(), ToMove::Chance { .. }) {
            let a = g.auto_action().expect("a roll comes");
            g.apply(a).expect("legal");
        }
        let listed = outcomes::<Toy>(&g.state, g.legal_actions(Seat::Chance));
        let names: Vec<&str> = listed.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(
            names.len(),
            Toy::legal_actions(&g.state, Seat::Chance).len()
        );
        assert_eq!(listed[0].1, Action::Roll(1));
        // Two outcomes of one name are one button that counts them.
        let doubled = vec![Action::Roll(2), Action::Roll(2), Action::Roll(1)];
        let listed = outcomes::<Toy>(&g.state, doubled);
        assert_eq!(listed.len(), 2);
        assert_eq!((listed[0].1.clone(), listed[0].2), (Action::Roll(2), 2));
    }
}
