//! The QUIC transport on loopback, with no relay and no address lookup.
//!
//! Frames arrive whole and in order, and a peer that sends garbage loses its own connection and
//! nothing else.

#![cfg(feature = "online")]

use std::time::{Duration, Instant};

use foehold_net::codec::{self, MAX_MESSAGE};
use foehold_net::message::{Message, PeerId};
use foehold_net::quic::{ALPN, Options, Quic, Ticket};
use foehold_net::transport::{Event, SendError, Transport};

const LIMIT: Duration = Duration::from_secs(30);

/// The events until `done` says so; fails past the time limit.
fn events_until(q: &mut Quic, mut done: impl FnMut(&Event) -> bool) -> Vec<Event> {
    let until = Instant::now() + LIMIT;
    let mut seen = Vec::new();
    while Instant::now() < until {
        match q.poll() {
            Some(e) => {
                let stop = done(&e);
                seen.push(e);
                if stop {
                    return seen;
                }
            }
            None => q.wait(Duration::from_millis(20)),
        }
    }
    panic!("not in time: {seen:?}");
}

fn host() -> (Quic, Ticket) {
    host_keyed(None)
}

/// A host whose endpoint has `key` (a new one when `None`).
fn host_keyed(key: Option<[u8; 32]>) -> (Quic, Ticket) {
    let options = Options {
        key,
        ..Options::loopback()
    };
    let host = Quic::host(&options).unwrap();
    let ticket = host.ticket(Duration::from_secs(5));
    assert!(
        ticket.addrs().iter().all(|a| a.ip().is_loopback()),
        "{:?}",
        ticket.addrs()
    );
    let back = Ticket::parse(&ticket.code()).unwrap();
    assert_eq!(back, ticket);
    (host, ticket)
}

#[test]
fn frames_cross_whole_and_in_order_both_ways() {
    let (mut h, ticket) = host();
    let mut p = Quic::join(&ticket, &Options::loopback(), LIMIT).unwrap();
    let host_id = ticket.peer();
    events_until(&mut p, |e| *e == Event::Joined(host_id));
    // The host hears of a connection once its first bytes arrive.
    let big = codec::encode(&Message::Bye {
        reason: "x".repeat(MAX_MESSAGE - 16),
    })
    .unwrap();
    let frames: Vec<Vec<u8>> = (0..50u64)
        .map(|n| codec::encode(&Message::SyncFrom { from: n }).unwrap())
        .chain([big.clone()])
        .collect();
    for f in &frames {
        p.send(host_id, f.clone()).unwrap();
    }
    let mut got = Vec::new();
    let mut peer = None;
    events_until(&mut h, |e| {
        match e {
            Event::Joined(q) => peer = Some(*q),
            Event::Frame(q, f) => {
                assert_eq!(Some(*q), peer);
                got.push(f.clone());
            }
            Event::Left(_) => panic!("the peer left"),
        }
        got.len() == frames.len()
    });
    assert_eq!(got, frames);
    let peer = peer.unwrap();
    assert_eq!(peer, p.id());
    h.send(peer, big.clone()).unwrap();
    let mut back = None;
    events_until(&mut p, |e| {
        if let Event::Frame(_, f) = e {
            back = Some(f.clone());
        }
        back.is_some()
    });
    assert_eq!(back, Some(big));
    // Too large for a frame, or to nobody: refused at once.
    assert_eq!(
        h.send(peer, vec![0; codec::MAX_FRAME + 1]),
        Err(SendError::TooLarge)
    );
    assert_eq!(h.send(PeerId(7), vec![0; 8]), Err(SendError::Gone));
    // The peer leaves: the host sees it go.
    drop(p);
    events_until(&mut h, |e| *e == Event::Left(peer));
}

