//! Draws nobody can foresee: the draws after a decision are keyed by the host's secret, committed
//! before the decision and revealed with it, and the decider's salt; every copy checks the secret.

mod common;

use common::{Table, forge, load, until_player};
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::{Rules, Seat, TieBreaker};
use foehold_net::draws::{Entropy, draws};
use foehold_net::host::{Host, setup_of};
use foehold_net::local::Endpoint;
use foehold_net::message::{Entry, PeerId};
use foehold_net::replica::Maker;

/// Two players of the tutorial; the host's secrets from `host_entropy`, the peer's salts fixed.
fn table(host_entropy: u64) -> Table<Gloomhaven> {
    let name = "tutorial.ron";
    let (game, text) = load::<Gloomhaven>(name, 5, TieBreaker::Seeded);
    let setup = setup_of(&game, 2, vec![1, 2], 1);
    let host = Host::new(game, setup, Some(1), Endpoint::new(PeerId(0)))
        .with_entropy(Entropy::seeded(host_entropy));
    Table::around(host, name, text, 2)
}

#[test]
fn a_peer_cannot_foresee_a_draw() {
    // Two runs alike in everything the peer sends and sees but the host's secrets: the peer's
    // salts, its decisions and its copy are the same in both until a draw is made, and that draw
    // differs. So nothing the peer held before the commit fixed it.
    let (mut a, mut b) = (table(1), table(2));
    let mut first = None;
    for _ in 0..500 {
        let (x, y) = (a.replicas()[1].game(), b.replicas()[1].game());
        let n = x.actions().len().min(y.actions().len());
        if let Some(i) = (0..n).find(|&i| x.actions()[i] != y.actions()[i]) {
            first = Some(i);
            break;
        }
        assert!(a.step() && b.step(), "the games go on");
    }
    let i = first.expect("the two runs part at some draw");
    let game = a.replicas()[1].game();
    // The two runs part at a draw, never at a decision: the same decisions, made alike.
    let mut before = game.clone();
    before.go_to(i);
    let outcomes = Gloomhaven::legal_actions(&before.state, Seat::Chance);
    assert!(
        outcomes.contains(&game.actions()[i]),
        "action {} is a draw: {:?}",
        i + 1,
        game.actions()[i]
    );
    // And a copy that draws as an offline game of the same seed does (a client that tries a move
    // to see what it draws) no longer computes the online game's draws: over both games, the
    // draws the seed would have made are not the ones made.
    a.play(100_000, |_| {});
    b.play(100_000, |_| {});
    assert!(a.is_over() && b.is_over());
    let (mut seeded, mut made) = (0, 0);
    for t in [&a, &b] {
        let g = t.replicas()[1].game();
        let mut at = g.clone();
        at.go_to(0);
        for (k, act) in g.actions().iter().enumerate() {
            at.go_to(k);
            if !Gloomhaven::legal_actions(&at.state, Seat::Chance).is_empty() {
                made += 1;
                seeded += usize::from(at.automatic(true, false).as_ref() == Some(act));
            }
        }
    }
    assert!(made > 0);
    assert!(seeded < made, "{seeded} of {made} draws are the seed's");
    println!("{seeded} of {made} draws are the ones the seed would have made");
}

#[test]
fn a_host_that_reveals_another_secret_than_it_committed_is_refused() {
    let mut t = table(3);
    let hero = until_player(&mut t, 1);
    let mut cheat = t.host().replica().clone();
    let at = cheat.len();
    let action = Gloomhaven::autopilot(&cheat.game().state, hero).unwrap();
    // A secret chosen after the fact: it does not match the commitment the copies hold.
    let forged = draws(at, [9; 32], [1; 16]);
    let commit = cheat
        .decide(action.clone(), Maker::Hero(hero), None, Some(forged), None)
        .unwrap();
    forge(&mut t, &Entry::Commit(commit));
    for (i, p) in t.peers.iter().enumerate() {
        let d = p.desync().unwrap_or_else(|| panic!("copy {i} takes it"));
        assert!(d.why.contains("not the one it committed to"), "{d}");
    }
    // No secret at all: the draws would be the seed's, which everyone computes ahead.
    let mut t = table(3);
    let hero = until_player(&mut t, 1);
    let mut cheat = t.host().replica().clone();
    let action = Gloomhaven::autopilot(&cheat.game().state, hero).unwrap();
    let commit = cheat
        .decide(action, Maker::Hero(hero), None, None, None)
        .unwrap();
    forge(&mut t, &Entry::Commit(commit));
    let d = t.peers[0].desync().expect("the copy refuses it");
    assert!(d.why.contains("reveals none"), "{d}");
}

#[test]
fn a_decision_that_drew_is_not_undone() {
    // Undone, the draw would come again with another key: a way to draw again until it suits.
    let mut t = table(4);
    for _ in 0..2000 {
        let before = t.replicas()[0].len();
        if !t.step() {
            break;
        }
        let r = t.peers[0].replica().unwrap();
        let Some(Entry::Commit(c)) = r.entries().last() else {
            continue;
        };
        if c.by != 2 || r.len() != before + 1 || c.hashes.len() < 2 || c.salt.is_some() {
            continue;
        }
        // Player 2's last decision; did its steps draw?
        let mut g = r.game().clone();
        let drew = (0..c.hashes.len() - 1).any(|k| {
            let at = r.game().cursor - (c.hashes.len() - 1) + k;
            g.go_to(at);
            !Gloomhaven::legal_actions(&g.state, Seat::Chance).is_empty()
        });
        if !drew {
            continue;
        }
        t.peers[0].request_undo().unwrap();
        t.settle();
        let n = common::notes(&t, 0);
        assert!(n.last().unwrap().contains("a card was drawn"), "{n:?}");
        t.assert_same();
        return;
    }
    panic!("player 2 never made a decision that drew");
}

