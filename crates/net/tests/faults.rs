//! Faults: out-of-turn, wrong-seat, repeated, reordered, malformed and oversize messages (each
//! refused with a reason, the game unchanged), a flood of proposals, a peer dropped and back, the
//! host killed and a peer continuing as host, a forged hash, undo by the policy, and hidden picks.

mod common;

use common::{CAPACITY, Table, notes, until_player};
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::{Action as GhAction, Gloomhaven};
use foehold_core::rules::{Present, Rules, Seat, TieBreaker, ToMove};
use foehold_net::codec::{self, encode, encode_action};
use foehold_net::host::{MAX_IN_FLIGHT, MAX_REFUSALS};
use foehold_net::local::{self, Endpoint};
use foehold_net::message::{Entry, Message, PeerId, StateHash, Want};
use foehold_net::peer::{Peer, elect};
use foehold_net::replica::Replica;
use foehold_net::secret::digest;
use foehold_net::transport::{Event, SendError, Transport};

fn brimstone(seats: u32) -> Table<Brimstone> {
    Table::new("cinder-adit.ron", seats, 21, TieBreaker::Seeded)
}

/// The hero to move, if one is.
fn hero_to_move<R: Present>(t: &Table<R>) -> Option<usize> {
    match t.replicas()[0].game().to_move() {
        ToMove::Heroes(h) => h.first().copied(),
        _ => None,
    }
}

/// Sends a raw frame from peer `i` to the host.
fn raw<R: Present>(t: &mut Table<R>, i: usize, frame: Vec<u8>) -> Result<(), SendError> {
    let host = t.host_id();
    t.peers[i].transport_mut().send(host, frame)
}

fn message<R: Present>(t: &mut Table<R>, i: usize, m: &Message) {
    raw(t, i, encode(m).unwrap()).unwrap();
}

fn snapshot<R: Present>(t: &Table<R>) -> (u64, StateHash) {
    let r = t.replicas()[0];
    (r.len(), r.hash())
}