#[test]
fn a_peer_sending_garbage_loses_its_connection_and_the_others_go_on() {
    let (mut h, ticket) = host();
    let mut good = Quic::join(&ticket, &Options::loopback(), LIMIT).unwrap();
    // A raw endpoint that announces a 4 GiB message.
    // Threads of its own, so that it keeps sending after `block_on` returns.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let bad = runtime.block_on(async {
        let ep = iroh::Endpoint::builder(iroh::endpoint::presets::Minimal)
            .relay_mode(iroh::RelayMode::Disabled)
            .clear_ip_transports()
            .bind_addr("127.0.0.1:0")
            .unwrap()
            .bind()
            .await
            .unwrap();
        let conn = ep
            .connect(ticket.endpoint_addr().clone(), ALPN)
            .await
            .unwrap();
        let (mut send, _recv) = conn.open_bi().await.unwrap();
        send.write_all(&u32::MAX.to_le_bytes()).await.unwrap();
        send.write_all(&[7; 64]).await.unwrap();
        (ep, conn, send)
    });
    let bad_id = foehold_net::quic::peer_of(&bad.0.id());
    events_until(&mut h, |e| *e == Event::Left(bad_id));
    assert!(
        h.take_notes().iter().any(|n| n.contains("at most")),
        "the host says why"
    );
    // The good peer still gets through.
    events_until(&mut good, |e| *e == Event::Joined(ticket.peer()));
    good.send(
        ticket.peer(),
        codec::encode(&Message::SyncFrom { from: 3 }).unwrap(),
    )
    .unwrap();
    let good_id = good.id();
    events_until(&mut h, |e| matches!(e, Event::Frame(p, _) if *p == good_id));
    drop(bad);
}

mod common;

/// Polls every end until `done`, or fails past the time limit; end `i` plays its own seats by
/// the autopilot when `play(i)` says so.
fn run_until<R: foehold_core::rules::Present>(
    what: &str,
    sides: &mut [foehold_net::Side<R, Quic>],
    play: impl Fn(usize) -> bool,
    mut done: impl FnMut(&[foehold_net::Side<R, Quic>]) -> bool,
) {
    let until = Instant::now() + Duration::from_secs(90);
    while !done(sides) {
        if Instant::now() > until {
            let state: Vec<_> = sides
                .iter()
                .map(|s| {
                    let notes = s.notes_after(0).0;
                    (
                        s.replica().map(foehold_net::Replica::len),
                        s.synced(),
                        s.host_gone(),
                        notes,
                    )
                })
                .collect();
            panic!("{what}: not in time: {state:?}");
        }
        let mut busy = false;
        for (i, s) in sides.iter_mut().enumerate() {
            busy |= s.poll() > 0;
            if play(i) {
                busy |= s.play_auto();
            }
        }
        if !busy {
            sides[0].transport_mut().wait(Duration::from_millis(5));
        }
    }
}

