//! Prints what one round of online play costs: messages and bytes, host and peers together, for a
//! whole game of a shipped scenario by 2 and 4 seats over the in-process transport.
//!
//! `cargo run -p foehold-net --example round_cost [SCENARIO]` (default `tutorial.ron`, Gloomhaven).

use std::sync::Arc;

use foehold_core::game::Game;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::view::Side;
use foehold_core::rules::{Present, TieBreaker, rules_name};
use foehold_net::draws::Entropy;
use foehold_net::host::{Host, setup_of};
use foehold_net::local::{self, Endpoint};
use foehold_net::message::{PeerId, Want};
use foehold_net::peer::{Peer, Scenario};
use foehold_net::{Traffic, Transport};

fn main() {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tutorial.ron".into());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(&name);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            std::process::exit(2);
        }
    };
    let result = match rules_name(&text) {
        "Brimstone" => cost::<Brimstone>(&name, &text),
        "Goals" => cost::<Goals>(&name, &text),
        _ => cost::<Gloomhaven>(&name, &text),
    };
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

fn total(all: impl Iterator<Item = Traffic>) -> Traffic {
    all.fold(Traffic::default(), |a, t| Traffic {
        sent: a.sent + t.sent,
        sent_bytes: a.sent_bytes + t.sent_bytes,
        received: a.received + t.received,
        received_bytes: a.received_bytes + t.received_bytes,
    })
}

fn cost<R: Present>(name: &str, text: &str) -> Result<(), String> {
    println!("{name} ({} rules)", R::NAME);
    for seats in [2u32, 4] {
        let scenario = Arc::new(R::parse_scenario(name, text).map_err(|e| e.to_string())?);
        let game = Game::<R>::new(scenario.clone(), name, 1, TieBreaker::Seeded)
            .map_err(|e| e.to_string())?
            .with_scenario_text(text);
        let heroes = R::view(&game.state)
            .figures
            .iter()
            .filter(|f| f.side == Side::Hero)
            .count();
        let players = (0..heroes).map(|h| h as u32 % seats + 1).collect();
        let setup = setup_of(&game, seats, players, 1);
        // Seeded secrets and salts, so that the figures repeat (they cost the same bytes).
        let mut host = Host::new(game, setup, Some(1), Endpoint::new(PeerId(0)))
            .with_entropy(Entropy::seeded(1));
        let mut peers: Vec<Peer<R>> = (1..seats)
            .map(|k| {
                let s = Scenario {
                    scenario: scenario.clone(),
                    path: name.to_string(),
                    text_hash: foehold_core::game::save::text_hash(text),
                };
                let mut p = Peer::new(
                    s,
                    Want::Player(k + 1),
                    PeerId(0),
                    Endpoint::new(PeerId(u64::from(k))),
                )
                .with_entropy(Entropy::seeded(100 + u64::from(k)));
                local::connect(host.transport_mut(), p.transport_mut(), 256);
                p
            })
            .collect();
        let settle = |host: &mut Host<R>, peers: &mut Vec<Peer<R>>| loop {
            let n = host.poll() + peers.iter_mut().map(Peer::poll).sum::<usize>();
            if n == 0 {
                break;
            }
        };
        settle(&mut host, &mut peers);
        let joined = total(std::iter::once(host.traffic()).chain(peers.iter().map(Peer::traffic)));
        let started = std::time::Instant::now();
        let mut decisions = 0u64;
        loop {
            let mut moved = host.play_auto();
            for p in &mut peers {
                moved |= p.play_auto();
            }
            settle(&mut host, &mut peers);
            if !moved {
                break;
            }
            decisions += 1;
        }
        let elapsed = started.elapsed();
        let all = total(std::iter::once(host.traffic()).chain(peers.iter().map(Peer::traffic)));
        let rounds = u64::from(R::round(&host.replica().game().state)).max(1);
        let msgs = all.sent - joined.sent;
        let bytes = all.sent_bytes - joined.sent_bytes;
        println!(
            "  {seats} seats: {rounds} rounds, {} log entries ({} actions), {msgs} messages, {bytes} bytes: \
             {:.1} messages and {:.0} bytes a round ({:.0} bytes a decision); joining cost {} messages, {} bytes; \
             played in {:.2?}; over: {}",
            host.replica().len(),
            host.replica().game().cursor,
            msgs as f64 / rounds as f64,
            bytes as f64 / rounds as f64,
            bytes as f64 / host.replica().len().max(1) as f64,
            joined.sent,
            joined.sent_bytes,
            elapsed,
            host.replica().is_over(),
        );
        let _ = (decisions, host.transport_mut().id());
    }
    Ok(())
}