#[test]
fn out_of_turn_and_wrong_seat_proposals_are_refused_and_change_nothing() {
    let mut t = brimstone(2);
    until_player(&mut t, 1);
    let before = snapshot(&t);
    let hero = hero_to_move(&t).unwrap();
    // Player 2 proposes a move of player 1's hero.
    let theirs = Brimstone::autopilot(&t.replicas()[0].game().state, hero).unwrap();
    t.peers[0].propose(&theirs).unwrap();
    t.settle();
    assert_eq!(snapshot(&t), before);
    let n = notes(&t, 0);
    assert!(n.last().unwrap().contains("is not player 2's"), "{n:?}");
    // Player 2 proposes what its own hero will do on its turn, now.
    let mut ahead = t.replicas()[0].game().clone();
    let mine = loop {
        if let ToMove::Heroes(h) = ahead.to_move()
            && t.replicas()[0].setup().players[h[0]] == 2
        {
            break Brimstone::autopilot(&ahead.state, h[0]).unwrap();
        }
        let a = ahead.automatic(true, true).unwrap();
        ahead.apply(a).unwrap();
    };
    if !t.replicas()[0]
        .game()
        .legal_actions(Seat::Hero(hero))
        .contains(&mine)
    {
        t.peers[0].propose(&mine).unwrap();
        t.settle();
        assert_eq!(snapshot(&t), before);
        let n = notes(&t, 0);
        assert!(n.last().unwrap().contains("not your turn"), "{n:?}");
    }
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn repeated_and_reordered_proposals_are_refused_as_stale() {
    let mut t = brimstone(2);
    until_player(&mut t, 2);
    let (len, _) = snapshot(&t);
    let hero = hero_to_move(&t).unwrap();
    let action = Brimstone::autopilot(&t.replicas()[0].game().state, hero).unwrap();
    // Through the peer's own session, which remembers what it proposed: a commit said to be this
    // player's that it never proposed is refused by its copy.
    t.peers[0].propose(&action).unwrap();
    t.peers[0].propose(&action).unwrap();
    t.settle();
    let after = snapshot(&t);
    assert_eq!(
        after.0,
        len + 1,
        "the first is committed, the repeat is not"
    );
    let n = notes(&t, 0);
    assert!(n.last().unwrap().contains("stale, repeated"), "{n:?}");
    // A proposal from the future and one from the past.
    for at in [after.0 + 3, after.0 - 1] {
        message(
            &mut t,
            0,
            &Message::Propose {
                at,
                action: encode_action(&action),
                salt: [7; 16],
            },
        );
        t.settle();
        assert_eq!(snapshot(&t), after);
        assert!(
            notes(&t, 0)
                .last()
                .unwrap()
                .contains(&format!("proposed at entry {at}"))
        );
    }
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn malformed_and_oversize_messages_are_refused_with_a_reason() {
    let mut t = brimstone(2);
    until_player(&mut t, 2);
    let before = snapshot(&t);
    let len = before.0;
    let mut trailing = encode(&Message::SyncFrom { from: 0 }).unwrap();
    trailing.push(9);
    let mut oversize = u32::MAX.to_le_bytes().to_vec();
    oversize.extend_from_slice(&[0; 16]);
    let frames: Vec<(Vec<u8>, &str)> = vec![
        (Vec::new(), "no length prefix"),
        (vec![1, 0], "no length prefix"),
        (codec::frame(&[250; 12]).unwrap(), "malformed"),
        (trailing, "the prefix says"),
        (oversize, "at most"),
        (
            encode(&Message::Propose {
                at: len,
                action: foehold_net::message::ActionBytes(vec![200, 200, 200, 1]),
                salt: [7; 16],
            })
            .unwrap(),
            "the action is refused",
        ),
        (
            encode(&Message::Catchup {
                from: 0,
                entries: Vec::new(),
            })
            .unwrap(),
            "only the host sends catchup",
        ),
    ];
    for (frame, why) in frames {
        raw(&mut t, 0, frame).unwrap();
        t.settle();
        assert_eq!(snapshot(&t), before);
        let n = notes(&t, 0);
        assert!(n.last().unwrap().contains(why), "{why}: {n:?}");
    }
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn a_flood_of_proposals_is_bounded_and_the_game_goes_on() {
    let mut t = brimstone(2);
    until_player(&mut t, 2);
    let (len, _) = snapshot(&t);
    let hero = hero_to_move(&t).unwrap();
    let action = Brimstone::autopilot(&t.replicas()[0].game().state, hero).unwrap();
    let frame = encode(&Message::Propose {
        at: len,
        action: encode_action(&action),
        salt: [7; 16],
    })
    .unwrap();
    // The session's own proposal first (its copy checks that a commit in its name is one it
    // made), then a modified program's flood of the same frame.
    t.peers[0].propose(&action).unwrap();
    let (mut queued, mut full) = (1, 0);
    for _ in 0..10_000 {
        match raw(&mut t, 0, frame.clone()) {
            Ok(()) => queued += 1,
            Err(SendError::Full) => full += 1,
            Err(e) => panic!("{e}"),
        }
    }
    // The link holds a bounded number of frames; the rest are refused at once.
    assert_eq!(queued, CAPACITY);
    assert_eq!(full, 10_001 - CAPACITY);
    let before = t.peers[0].traffic().received;
    t.settle();
    assert_eq!(snapshot(&t).0, len + 1, "one proposal is committed");
    let answers = t.peers[0].traffic().received - before;
    // The commit, the refusals up to the bound, nothing for the rest.
    assert!(
        answers <= 1 + u64::from(MAX_REFUSALS),
        "{answers} answers to a flood"
    );
    // A peer's own session keeps at most a few proposals waiting.
    let next = t.replicas()[0].game().state.clone();
    let some = Brimstone::legal_actions(&next, Seat::Hero(0));
    let a = some.first().cloned().unwrap_or(action);
    let sent = (0..10).filter(|_| t.peers[0].propose(&a).is_ok()).count();
    assert_eq!(sent, MAX_IN_FLIGHT as usize);
    t.settle();
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn a_dropped_peer_rejoins_mid_round_and_is_brought_up_to_date() {
    let mut t = brimstone(3);
    t.play(10, |_| {});
    let host = t.host_id();
    // Peer 0 (player 2) drops: its connection breaks.
    t.peers[0].transport_mut().close(host);
    t.settle();
    let gone_at = t.peers[0].replica().unwrap().len();
    // The others play on until the game waits for the dropped player.
    let mut t2 = 0;
    while t.host().play_auto() | t.peers[1].play_auto() {
        t.settle();
        t2 += 1;
        if t2 > 10_000 {
            break;
        }
    }
    let host_len = t.replicas()[0].len();
    assert!(host_len > gone_at, "the game went on without it");
    assert!(!t.is_over());
    // Back: the same peer connects again, says hello and syncs from its own position.
    let mut peer = t.peers.remove(0);
    local::connect(t.host().transport_mut(), peer.transport_mut(), CAPACITY);
    t.peers.insert(0, peer);
    t.settle();
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn a_spectator_joins_late_catches_up_and_decides_nothing() {
    let mut t = brimstone(2);
    t.play(8, |_| {});
    t.add_peer(PeerId(7), Want::Spectator);
    t.settle();
    t.assert_same();
    until_player(&mut t, 1);
    let before = snapshot(&t);
    let hero = hero_to_move(&t).unwrap();
    let a = Brimstone::autopilot(&t.replicas()[0].game().state, hero).unwrap();
    t.peers[1].propose(&a).unwrap();
    t.settle();
    assert_eq!(snapshot(&t), before);
    assert!(notes(&t, 1).last().unwrap().contains("spectator"));
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn the_host_is_killed_and_a_peer_continues_as_host_to_the_end() {
    let mut t = brimstone(3);
    t.play(40, |_| {});
    let len = snapshot(&t).0;
    t.host = None;
    t.settle();
    assert!(t.peers.iter().all(Peer::host_gone));
    let candidates: Vec<(PeerId, u64)> = t
        .peers
        .iter()
        .map(|p| (p.id(), p.replica().unwrap().len()))
        .collect();
    let chosen = elect(&candidates).unwrap();
    let i = t.peers.iter().position(|p| p.id() == chosen).unwrap();
    let new_host = t.peers.remove(i).into_host().unwrap();
    t.host = Some(new_host);
    for p in &mut t.peers {
        p.follow(chosen);
    }
    let mut others = std::mem::take(&mut t.peers);
    for p in &mut others {
        local::connect(t.host().transport_mut(), p.transport_mut(), CAPACITY);
    }
    t.peers = others;
    // The old host's player comes back as a peer with a fresh copy, by its own key: the seat
    // is its key's.
    t.add_peer(PeerId(0), Want::Player(1));
    t.settle();
    assert_eq!(t.peers.last().unwrap().player(), Some(1));
    t.assert_same();
    assert_eq!(snapshot(&t).0, len);
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn a_forged_hash_is_reported_as_a_desync_at_the_first_diverging_action() {
    let mut t = brimstone(2);
    t.play(30, |_| {});
    let host = t.host.as_ref().unwrap();
    let real = host.replica();
    let mut entries = real.entries().to_vec();
    let k = entries
        .iter()
        .position(|e| matches!(e, Entry::Commit(c) if c.hashes.len() > 2))
        .unwrap();
    let j = 2;
    if let Entry::Commit(c) = &mut entries[k] {
        c.hashes[j].0[0] ^= 1;
    }
    // Where that step is in the game's log: replay the entries before it offline.
    let (game, _) = common::load::<Brimstone>("cinder-adit.ron", 21, TieBreaker::Seeded);
    let mut offline = Replica::new(game, real.setup().clone());
    for e in &entries[..k] {
        offline.receive(e).unwrap();
    }
    let expected = offline.game().cursor + 1 + j;
    let welcome = Message::Welcome {
        player: None,
        setup: real.setup().clone(),
        start: real.start(),
        len: real.len(),
        hash: real.hash(),
        draws: real.commitment_at(real.len()),
    };
    // A host that forges: a bare endpoint speaking for it.
    let mut forger = Endpoint::new(PeerId(100));
    let mut victim = Peer::<Brimstone>::new(
        t.scenario(),
        Want::Spectator,
        PeerId(100),
        Endpoint::new(PeerId(101)),
    );
    local::connect(&mut forger, victim.transport_mut(), CAPACITY);
    victim.poll();
    while forger.poll().is_some() {}
    forger.send(PeerId(101), encode(&welcome).unwrap()).unwrap();
    victim.poll();
    forger
        .send(
            PeerId(101),
            encode(&Message::Catchup { from: 0, entries }).unwrap(),
        )
        .unwrap();
    victim.poll();
    let d = victim.desync().expect("a desync").clone();
    assert_eq!((d.seq, d.action), (k as u64, expected), "{d}");
    assert_eq!(
        victim.replica().unwrap().len(),
        k as u64,
        "nothing after it is applied"
    );
    let mut reported = None;
    while let Some(e) = forger.poll() {
        if let Event::Frame(_, f) = e
            && let Ok(Message::Desync { report }) = codec::decode(&f)
        {
            reported = Some(report);
        }
    }
    let report = reported.expect("the desync is reported to the host");
    assert!(report.contains(&format!("action {expected}")), "{report}");
}

#[test]
fn undo_is_granted_for_a_players_own_last_decision_only() {
    let mut t = brimstone(2);
    // Player 2's first decision after which nothing was drawn: one that drew is not undone
    // (`a_decision_that_drew_is_not_undone`).
    let mut before = snapshot(&t);
    for _ in 0..200 {
        until_player(&mut t, 2);
        before = snapshot(&t);
        assert!(t.peers[0].play_auto());
        t.settle();
        let r = t.peers[0].replica().unwrap();
        if r.undoable(|m| r.is_players(m, 2)).is_ok() {
            break;
        }
    }
    assert_eq!(snapshot(&t).0, before.0 + 1);
    // Not the host's decision to undo.
    let refused = t.host().request_undo().unwrap_err();
    assert!(refused.contains("not yours"), "{refused}");
    t.peers[0].request_undo().unwrap();
    t.settle();
    t.assert_same();
    let after = snapshot(&t);
    assert_eq!(
        after,
        (before.0 + 2, before.1),
        "back to the state before, one entry more"
    );
    // Play until the host's player decides; then the peer may not undo.
    until_player(&mut t, 1);
    assert!(t.host().play_auto());
    t.settle();
    let before = snapshot(&t);
    t.peers[0].request_undo().unwrap();
    t.settle();
    assert_eq!(snapshot(&t), before);
    let n = notes(&t, 0);
    assert!(n.last().unwrap().contains("not yours"), "{n:?}");
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn hidden_picks_are_committed_then_revealed_and_checked() {
    let mut t: Table<Gloomhaven> = Table::new("tutorial.ron", 2, 5, TieBreaker::Seeded);
    let state = t.replicas()[0].game().state.clone();
    let secret = foehold_net::secret::choosing_in_secret::<Gloomhaven>(&state);
    assert_eq!(secret, [0, 1], "both heroes choose their cards in secret");
    let (len, _) = snapshot(&t);
    let picks = Gloomhaven::legal_actions(&state, Seat::Hero(1));
    let (x, y) = (picks[0].clone(), picks[1].clone());
    // A plain proposal is refused: picks go as commitments.
    t.peers[0].propose(&x).unwrap();
    t.settle();
    assert!(notes(&t, 0).last().unwrap().contains("send a commitment"));
    // The host's player commits; nothing is applied yet.
    assert!(t.host().play_auto());
    t.settle();
    assert_eq!(snapshot(&t).0, len);
    assert_eq!(t.peers[0].peers().1, [1], "the game waits for hero 1");
    // A commitment for another player's hero is refused.
    let salt = [3; 16];
    let bytes = encode_action(&x);
    message(
        &mut t,
        0,
        &Message::Commitment {
            at: len,
            hero: 0,
            digest: digest(len, 0, &bytes, &salt),
        },
    );
    t.settle();
    assert!(notes(&t, 0).last().unwrap().contains("not yours"));
    // Player 2 commits to x; every commitment is in, so the host asks for the reveals.
    message(
        &mut t,
        0,
        &Message::Commitment {
            at: len,
            hero: 1,
            digest: digest(len, 1, &bytes, &salt),
        },
    );
    t.settle();
    assert_eq!(snapshot(&t).0, len, "nothing is applied before the reveals");
    // Revealing y instead is refused; revealing x applies both picks.
    let reveal = |a: &GhAction| Message::Reveal {
        at: len,
        hero: 1,
        action: encode_action(a),
        salt,
    };
    message(&mut t, 0, &reveal(&y));
    t.settle();
    assert!(notes(&t, 0).last().unwrap().contains("does not match"));
    assert_eq!(snapshot(&t).0, len);
    message(&mut t, 0, &reveal(&x));
    t.settle();
    assert_eq!(snapshot(&t).0, len + 2);
    t.assert_same();
    // Hidden picks are not undone.
    t.peers[0].request_undo().unwrap();
    t.settle();
    assert!(notes(&t, 0).last().unwrap().contains("hidden pick"));
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn a_player_who_lost_its_pick_before_the_reveal_comes_back_and_chooses_again() {
    let mut t: Table<Gloomhaven> = Table::new("tutorial.ron", 2, 5, TieBreaker::Seeded);
    let (len, _) = snapshot(&t);
    // The host's player commits to its hero's cards.
    assert!(t.host().play_auto());
    t.settle();
    // Player 2 commits, then loses pick and salt (here: a commitment it never kept): every
    // commitment is in, the host asks for the reveals, and player 2's can never come.
    let state = t.replicas()[0].game().state.clone();
    let pick = Gloomhaven::legal_actions(&state, Seat::Hero(1))[0].clone();
    let lost = digest(len, 1, &encode_action(&pick), &[9; 16]);
    message(
        &mut t,
        0,
        &Message::Commitment {
            at: len,
            hero: 1,
            digest: lost,
        },
    );
    t.settle();
    // Committing again is refused: the reveals were asked for. The round waits.
    t.peers[0].play_auto();
    t.settle();
    assert!(
        notes(&t, 0)
            .last()
            .unwrap()
            .contains("commitments are closed")
    );
    assert_eq!(snapshot(&t).0, len, "the round waits");
    // Its program crashed; a new one with the same key takes seat 2 back.
    let host = t.host_id();
    t.peers[0].transport_mut().close(host);
    t.settle();
    t.peers.remove(0);
    t.add_peer(PeerId(1), Want::Player(2));
    t.settle();
    assert!(
        t.host()
            .notes()
            .any(|n| n.contains("came back without its picks")),
        "the host drops the commitment that cannot be revealed"
    );
    // Hero 1 chooses again; the host's pick, already revealed, stands; both are applied.
    assert!(t.peers[0].play_auto(), "the new program commits again");
    t.settle();
    assert_eq!(snapshot(&t).0, len + 2, "both picks are in the log");
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn a_catch_up_cut_short_by_a_full_queue_is_asked_for_again_without_a_new_commit() {
    let mut t = brimstone(2);
    t.play(30, |_| {});
    let host_len = t.replicas()[0].len();
    assert!(host_len > 0);
    // A late spectator on a link that holds one message.
    let mut late = Peer::new(
        t.scenario(),
        Want::Spectator,
        t.host_id(),
        Endpoint::new(PeerId(9)),
    );
    local::connect(t.host().transport_mut(), late.transport_mut(), 1);
    t.peers.push(late);
    // Hello, welcome, and the ask for the log, one at a time.
    t.peers[1].poll();
    t.host().poll();
    t.peers[1].poll();
    assert!(t.peers[1].replica().is_some_and(|r| r.len() < host_len));
    // Something else fills the link just before the catch-up goes: it is dropped.
    let filler = encode(&Message::Peers {
        peers: Vec::new(),
        waiting: Vec::new(),
    })
    .unwrap();
    t.host().transport_mut().send(PeerId(9), filler).unwrap();
    t.host().poll();
    // Nobody decides any more (the game waits), so no commit shows the gap: the late copy asks
    // again by itself.
    let mut settles = 0;
    while t.peers[1].replica().is_none_or(|r| r.len() < host_len) {
        t.settle();
        settles += 1;
        assert!(settles < 10_000, "the late copy never caught up");
    }
    t.assert_same();
    assert!(
        settles >= foehold_net::peer::RETRY_AFTER_POLLS as usize - 1,
        "caught up by asking again, after {settles} settles"
    );
}