#[test]
fn the_hosts_own_decisions_draw_by_another_players_salt() {
    let mut t = table(5);
    let mut seen = 0;
    for _ in 0..400 {
        if !t.step() {
            break;
        }
        t.assert_same();
        for e in t.peers[0].replica().unwrap().entries() {
            if let Entry::Commit(c) = e
                && c.by == 1
                && c.salt.is_none()
                && let Some(d) = c.draws
            {
                // Player 2 gave the salt: the host knew the secret, not the salt, until its
                // decision was fixed.
                assert_eq!(d.by, Some(2), "entry {}", c.seq);
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "the host's player decided");
}

#[test]
fn a_player_gives_one_salt_per_place_and_checks_the_commit_that_names_it() {
    use foehold_net::codec::{encode, encode_action};
    use foehold_net::message::Message;
    use foehold_net::transport::Transport;
    let mut t = table(6);
    let hero = open_decision_of(&mut t, 1);
    let at = t.host().replica().len();
    let state = t.host().replica().game().state.clone();
    let picks = Gloomhaven::legal_actions(&state, Seat::Hero(hero));
    let peer = t.peers[0].id();
    // The host asks for a salt for one decision, then again for another at the same place.
    for a in [&picks[0], &picks[1], &picks[0]] {
        let ask = Message::SaltFor {
            at,
            action: encode_action(a),
        };
        t.host()
            .transport_mut()
            .send(peer, encode(&ask).unwrap())
            .unwrap();
        t.peers[0].poll();
    }
    let n = common::notes(&t, 0);
    assert!(
        n.iter()
            .any(|l| l.contains("asked again for a salt") && l.contains("not given")),
        "{n:?}"
    );
    // A commit that says player 2's salt keys it, with a salt player 2 never gave, is refused.
    let mut cheat = t.host().replica().clone();
    let forged = foehold_net::message::Draws {
        by: Some(2),
        ..draws(at, [5; 32], [6; 16])
    };
    let commit = cheat
        .decide(
            picks[0].clone(),
            Maker::Hero(hero),
            None,
            Some(forged),
            None,
        )
        .unwrap();
    forge(&mut t, &Entry::Commit(commit));
    let d = t.peers[0].desync().expect("player 2's copy refuses it");
    assert!(d.why.contains("this player's salt"), "{d}");
}

#[test]
fn a_silent_player_leaves_the_host_its_own_salt_after_a_wait() {
    let mut t = table(7);
    open_decision_of(&mut t, 1);
    let len = t.host().replica().len();
    // Player 2's table stops answering; the host's player decides.
    assert!(t.host().play_auto());
    t.host().poll();
    assert_eq!(
        t.host().replica().len(),
        len,
        "the decision waits for the salt"
    );
    assert!(!t.host().play_auto(), "one decision waits at a time");
    std::thread::sleep(foehold_net::host::COSIGN_WAIT + std::time::Duration::from_millis(100));
    t.host().poll();
    assert_eq!(t.host().replica().len(), len + 1);
    let Some(Entry::Commit(c)) = t.host().replica().entries().last() else {
        panic!("a commit");
    };
    let d = c.draws.unwrap();
    assert_eq!(d.by, None, "no other player's salt, said so");
    assert_eq!(
        d.salt,
        foehold_net::draws::fallback_salt(&d.secret),
        "not a salt of the host's choosing: the one its secret fixes"
    );
    let notes: Vec<String> = t.host().notes().map(str::to_string).collect();
    assert!(
        notes.iter().any(|n| n.contains("gave no salt")),
        "{notes:?}"
    );
    // Player 2 comes back to it: its copy follows, noting whose salt it was.
    t.settle();
    t.assert_same();
}

/// Plays on until player `n` is to make a decision that is not a hidden pick; its hero.
fn open_decision_of(t: &mut Table<Gloomhaven>, n: u32) -> usize {
    for _ in 0..1000 {
        let hero = until_player(t, n);
        let state = &t.replicas()[0].game().state;
        if foehold_net::secret::choosing_in_secret::<Gloomhaven>(state).is_empty() {
            return hero;
        }
        assert!(t.step(), "the game goes on");
    }
    panic!("player {n} never decides in the open");
}

#[test]
fn a_proposal_made_again_at_the_same_place_keeps_its_salt() {
    // So a host that refuses a proposal once it has seen its draws cannot make them come again.
    use foehold_net::codec::decode;
    use foehold_net::message::Message;
    use foehold_net::transport::{Event, Transport};
    let mut t = table(8);
    let hero = open_decision_of(&mut t, 2);
    let state = t.replicas()[0].game().state.clone();
    let picks = Gloomhaven::legal_actions(&state, Seat::Hero(hero));
    for a in [&picks[0], &picks[0], &picks[picks.len() - 1]] {
        t.peers[0].propose(a).unwrap();
    }
    // What reached the host, read before the host handles it.
    let mut salts = Vec::new();
    while let Some(event) = t.host().transport_mut().poll() {
        if let Event::Frame(_, frame) = event
            && let Ok(Message::Propose { salt, .. }) = decode(&frame)
        {
            salts.push(salt);
        }
    }
    assert_eq!(salts.len(), 3);
    assert!(
        salts.iter().all(|s| *s == salts[0]),
        "one salt at one place"
    );
}
