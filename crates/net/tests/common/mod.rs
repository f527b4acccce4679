//! A table of host and peers over the in-process transport, playing by the hero autopilot.

#![expect(dead_code, reason = "each test file uses a part of the helpers")]

use std::path::PathBuf;
use std::sync::Arc;

use foehold_core::game::Game;
use foehold_core::game::save::text_hash;
use foehold_core::rules::view::Side;
use foehold_core::rules::{Present, TieBreaker, ToMove};
use foehold_net::codec::encode;
use foehold_net::draws::Entropy;
use foehold_net::host::{Host, setup_of};
use foehold_net::local::{self, Endpoint};
use foehold_net::message::{Entry, Message, PeerId, StateHash, Want};
use foehold_net::peer::{Peer, Scenario};
use foehold_net::transport::Transport;
use foehold_net::{Replica, Traffic};

/// Frames each way of a link.
pub const CAPACITY: usize = 256;

/// The shipped scenario file `name`.
pub fn scenario_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name)
}

/// A seeded game of a shipped scenario and the scenario as a peer reads it.
pub fn load<R: Present>(name: &str, seed: u64, ties: TieBreaker) -> (Game<R>, String) {
    let path = scenario_path(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let scenario = R::parse_scenario(name, &text).unwrap();
    let game = Game::new(Arc::new(scenario), name, seed, ties)
        .unwrap()
        .with_scenario_text(&text);
    (game, text)
}

/// The number of heroes in a game.
pub fn heroes<R: Present>(game: &Game<R>) -> usize {
    R::view(&game.state)
        .figures
        .iter()
        .filter(|f| f.side == Side::Hero)
        .count()
}

/// A host (player 1) and `seats - 1` peers, each hero played by player `hero % seats + 1`.
pub struct Table<R: Present> {
    pub host: Option<Host<R>>,
    pub peers: Vec<Peer<R>>,
    pub name: String,
    pub text: String,
}

impl<R: Present> Table<R> {
    pub fn new(name: &str, seats: u32, seed: u64, ties: TieBreaker) -> Table<R> {
        let (game, text) = load::<R>(name, seed, ties);
        let players = (0..heroes(&game)).map(|h| h as u32 % seats + 1).collect();
        let setup = setup_of(&game, seats, players, 1);
        // Seeded secrets and salts: the same game on every run.
        let host = Host::new(game, setup, Some(1), Endpoint::new(PeerId(0)))
            .with_entropy(Entropy::seeded(seed));
        Table::around(host, name, text, seats)
    }

    /// A table around a host already made: players 2 to `seats` join it.
    pub fn around(host: Host<R>, name: &str, text: String, seats: u32) -> Table<R> {
        let mut table = Table {
            host: Some(host),
            peers: Vec::new(),
            name: name.to_string(),
            text,
        };
        for k in 1..seats {
            table.add_peer(PeerId(u64::from(k)), Want::Player(k + 1));
        }
        table.settle();
        table
    }

    /// The scenario as a peer reads the text the host sends: a scenario file's, or a bundle's
    /// with the host's own library entries.
    pub fn scenario(&self) -> Scenario<R> {
        let (text, library) =
            foehold_core::workshop::bundle::unpack(&self.name, &self.text).unwrap();
        Scenario {
            scenario: Arc::new(R::parse_scenario_in(&self.name, &text, &library).unwrap()),
            path: self.name.clone(),
            text_hash: text_hash(&text),
        }
    }

    pub fn host(&mut self) -> &mut Host<R> {
        self.host.as_mut().unwrap()
    }

    /// A new peer connected to the host.
    pub fn add_peer(&mut self, id: PeerId, want: Want) {
        let mut peer = Peer::new(self.scenario(), want, self.host_id(), Endpoint::new(id))
            .with_entropy(Entropy::seeded(1000 + id.0));
        local::connect(self.host().transport_mut(), peer.transport_mut(), CAPACITY);
        self.peers.push(peer);
    }

    pub fn host_id(&mut self) -> PeerId {
        use foehold_net::Transport;
        self.host().transport_mut().id()
    }

    /// Lets every message be handled, until nobody has anything left.
    pub fn settle(&mut self) -> usize {
        let mut total = 0;
        for _ in 0..100_000 {
            let mut n = self.host.as_mut().map_or(0, Host::poll);
            for p in &mut self.peers {
                n += p.poll();
            }
            if n == 0 {
                return total;
            }
            total += n;
        }
        panic!("the table does not settle");
    }

    /// Every copy of the game: the host's first.
    pub fn replicas(&self) -> Vec<&Replica<R>> {
        self.host
            .iter()
            .map(Host::replica)
            .chain(self.peers.iter().filter_map(Peer::replica))
            .collect()
    }

    /// Asserts that every copy has the same session log length and the same state hash.
    pub fn assert_same(&self) {
        let copies = self.replicas();
        let first = copies[0];
        for (i, r) in copies.iter().enumerate() {
            assert!(r.desync().is_none(), "copy {i}: {}", r.desync().unwrap());
            assert_eq!(
                (r.len(), r.hash()),
                (first.len(), first.hash()),
                "copy {i} differs"
            );
        }
    }

    /// One move by whoever's turn it is (the host's own player first), then everything settles.
    /// Returns whether anyone moved.
    pub fn step(&mut self) -> bool {
        let mut moved = self.host.as_mut().is_some_and(Host::play_auto);
        for p in &mut self.peers {
            moved |= p.play_auto();
        }
        self.settle();
        moved
    }

    /// Plays on by the autopilot for at most `limit` moves, checking every copy after each; calls
    /// `each` after each move with the round the game is in.
    pub fn play(&mut self, limit: usize, mut each: impl FnMut(&mut Self)) -> usize {
        let mut moves = 0;
        while moves < limit && self.step() {
            self.assert_same();
            each(self);
            moves += 1;
        }
        moves
    }

    pub fn is_over(&self) -> bool {
        self.replicas().iter().all(|r| r.is_over())
    }

    pub fn hash(&self) -> StateHash {
        self.replicas()[0].hash()
    }

    /// Everything everyone has sent, added up.
    pub fn traffic(&self) -> Traffic {
        let all = self
            .host
            .iter()
            .map(Host::traffic)
            .chain(self.peers.iter().map(Peer::traffic));
        all.fold(Traffic::default(), |a, t| Traffic {
            sent: a.sent + t.sent,
            sent_bytes: a.sent_bytes + t.sent_bytes,
            received: a.received + t.received,
            received_bytes: a.received_bytes + t.received_bytes,
        })
    }
}

/// Peer `i`'s notes, oldest first.
pub fn notes<R: Present>(t: &Table<R>, i: usize) -> Vec<String> {
    t.peers[i].notes().map(str::to_string).collect()
}

/// Plays until a hero of `player` is to move; returns that hero.
pub fn until_player<R: Present>(t: &mut Table<R>, player: u32) -> usize {
    for _ in 0..10_000 {
        if let ToMove::Heroes(h) = t.replicas()[0].game().to_move()
            && t.replicas()[0].setup().players[h[0]] == player
        {
            return h[0];
        }
        assert!(
            t.step(),
            "nobody moves: {:?}, {:?}",
            t.replicas()[0].game().to_move(),
            t.peers
                .iter()
                .flat_map(|p| p.notes().map(str::to_string))
                .collect::<Vec<_>>()
        );
    }
    panic!("player {player} never moves");
}

/// Sends a commit as the host would, to every peer, without its session: a host that cheats.
pub fn forge<R: Present>(t: &mut Table<R>, entry: &Entry) {
    let Entry::Commit(c) = entry else {
        unreachable!()
    };
    let frame = encode(&Message::Commit(c.clone())).unwrap();
    let ids: Vec<PeerId> = t.peers.iter().map(Peer::id).collect();
    for id in ids {
        t.host().transport_mut().send(id, frame.clone()).unwrap();
    }
    for p in &mut t.peers {
        p.poll();
    }
}
