//! The Online window: host this scenario or join a friend's game; once online, the code to send,
//! the seats and who holds them, whom the game waits for, and what went wrong.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foehold_net::host::MAX_PEERS;

use super::{Admin, Go, Online, Role};
use crate::app::clipboard::Clipboard;
use crate::app::dock::{Dock, Slot};
use crate::app::tag::Tagged;
use crate::app::ui::Windows;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Clipboard>()
        .add_systems(EguiPrimaryContextPass, online.in_set(Windows));
}

const RED: egui::Color32 = egui::Color32::from_rgb(255, 140, 110);

fn online(
    mut contexts: EguiContexts,
    mut state: ResMut<Online>,
    mut go: MessageWriter<Go>,
    mut dock: ResMut<Dock>,
    mut clipboard: ResMut<Clipboard>,
) -> Result {
    let shown = state.open || state.status.role.is_some() || state.starting().is_some();
    if !shown {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // Edit a copy: writing the resource every frame would mark it changed every frame.
    let mut form = state.form.clone();
    let mut close = false;
    let mut cancel = false;
    let mut admin: Vec<Admin> = Vec::new();
    let window = egui::Window::new("Online").id(egui::Id::new("online"));
    dock.show(ctx, Slot::Online, window, |ui| {
        if let Some((what, for_)) = state.starting() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("{what} {} s", for_.as_secs()))
                    .tagged("online:starting");
            });
            cancel = ui.button("Cancel").tagged("online:cancel").clicked();
        } else if state.status.role.is_some() {
            in_game(ui, &state, &mut go, &mut clipboard, &mut admin);
        } else {
            ui.label(egui::RichText::new("Host this game for friends").strong());
            ui.horizontal(|ui| {
                ui.label("Players:");
                ui.add(egui::DragValue::new(&mut form.seats).range(1..=MAX_PEERS as u32))
                    .tagged("online:seats");
            });
            ui.checkbox(&mut form.relays, "Through the public relays")
                .on_hover_text("Friends on other networks reach you with no port forwarding; off: only this network")
                .tagged("online:relays");
            ui.horizontal(|ui| {
                ui.label("Password:");
                ui.add(
                    egui::TextEdit::singleline(&mut form.password)
                        .password(true)
                        .hint_text("none")
                        .desired_width(120.0),
                )
                .on_hover_text("Set by the host, and given by each friend who joins")
                .tagged("online:password");
            });
            ui.checkbox(&mut form.ask, "Let each new friend in by hand")
                .on_hover_text("A friend who joins waits until you admit them; a player coming back to their seat does not")
                .tagged("online:ask");
            let password = (!form.password.is_empty()).then(|| form.password.clone());
            if ui
                .button("Host this game as it stands")
                .on_hover_text(
                    "The game on the table goes on online; you are Player 1 and send the code to \
                     the others. Not for a game whose draws were entered at the table.",
                )
                .tagged("online:host-as-it-stands")
                .clicked()
            {
                go.write(Go::Host {
                    seats: form.seats,
                    relays: form.relays,
                    as_it_stands: true,
                    password: password.clone(),
                    ask: form.ask,
                });
            }
            if ui
                .button("Host a new game of this scenario")
                .on_hover_text("It starts anew; you are Player 1 and send the code to the others")
                .tagged("online:host")
                .clicked()
            {
                go.write(Go::Host {
                    seats: form.seats,
                    relays: form.relays,
                    as_it_stands: false,
                    password: password.clone(),
                    ask: form.ask,
                });
            }
            ui.separator();
            ui.label(egui::RichText::new("Join a friend's game").strong());
            ui.add(
                egui::TextEdit::singleline(&mut form.code)
                    .hint_text("the code they sent")
                    .desired_width(240.0),
            )
            .tagged("online:code");
            ui.horizontal(|ui| {
                ui.checkbox(&mut form.spectate, "Watch")
                    .tagged("online:watch");
                if !form.spectate {
                    ui.label("as Player");
                    ui.add(egui::DragValue::new(&mut form.seat).range(1..=MAX_PEERS as u32))
                        .tagged("online:seat");
                }
            });
            let join = egui::Button::new("Join");
            if ui
                .add_enabled(!form.code.trim().is_empty(), join)
                .on_disabled_hover_text("paste the code first")
                .tagged("online:join")
                .clicked()
            {
                go.write(Go::Join {
                    code: form.code.trim().to_string(),
                    seat: (!form.spectate).then_some(form.seat),
                    relays: form.relays,
                    password,
                });
            }
            close = ui.button("Close").tagged("online:close").clicked();
        }
        if let Some(last) = state.notes.back() {
            ui.separator();
            ui.colored_label(RED, last).tagged("online:note");
        }
    });
    if cancel {
        state.cancel();
    }
    if !admin.is_empty() {
        state.admin.extend(admin);
    }
    if close {
        state.open = false;
    }
    if form != state.form {
        state.form = form;
    }
    Ok(())
}