/// Three sessions over QUIC play a game of `name`: players 2 and 3 join the host, `before` plays
/// up to the moment the host leaves, and then player 2 continues as host, player 3 follows it
/// (dialling before player 2 takes connections), player 1 comes back with player 2's code, and the
/// game ends with equal hashes on all three.
fn the_host_leaves_mid_game<R: foehold_core::rules::Present>(
    name: &str,
    seed: u64,
    ties: foehold_core::rules::TieBreaker,
    before: impl FnOnce(&mut [foehold_net::Side<R, Quic>]),
) {
    use foehold_core::game::save::text_hash;
    use foehold_net::host::{Host, setup_of};
    use foehold_net::message::Want;
    use foehold_net::peer::{Peer, Scenario};
    use foehold_net::{Handover, Side};
    use std::sync::Arc;

    let (game, text) = common::load::<R>(name, seed, ties);
    let players = (0..common::heroes(&game))
        .map(|h| h as u32 % 3 + 1)
        .collect();
    let setup = setup_of(&game, 3, players, 1);
    // The host's player keeps its key: its seat is that key's, on the next host too.
    let key = foehold_net::quic::new_key();
    let (quic, ticket) = host_keyed(Some(key));
    let scenario = || Scenario::<R> {
        scenario: Arc::new(R::parse_scenario(name, &text).unwrap()),
        path: name.into(),
        text_hash: text_hash(&text),
    };
    let join = |t: &Ticket, seat, key: Option<[u8; 32]>| {
        let options = Options {
            key,
            ..Options::loopback()
        };
        let q = Quic::join(t, &options, LIMIT).unwrap();
        Side::Peer(Box::new(Peer::new(
            scenario(),
            Want::Player(seat),
            t.peer(),
            q,
        )))
    };
    let mut sides = vec![Side::Host(Box::new(Host::new(game, setup, Some(1), quic)))];
    sides.push(join(&ticket, 2, None));
    sides.push(join(&ticket, 3, None));
    run_until(
        "welcomed",
        &mut sides,
        |_| false,
        |s| s[1..].iter().all(|p| p.replica().is_some()) && s[0].peer_list().len() == 3,
    );
    // Contacts go out when a peer says hello: wait until both peers know each other's.
    run_until(
        "contacts",
        &mut sides,
        |_| false,
        |s| {
            s[1..].iter().all(|p| match p {
                Side::Peer(p) => p.successor().is_some(),
                Side::Host(_) => false,
            })
        },
    );
    before(&mut sides);
    assert!(!sides[0].replica().unwrap().is_over());
    // The host leaves (its endpoint closes every connection).
    drop(sides.remove(0));
    run_until(
        "host gone",
        &mut sides,
        |_| false,
        |s| s.iter().all(Side::host_gone),
    );
    // What player 2's copy holds goes on; commits only the old host had are lost with it (their
    // decisions are made again).
    let len = sides[0].replica().unwrap().len();
    // Player 3 first: it dials player 2 before player 2 takes connections, and its connection
    // waits for that.
    let mut handed = Vec::new();
    for side in std::mem::take(&mut sides).into_iter().rev() {
        let (side, how) = side.hand_over();
        handed.insert(0, how.unwrap());
        sides.insert(0, side);
    }
    // Player 2 is next in line; player 3 follows it.
    let new_id = sides[0].transport_mut().id();
    assert_eq!(handed[0], Handover::Hosting);
    assert!(matches!(sides[0], Side::Host(_)));
    assert_eq!(handed[1], Handover::Following(new_id));
    let code = sides[0].transport_mut().contact().unwrap();
    // Player 1 comes back with the new host's code and its own key, with a fresh copy.
    sides.push(join(&Ticket::parse(&code).unwrap(), 1, Some(key)));
    run_until(
        "caught up",
        &mut sides,
        |_| false,
        |s| s.iter().all(|p| p.synced() && p.replica().is_some()) && s[0].peer_list().len() == 3,
    );
    assert!(sides[0].replica().unwrap().len() >= len);
    // Player 2 hosts, and breaks the table's ties on every copy.
    for s in &sides {
        assert_eq!(s.replica().unwrap().setup().table_player, 2, "{name}");
    }
    run_until(
        "to the end",
        &mut sides,
        |_| true,
        |s| {
            s.iter()
                .all(|p| p.synced() && p.replica().unwrap().is_over())
        },
    );
    let hashes: Vec<_> = sides.iter().map(|s| s.replica().unwrap().hash()).collect();
    assert!(hashes.iter().all(|h| *h == hashes[0]), "{name}: {hashes:?}");
    assert!(sides.iter().all(|s| s.desync().is_none()));
}

#[test]
fn the_host_leaves_and_the_next_player_continues_as_host_over_quic() {
    use foehold_core::rules::brimstone::Brimstone;
    // The table breaks the ties: player 1 did, and player 2 does once it hosts.
    let ties = foehold_core::rules::TieBreaker::Table;
    the_host_leaves_mid_game::<Brimstone>("cinder-adit-ambush.ron", 7, ties, |sides| {
        run_until(
            "played 8",
            sides,
            |_| true,
            |s| s[0].replica().unwrap().len() >= 8,
        );
    });
}

#[test]
fn the_host_leaves_while_cards_are_chosen_in_secret_and_the_round_goes_on() {
    use foehold_core::rules::gloomhaven::Gloomhaven;
    use foehold_net::secret::choosing_in_secret;
    // Player 2 alone commits to its pick; the host leaves before it picks, and with it the
    // commitment: player 2, now host, picks again, and so does player 1 when it comes back.
    let ties = foehold_core::rules::TieBreaker::Seeded;
    the_host_leaves_mid_game::<Gloomhaven>("tutorial.ron", 3, ties, |sides| {
        run_until(
            "player 2 committed",
            sides,
            |i| i == 1,
            |s| {
                let Some(foehold_net::Side::Host(h)) = s.first() else {
                    return false;
                };
                let choosing = choosing_in_secret::<Gloomhaven>(&h.replica().game().state);
                choosing.len() == 2 && h.waiting() == vec![0]
            },
        );
    });
}
