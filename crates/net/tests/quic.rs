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
    let host = Quic::host(&Options::loopback()).unwrap();
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
