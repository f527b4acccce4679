//! Seats that belong to their keys, admission and removal, decisions that say who made them, and
//! bounded undo floods: each fault of a hostile or unlucky player, in-process.

mod common;

use common::{Table, forge, notes, until_player};
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::{Present, Rules, TieBreaker};
use foehold_net::codec::encode;
use foehold_net::host::{Admission, MAX_PEERS, MAX_UNDOS_WITHOUT_PROGRESS};
use foehold_net::message::{Entry, Message, PeerId, Want};
use foehold_net::replica::Maker;
use foehold_net::side::Side;
use foehold_net::transport::Transport;

fn brimstone(seats: u32) -> Table<Brimstone> {
    Table::new("cinder-adit.ron", seats, 21, TieBreaker::Seeded)
}

/// Drops peer `i`'s connection, as a killed program's.
fn kill<R: Present>(t: &mut Table<R>, i: usize) {
    let host = t.host_id();
    t.peers[i].transport_mut().close(host);
    t.settle();
    t.peers.remove(i);
}

#[test]
fn a_dropped_seat_waits_for_its_key_and_a_stranger_is_refused() {
    let mut t = brimstone(2);
    until_player(&mut t, 2);
    kill(&mut t, 0);
    // A stranger with the code asks for the dropped seat.
    t.add_peer(PeerId(50), Want::Player(2));
    t.settle();
    assert_eq!(t.peers[0].player(), None);
    let n = notes(&t, 0);
    assert!(
        n.last().unwrap().contains("belongs to another key"),
        "{n:?}"
    );
    t.peers.remove(0);
    // The owner, back with its own key, gets its seat and its place in the game.
    t.add_peer(PeerId(1), Want::Player(2));
    t.settle();
    assert_eq!(t.peers[0].player(), Some(2));
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn the_host_hands_a_dropped_seat_to_a_watcher_and_frees_another() {
    let mut t = brimstone(3);
    until_player(&mut t, 2);
    kill(&mut t, 0);
    t.add_peer(PeerId(60), Want::Spectator);
    t.settle();
    let host = t.host();
    let seats = host.seats();
    assert!(seats.contains(&(2, PeerId(1), false)), "{seats:?}");
    // Only a connected watcher can be given a seat; a player cannot take a second one.
    let e = host.give_seat(2, PeerId(2)).unwrap_err();
    assert!(e.contains("plays player 3"), "{e}");
    host.give_seat(2, PeerId(60)).unwrap();
    t.settle();
    let watcher = t.peers.iter().position(|p| p.id() == PeerId(60)).unwrap();
    assert_eq!(t.peers[watcher].player(), Some(2));
    // The old key is refused now: the seat was handed over.
    t.add_peer(PeerId(1), Want::Player(2));
    t.settle();
    assert_eq!(t.peers.last().unwrap().player(), None);
    t.peers.pop();
    // Player 3's seat freed while its player is connected: it watches, and a new key takes it.
    t.host().free_seat(3).unwrap();
    t.settle();
    assert_eq!(t.peers[0].player(), None, "player 3's old key watches");
    t.add_peer(PeerId(61), Want::Player(3));
    t.settle();
    assert_eq!(t.peers.last().unwrap().player(), Some(3));
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn a_hundred_refused_joins_and_departures_leave_the_game_open() {
    let mut t = brimstone(2);
    t.play(6, |_| {});
    for i in 0..100 {
        // A seat the game lacks, and a seat that is taken: both refused.
        let want = if i % 2 == 0 {
            Want::Player(9)
        } else {
            Want::Player(2)
        };
        t.add_peer(PeerId(1000 + i), want);
        t.settle();
        t.peers.pop();
    }
    // Watchers that come and go free their places at once.
    for i in 0..(3 * MAX_PEERS as u64) {
        t.add_peer(PeerId(2000 + i), Want::Spectator);
        t.settle();
        assert!(t.peers.last().unwrap().replica().is_some(), "watcher {i}");
        let last = t.peers.len() - 1;
        kill(&mut t, last);
    }
    // A real join after all that.
    t.add_peer(PeerId(3000), Want::Spectator);
    t.settle();
    t.assert_same();
    let listed = t.host().peer_list().len();
    assert_eq!(listed, 3, "the host, player 2 and the watcher");
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn the_host_admits_by_password_by_key_list_or_by_asking_and_removes_for_good() {
    let mut t = brimstone(2);
    t.host()
        .set_admission(Admission::Open, Some("kobold".into()));
    // No password, then the wrong one: refused.
    t.add_peer(PeerId(70), Want::Spectator);
    t.settle();
    assert!(notes(&t, 1).last().unwrap().contains("password is wrong"));
    t.peers.pop();
    t.add_peer(PeerId(71), Want::Spectator);
    t.peers[1].set_password(Some("goblin".into()));
    t.settle();
    assert!(t.peers[1].replica().is_none());
    t.peers.pop();
    t.add_peer(PeerId(72), Want::Spectator);
    t.peers[1].set_password(Some("kobold".into()));
    t.settle();
    assert!(t.peers[1].replica().is_some(), "the right password");
    // Removed: told so, and its key refused from then on.
    t.host().remove(PeerId(72), "not invited").unwrap();
    t.settle();
    assert_eq!(t.peers[1].removed(), Some("not invited"));
    let side = Side::Peer(Box::new(t.peers.pop().unwrap()));
    let (_, handed) = side.hand_over();
    assert!(handed.unwrap_err().contains("does not host"));
    t.add_peer(PeerId(72), Want::Spectator);
    t.peers[1].set_password(Some("kobold".into()));
    t.settle();
    assert!(t.peers[1].replica().is_none(), "a removed key stays out");
    t.peers.pop();
    // A list of keys: only those.
    t.host()
        .set_admission(Admission::Keys([PeerId(80)].into()), None);
    t.add_peer(PeerId(81), Want::Spectator);
    t.settle();
    assert!(notes(&t, 1).last().unwrap().contains("admits only"));
    t.peers.pop();
    t.add_peer(PeerId(80), Want::Spectator);
    t.settle();
    assert!(t.peers[1].replica().is_some());
    t.peers.pop();
    // Asking: the joiner waits until the host lets it in.
    t.host().set_admission(Admission::Ask, None);
    t.add_peer(PeerId(90), Want::Spectator);
    t.settle();
    assert!(t.peers[1].replica().is_none());
    let asking = t.host().asking();
    assert_eq!(asking.len(), 1);
    assert_eq!(asking[0].id, PeerId(90));
    t.host().admit(PeerId(90)).unwrap();
    t.settle();
    assert!(t.peers[1].replica().is_some(), "admitted");
    // Player 2, dropped and back with its key, is not asked again.
    kill(&mut t, 0);
    t.add_peer(PeerId(1), Want::Player(2));
    t.settle();
    assert_eq!(t.peers.last().unwrap().player(), Some(2));
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn a_host_that_plays_another_seats_hero_is_refused_by_the_copies() {
    // Said to be its own: player 2's copy never proposed it.
    let mut t = brimstone(3);
    let hero = until_player(&mut t, 2);
    let mut cheat = t.host().replica().clone();
    let action = Brimstone::autopilot(&cheat.game().state, hero).unwrap();
    let commit = cheat
        .decide(action.clone(), Maker::Hero(hero), None, None, None)
        .unwrap();
    assert_eq!(commit.by, 2);
    forge(&mut t, &Entry::Commit(commit.clone()));
    let d = t.peers[0].desync().expect("player 2's copy refuses it");
    assert!(d.why.contains("never proposed"), "{d}");
    let n = notes(&t, 0);
    assert!(n.last().unwrap().contains("never proposed"), "{n:?}");
    // Said to be the host's own player's: every copy refuses it by the seat table.
    let mut t = brimstone(3);
    let hero = until_player(&mut t, 2);
    let mut cheat = t.host().replica().clone();
    let action = Brimstone::autopilot(&cheat.game().state, hero).unwrap();
    let mut commit = cheat
        .decide(action, Maker::Hero(hero), None, None, None)
        .unwrap();
    commit.by = 1;
    forge(&mut t, &Entry::Commit(commit));
    for (i, p) in t.peers.iter().enumerate() {
        let d = p.desync().unwrap_or_else(|| panic!("copy {i} takes it"));
        assert!(d.why.contains("player 2's to make"), "{d}");
    }
}

#[test]
fn an_undo_flood_is_bounded_by_the_games_progress() {
    let mut t = brimstone(2);
    until_player(&mut t, 2);
    let start = t.replicas()[0].len();
    let mut granted = 0;
    // A decision and its undo, again and again, while the host grants them.
    for _ in 0..50 {
        assert!(t.peers[0].play_auto());
        t.settle();
        let before = t.replicas()[0].len();
        t.peers[0].request_undo().unwrap();
        t.settle();
        if t.replicas()[0].len() == before {
            break;
        }
        granted += 1;
    }
    assert_eq!(granted, MAX_UNDOS_WITHOUT_PROGRESS);
    let n = notes(&t, 0);
    assert!(n.iter().any(|n| n.contains("play on first")), "{n:?}");
    // Three undone decisions and their undos, and the decision that stands.
    let grown = t.replicas()[0].len() - start;
    assert_eq!(grown, 2 * u64::from(MAX_UNDOS_WITHOUT_PROGRESS) + 1);
    t.assert_same();
    t.play(100_000, |_| {});
    assert!(t.is_over());
}

#[test]
fn proposals_the_host_never_answers_are_given_up_and_the_player_proposes_again() {
    use foehold_net::local::{self, Endpoint};
    use foehold_net::peer::{Peer, RETRY_AFTER_POLLS};
    // A host that welcomes and then answers nothing (its refusals past the allowance are dropped).
    let t = brimstone(2);
    let real = t.replicas()[0];
    let welcome = Message::Welcome {
        player: Some(2),
        setup: real.setup().clone(),
        start: real.start(),
        len: real.len(),
        hash: real.hash(),
        draws: real.commitment_at(real.len()),
    };
    let mut silent = Endpoint::new(PeerId(100));
    let mut peer = Peer::<Brimstone>::new(
        t.scenario(),
        Want::Player(2),
        PeerId(100),
        Endpoint::new(PeerId(101)),
    );
    local::connect(&mut silent, peer.transport_mut(), 64);
    peer.poll();
    silent.send(PeerId(101), encode(&welcome).unwrap()).unwrap();
    peer.poll();
    let state = peer.replica().unwrap().game().state.clone();
    let any = Brimstone::legal_actions(&state, foehold_core::rules::Seat::Hero(0))
        .into_iter()
        .next()
        .unwrap();
    let sent = (0..10).filter(|_| peer.propose(&any).is_ok()).count();
    assert_eq!(sent, foehold_net::host::MAX_IN_FLIGHT as usize);
    assert!(peer.propose(&any).is_err(), "the session waits for answers");
    for _ in 0..RETRY_AFTER_POLLS {
        peer.poll();
    }
    assert!(peer.propose(&any).is_ok(), "given up: it proposes again");
    assert!(
        peer.notes().any(|n| n.contains("no answer from the host")),
        "and says so"
    );
}