/// The host's rows: who waits to be let in, and what can be done with each seat.
fn host_rows(ui: &mut egui::Ui, state: &Online, admin: &mut Vec<Admin>) {
    let s = &state.status;
    for a in &s.asking {
        ui.horizontal(|ui| {
            ui.label(format!("{} asks to join as {}", a.id, a.want));
            if ui
                .button("Admit")
                .tagged(format!("online:admit:{:x}", a.id.0))
                .clicked()
            {
                admin.push(Admin::Admit(a.id));
            }
            if ui
                .button("Turn away")
                .tagged(format!("online:turn-away:{:x}", a.id.0))
                .clicked()
            {
                admin.push(Admin::TurnAway(a.id));
            }
        });
    }
    // A row for each seat something can be done with: held (free it, remove its player), or
    // given to a watcher.
    let rows = s
        .seats
        .iter()
        .filter(|x| !x.you && (x.holder.is_some() || !s.watchers.is_empty()));
    for seat in rows {
        ui.horizontal(|ui| {
            ui.label(format!("Player {}:", seat.player));
            if let Some(holder) = seat.holder {
                if ui
                    .button("Free the seat")
                    .on_hover_text("The next friend who joins as this player takes it; whoever holds it watches")
                    .tagged(format!("online:free:{}", seat.player))
                    .clicked()
                {
                    admin.push(Admin::Free(seat.player));
                }
                if ui
                    .button("Remove")
                    .on_hover_text("Out of the game for good: their key is refused from now on")
                    .tagged(format!("online:remove:{}", seat.player))
                    .clicked()
                {
                    admin.push(Admin::Remove(holder));
                }
            }
            for w in &s.watchers {
                if ui
                    .button(format!("Give to {w}"))
                    .on_hover_text("A watcher takes this seat and its heroes")
                    .tagged(format!("online:give:{}:{:x}", seat.player, w.0))
                    .clicked()
                {
                    admin.push(Admin::Give(seat.player, *w));
                }
            }
        });
    }
    for w in &s.watchers {
        ui.horizontal(|ui| {
            ui.label(format!("{w} watches"));
            if ui
                .button("Remove")
                .tagged(format!("online:remove-watcher:{:x}", w.0))
                .clicked()
            {
                admin.push(Admin::Remove(*w));
            }
        });
    }
}

/// The online game: the code, the seats, whom it waits for.
fn in_game(
    ui: &mut egui::Ui,
    state: &Online,
    go: &mut MessageWriter<Go>,
    clipboard: &mut Clipboard,
    admin: &mut Vec<Admin>,
) {
    let s = &state.status;
    if let Some(why) = &s.removed {
        // Out for good: the seats and whom the game waits for are no longer this screen's.
        ui.colored_label(RED, format!("You are out of this game: {why}."))
            .tagged("online:removed");
        ui.label("Close the online game to play on at this table.");
        if ui
            .button("Close the online game")
            .tagged("online:leave")
            .clicked()
        {
            go.write(Go::Leave);
        }
        return;
    }
    let who = match s.role {
        Some(Role::Host(Some(n))) => format!("You host this game, as Player {n}."),
        Some(Role::Host(None)) => "You host this game.".to_string(),
        Some(Role::Player(n)) if s.welcomed => format!("You are Player {n}."),
        Some(Role::Spectator) if s.welcomed => "You watch this game.".to_string(),
        _ => "Waiting for the host's welcome…".to_string(),
    };
    ui.label(egui::RichText::new(who).strong())
        .tagged("online:role");
    // The code is shown while a seat is free; after that a button keeps it at hand for a player
    // who drops and comes back.
    let free = s.seats.iter().any(|x| !x.taken || !x.connected);
    if let Some(code) = &s.code {
        if free {
            ui.label("Send this code to the others:");
            ui.add(egui::Label::new(egui::RichText::new(code).monospace().size(11.0)).wrap())
                .tagged("online:the-code");
        }
        if ui
            .button("Copy the join code")
            .tagged("online:copy")
            .clicked()
        {
            clipboard.copy("the join code", code.clone());
        }
    }
    ui.horizontal_wrapped(|ui| {
        for seat in &s.seats {
            let (what, colour) = match (seat.you, seat.taken, seat.connected) {
                (true, _, _) => ("you", egui::Color32::from_rgb(255, 220, 120)),
                (false, false, _) => ("free", egui::Color32::GRAY),
                (false, true, true) => ("connected", egui::Color32::from_rgb(140, 220, 140)),
                (false, true, false) => ("dropped", RED),
            };
            ui.colored_label(colour, format!("Player {}: {what}", seat.player))
                .on_hover_text(match what {
                    "free" => "waiting for someone to join with the code",
                    "dropped" => "the seat is kept for their key: they join again with the code",
                    _ => "",
                })
                .tagged(format!("online:player:{}", seat.player));
        }
        if s.spectators > 0 {
            ui.label(format!("{} watching", s.spectators));
        }
    });
    if matches!(s.role, Some(Role::Host(_))) {
        ui.collapsing("Seats and guests", |ui| host_rows(ui, state, admin))
            .header_response
            .tagged("online:guests");
    }
    if !s.waiting.is_empty() {
        let names: Vec<String> = s.waiting.iter().map(|p| format!("Player {p}")).collect();
        ui.label(format!("The game waits for {}.", names.join(" and ")))
            .tagged("online:waiting");
    }
    if s.host_gone {
        ui.colored_label(
            RED,
            "The host has left, and no other player could continue as host. The game stays here: \
             play on at this screen, or join again.",
        )
        .tagged("online:host-gone");
    }
    if let Some(d) = &s.desync {
        ui.colored_label(RED, format!("This copy parted from the host's: {d}"))
            .tagged("online:desync");
    }
    let traffic = format!(
        "{} messages, {} bytes sent; {} messages, {} bytes received",
        s.traffic.sent, s.traffic.sent_bytes, s.traffic.received, s.traffic.received_bytes
    );
    if ui
        .button("Leave the online game")
        .on_hover_text(format!(
            "The game stays on this table, for the players at this screen.\n{traffic}"
        ))
        .tagged("online:leave")
        .clicked()
    {
        go.write(Go::Leave);
    }
}
