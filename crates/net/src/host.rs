//! The host: the authoritative game, checking every proposal and committing it to everyone.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use web_time::Instant;

use foehold_core::game::Game;
use foehold_core::rules::{Present, Rules, TieBreaker, ToMove};

use crate::codec::{self, MAX_MESSAGE, decode_action, encode_action};
use crate::draws::{Entropy, commitment};
use crate::message::{
    ActionBytes, Digest, Draws, Entry, MAX_CONTACT, MAX_PASSWORD, Message, PROTOCOL, PeerId,
    PeerInfo, Salt, Secret, Setup, StateHash, Want,
};
use crate::replica::{AutoMove, Maker, Replica};
use crate::secret::{choosing_in_secret, digest};
use crate::transport::{Event, SendError, Transport};
use crate::{Traffic, local};

/// The most peers connected to a host at once (refused and departed peers free their place at
/// once; a dropped player's seat is kept apart, by its key).
pub const MAX_PEERS: usize = 16;
/// The most undos granted before the game goes further than it ever went.
///
/// Each step of progress buys at most this many, so a player alternating a decision and its undo
/// cannot grow the session log without the game growing too.
pub const MAX_UNDOS_WITHOUT_PROGRESS: u32 = 3;
/// The most keys a host remembers as removed.
const MAX_BARRED: usize = 256;
/// The most proposals, commitments and reveals of one peer handled in one [`Host::poll`] (and
/// between two commits); past it they are refused unread.
pub const MAX_IN_FLIGHT: u32 = 4;
/// The most refusals a peer is sent in one [`Host::poll`]; past it its messages are dropped.
pub const MAX_REFUSALS: u32 = 32;
/// The most transport events one [`Host::poll`] handles.
pub const MAX_EVENTS_PER_POLL: usize = 1024;
/// The most notes kept.
const MAX_NOTES: usize = 64;
/// The draw secrets a host keeps: those of the last few log lengths, which a round of hidden picks
/// (made at one length, committed over several) still reads.
const SECRETS_KEPT: usize = 64;
/// How long the host's own decision waits for another player's salt before the host's own keys
/// its draws.
pub const COSIGN_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// A per-second allowance: `rate` a second, at most `burst` saved up.
#[derive(Debug, Clone, Copy, Default)]
struct Bucket {
    /// Thousandths of a message.
    milli: u64,
    at: Option<Instant>,
}

impl Bucket {
    /// Takes one if there is one; the allowance grows with the time since the last take.
    fn take(&mut self, now: Instant, rate: u64, burst: u64) -> bool {
        let full = burst * 1000;
        let grown = match self.at {
            None => full,
            Some(at) => {
                let ms = u64::try_from(now.saturating_duration_since(at).as_millis())
                    .unwrap_or(u64::MAX);
                self.milli.saturating_add(ms.saturating_mul(rate))
            }
        };
        self.at = Some(now);
        self.milli = grown.min(full);
        if self.milli >= 1000 {
            self.milli -= 1000;
            true
        } else {
            false
        }
    }
}

/// The per-second allowances of one peer, as (rate a second, burst).
pub mod limits {
    /// Every frame.
    pub const FRAMES: (u64, u64) = (200, 1000);
    /// Hellos (each sends the peer list and contacts to everyone).
    pub const HELLOS: (u64, u64) = (1, 4);
    /// Catch-ups asked for (each sends the log from the entry asked).
    pub const CATCH_UPS: (u64, u64) = (4, 16);
    /// Undo requests.
    pub const UNDOS: (u64, u64) = (2, 6);
    /// Proposals, commitments and reveals refused (those accepted move the game on).
    pub const REFUSED: (u64, u64) = (10, 40);
}

/// The allowances of one peer.
#[derive(Debug, Clone, Copy, Default)]
struct Buckets {
    frames: Bucket,
    hellos: Bucket,
    catch_ups: Bucket,
    undos: Bucket,
    refused: Bucket,
}

/// Who the host lets in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Admission {
    /// Anyone with the join code (and the password, if one is set).
    #[default]
    Open,
    /// Only these keys (a seat's holder coming back is always let in).
    Keys(BTreeSet<PeerId>),
    /// Each new key waits until the host admits or refuses it ([`Host::admit`]).
    Ask,
}

/// A joiner waiting to be admitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asking {
    /// Its key.
    pub id: PeerId,
    /// The seat it asks for.
    pub want: Want,
}

/// What the host knows of a connected peer.
#[derive(Debug, Clone, Default)]
struct Slot {
    hello: bool,
    player: Option<u32>,
    /// A hello waiting for the host to admit it: the seat asked and the contact given.
    asking: Option<(Want, Option<String>)>,
    buckets: Buckets,
    /// Proposals and commitments in this poll since the last commit.
    spent: u32,
    /// Refusals sent in this poll.
    refused: u32,
    /// Whether the scenario was sent on this connection.
    sent_scenario: bool,
    /// How to reach the peer should it continue as host.
    contact: Option<String>,
}

/// A decision of the host's own player, waiting for another seated player's salt for its draws.
#[derive(Debug, Clone)]
struct AskingSalt<A> {
    at: u64,
    action: A,
    maker: Maker,
    peer: PeerId,
    player: u32,
    since: Instant,
}

/// Hidden picks being committed or revealed.
#[derive(Debug, Clone)]
struct Round {
    at: u64,
    heroes: Vec<usize>,
    commitments: BTreeMap<usize, Digest>,
    revealing: bool,
    reveals: BTreeMap<usize, (ActionBytes, Salt)>,
}

/// Who sent something: the host's own player, or a peer.
type From = Option<PeerId>;

/// The host's session over a transport.
#[derive(Debug)]
pub struct Host<R: Present, T: Transport = local::Endpoint> {
    replica: Replica<R>,
    transport: T,
    /// The host's own player number, if it plays.
    me: Option<u32>,
    /// The connected peers.
    peers: BTreeMap<PeerId, Slot>,
    /// Each seat's holder: the key that took it first (the host's own seat included). A dropped
    /// player keeps its seat; only [`Host::give_seat`] or [`Host::free_seat`] hand it on.
    seats: BTreeMap<u32, PeerId>,
    admission: Admission,
    password: Option<String>,
    /// Keys the host removed: refused from then on.
    barred: BTreeSet<PeerId>,
    /// The game's furthest log position so far, and the undos granted since it was reached.
    furthest: usize,
    undos_since: u32,
    /// The time of this poll, for the per-second allowances.
    now: Instant,
    round: Option<Round>,
    /// The host's own hidden picks until their reveal.
    my_picks: BTreeMap<usize, (ActionBytes, Salt)>,
    /// The host's draw secrets, by the log length a decision is made at; their commitments are
    /// published one entry before (see [`crate::draws`]). The oldest are dropped.
    secrets: BTreeMap<u64, Secret>,
    /// Where the host's secrets and its own salts come from.
    entropy: Entropy,
    /// The host's own decision waiting for a salt.
    asking_salt: Option<AskingSalt<R::Action>>,
    notes: VecDeque<String>,
    /// Notes taken so far, dropped ones included.
    noted: u64,
    traffic: Traffic,
    /// The scenario file's text, sent to a peer that asks ([`Host::offer_scenario`]).
    scenario_text: Option<String>,
}

/// The setup of a game for its peers: `seats` players, `players` gives each hero its player (from
/// 1), and `table_player` breaks the table's ties.
pub fn setup_of<R: Rules>(
    game: &Game<R>,
    seats: u32,
    players: Vec<u32>,
    table_player: u32,
) -> Setup {
    Setup {
        seats,
        rules: R::NAME.to_string(),
        scenario: StateHash::from_hex(game.scenario_hash.as_deref().unwrap_or("")),
        seed: game.seed,
        seeded_ties: game.tie_breaker == TieBreaker::Seeded,
        players,
        table_player,
    }
}

impl<R: Present, T: Transport> Host<R, T> {
    /// Hosts a new game: `me` is the host's own player (`None` when it only hosts).
    pub fn new(game: Game<R>, setup: Setup, me: Option<u32>, transport: T) -> Host<R, T> {
        Host::from_replica(Replica::new(game, setup), me, Vec::new(), transport)
    }

    /// Continues as host from a copy of the game: `known` are the peers the last host listed,
    /// whose keys keep their seats (the last host's own among them).
    pub fn from_replica(
        replica: Replica<R>,
        me: Option<u32>,
        known: Vec<PeerInfo>,
        transport: T,
    ) -> Host<R, T> {
        let mine = transport.id();
        let seated = (1..=replica.setup().seats).collect::<BTreeSet<u32>>();
        let mut seats: BTreeMap<u32, PeerId> = BTreeMap::new();
        for p in known {
            if let Some(n) = p.player.filter(|n| seated.contains(n)) {
                seats.entry(n).or_insert(p.id);
            }
        }
        if let Some(n) = me {
            // This end's own seat is its own, whoever the list gave it to.
            seats.retain(|_, id| *id != mine);
            seats.insert(n, mine);
        }
        let furthest = replica.game().cursor;
        let mut host = Host {
            replica,
            transport,
            me,
            peers: BTreeMap::new(),
            seats,
            admission: Admission::Open,
            password: None,
            barred: BTreeSet::new(),
            furthest,
            undos_since: 0,
            now: Instant::now(),
            round: None,
            my_picks: BTreeMap::new(),
            secrets: BTreeMap::new(),
            entropy: Entropy::default(),
            asking_salt: None,
            notes: VecDeque::new(),
            noted: 0,
            traffic: Traffic::default(),
            scenario_text: None,
        };
        host.first_secret();
        host
    }

    /// A secret for the decisions made at the log's length now, committed to in the welcome: a
    /// host that continues a game draws with secrets of its own from there on.
    fn first_secret(&mut self) {
        let len = self.replica.len();
        self.secrets.clear();
        match self.next_secret(len) {
            Ok(c) => self.replica.expect_draws(len, c),
            Err(e) => self.note(e),
        }
    }

    /// The same host with its secrets and salts drawn from `entropy` (see
    /// [`Entropy::seeded`]); before any peer is welcomed.
    #[must_use]
    pub fn with_entropy(mut self, entropy: Entropy) -> Self {
        self.entropy = entropy;
        self.first_secret();
        self
    }

    /// Sends the scenario file's text to a peer that asks for it ([`Message::GetScenario`]), so that
    /// a friend needs no copy of the file. Refused when it does not fit in one message.
    pub fn offer_scenario(&mut self, text: String) -> Result<(), codec::TooLarge> {
        codec::encode(&Message::Scenario { text: text.clone() })?;
        self.scenario_text = Some(text);
        Ok(())
    }

    /// Swaps the game of the host's copy with `game` ([`Replica::swap_game`]).
    pub fn swap_game(&mut self, game: &mut Game<R>) {
        self.replica.swap_game(game);
    }

    /// The game and its session log.
    pub fn replica(&self) -> &Replica<R> {
        &self.replica
    }

    /// The transport, to connect peers to it.
    pub fn transport_mut(&mut self) -> &mut T {
        &mut self.transport
    }

    /// What was sent and received so far.
    pub fn traffic(&self) -> Traffic {
        self.traffic
    }

    /// What happened that nobody was told in a reply (desyncs peers reported, refused reveals),
    /// newest last; the oldest are dropped past a few dozen.
    pub fn notes(&self) -> impl Iterator<Item = &str> {
        self.notes.iter().map(String::as_str)
    }

    /// How many notes were taken so far, the oldest dropped ones included: the notes after a
    /// count seen before are the last `noted() - count` of [`notes`](Self::notes) (fewer if some
    /// were dropped).
    pub fn noted(&self) -> u64 {
        self.noted
    }

    fn note(&mut self, note: String) {
        self.noted += 1;
        if self.notes.len() == MAX_NOTES {
            self.notes.pop_front();
        }
        self.notes.push_back(note);
    }

    /// The host's own player (`None` when it only hosts).
    pub fn player(&self) -> Option<u32> {
        self.me
    }

    /// The peers, as the host lists them: itself first, then the connected peers that were
    /// welcomed, then the holders of the seats whose players are away.
    pub fn peer_list(&self) -> Vec<PeerInfo> {
        let me = PeerInfo {
            id: self.transport.id(),
            player: self.me,
            connected: true,
        };
        let here = self
            .peers
            .iter()
            .filter(|(_, s)| s.hello)
            .map(|(&id, s)| PeerInfo {
                id,
                player: s.player,
                connected: true,
            });
        let away = self
            .seats
            .iter()
            .filter(|&(&n, &id)| !self.holder_here(n, id))
            .map(|(&n, &id)| PeerInfo {
                id,
                player: Some(n),
                connected: false,
            });
        std::iter::once(me).chain(here).chain(away).collect()
    }

    /// Each seat's holder, by player number, and whether it is connected now.
    pub fn seats(&self) -> Vec<(u32, PeerId, bool)> {
        self.seats
            .iter()
            .map(|(&n, &id)| (n, id, self.holder_here(n, id)))
            .collect()
    }

    /// Whether seat `n`'s holder `id` is here playing it: the host's own seat, or a connected
    /// peer welcomed as that player.
    fn holder_here(&self, n: u32, id: PeerId) -> bool {
        self.me == Some(n) || self.peers.get(&id).is_some_and(|s| s.player == Some(n))
    }

    /// Who the host lets in from now on; `password`, when set, must be in every hello.
    pub fn set_admission(&mut self, admission: Admission, password: Option<String>) {
        self.admission = admission;
        self.password = password;
    }

    /// The joiners waiting to be admitted ([`Admission::Ask`]).
    pub fn asking(&self) -> Vec<Asking> {
        self.peers
            .iter()
            .filter_map(|(&id, s)| {
                s.asking
                    .as_ref()
                    .map(|(want, _)| Asking { id, want: *want })
            })
            .collect()
    }

    /// Lets a joiner that waits in; it is welcomed if its seat is still to be had.
    pub fn admit(&mut self, peer: PeerId) -> Result<(), String> {
        let Some((want, contact)) = self.peers.get_mut(&peer).and_then(|s| s.asking.take()) else {
            return Err(format!("peer {} is not waiting to be admitted", peer.0));
        };
        match self.seat_for(peer, want) {
            Ok(player) => {
                self.seat(peer, player, contact);
                Ok(())
            }
            Err(reason) => {
                self.refuse_hello(peer, reason.clone());
                Err(reason)
            }
        }
    }

    /// Turns away a joiner that waits to be admitted; it may ask again.
    pub fn turn_away(&mut self, peer: PeerId) -> Result<(), String> {
        if self.peers.get(&peer).is_none_or(|s| s.asking.is_none()) {
            return Err(format!("peer {} is not waiting to be admitted", peer.0));
        }
        self.refuse_hello(peer, "the host did not let you in".into());
        Ok(())
    }

    /// Removes a peer (a player or a watcher) for good: it is told so and its key is refused
    /// from then on; a seat it held is freed for the next who asks.
    pub fn remove(&mut self, peer: PeerId, reason: &str) -> Result<(), String> {
        if peer == self.transport.id() {
            return Err("the host does not remove itself".into());
        }
        let known = self.peers.contains_key(&peer) || self.seats.values().any(|&id| id == peer);
        if !known {
            return Err(format!("peer {} is not in this game", peer.0));
        }
        if self.peers.contains_key(&peer) {
            let _ = self.send(
                peer,
                &Message::Removed {
                    reason: reason.to_string(),
                },
            );
            self.transport.close(peer);
            self.peers.remove(&peer);
        }
        self.seats.retain(|_, id| *id != peer);
        if self.barred.len() < MAX_BARRED {
            self.barred.insert(peer);
        }
        self.note(format!("{peer} removed: {reason}"));
        self.broadcast_peers();
        Ok(())
    }

    /// Frees player `n`'s seat: the next key that asks for it takes it. A holder still
    /// connected watches from then on.
    pub fn free_seat(&mut self, n: u32) -> Result<(), String> {
        if self.me == Some(n) {
            return Err(format!("player {n} is the host's own seat"));
        }
        let Some(old) = self.seats.remove(&n) else {
            return Err(format!("player {n}'s seat is free already"));
        };
        self.unseat(old, n);
        self.note(format!("player {n}'s seat is free"));
        self.broadcast_peers();
        Ok(())
    }

    /// Gives player `n`'s seat to a connected peer that holds no seat (a watcher): its key holds
    /// it from then on. A holder still connected watches from then on.
    pub fn give_seat(&mut self, n: u32, to: PeerId) -> Result<(), String> {
        if !(1..=self.replica.setup().seats).contains(&n) {
            return Err(format!("the game has no player {n}"));
        }
        if self.me == Some(n) {
            return Err(format!("player {n} is the host's own seat"));
        }
        let Some(slot) = self.peers.get(&to).filter(|s| s.hello) else {
            return Err(format!("peer {} is not connected", to.0));
        };
        if let Some(m) = slot.player {
            return Err(format!("peer {} plays player {m} already", to.0));
        }
        if self.seats.values().any(|&id| id == to) {
            return Err(format!("peer {} holds another seat", to.0));
        }
        if let Some(old) = self.seats.remove(&n) {
            self.unseat(old, n);
        }
        let contact = self.peers.get(&to).and_then(|s| s.contact.clone());
        self.seat(to, Some(n), contact);
        self.note(format!("player {n}'s seat goes to {to}"));
        Ok(())
    }

    /// The former holder of seat `n`, if connected, watches from now on.
    fn unseat(&mut self, old: PeerId, n: u32) {
        let here = self
            .peers
            .get_mut(&old)
            .filter(|s| s.hello && s.player == Some(n));
        if let Some(s) = here {
            s.player = None;
            let welcome = self.welcome_of(None);
            let _ = self.send(old, &welcome);
        }
    }

    fn send(&mut self, to: PeerId, message: &Message) -> Result<(), SendError> {
        let frame = codec::encode(message).map_err(|_| SendError::TooLarge)?;
        let len = frame.len() as u64;
        self.transport.send(to, frame)?;
        self.traffic.sent += 1;
        self.traffic.sent_bytes += len;
        Ok(())
    }

    /// Sends to every connected peer that said hello; one that does not keep up misses it and asks
    /// again when the next one shows the gap.
    fn broadcast(&mut self, message: &Message) {
        let to: Vec<PeerId> = self
            .peers
            .iter()
            .filter(|(_, s)| s.hello)
            .map(|(&p, _)| p)
            .collect();
        for p in to {
            let _ = self.send(p, message);
        }
    }

    /// Refuses a message of a peer with a reason; past its allowance of refusals (a poll's and a
    /// second's) the message is dropped unanswered.
    fn refuse(&mut self, from: From, at: u64, reason: String) {
        let Some(p) = from else { return };
        if self.peers.get(&p).is_none_or(|s| s.refused >= MAX_REFUSALS) {
            return;
        }
        if !self.allow(p, |b| &mut b.refused, limits::REFUSED) {
            return;
        }
        let Some(slot) = self.peers.get_mut(&p) else {
            return;
        };
        slot.refused += 1;
        let _ = self.send(p, &Message::Reject { at, reason });
    }

    fn player_of(&self, from: From) -> Option<u32> {
        match from {
            None => self.me,
            Some(p) => self.peers.get(&p).and_then(|s| s.player),
        }
    }

    fn owns(&self, player: Option<u32>, maker: Maker) -> bool {
        player.is_some_and(|p| self.replica.is_players(maker, p))
    }

    /// Handles what the transport has (at most [`MAX_EVENTS_PER_POLL`] events); returns how many.
    pub fn poll(&mut self) -> usize {
        // Each poll gives every peer a fresh allowance: a flood costs a bounded amount of work per
        // poll, and a peer that spent its allowance on its own turn can still decide at the next.
        for s in self.peers.values_mut() {
            s.spent = 0;
            s.refused = 0;
        }
        self.now = Instant::now();
        let mut n = 0;
        while n < MAX_EVENTS_PER_POLL {
            let Some(event) = self.transport.poll() else {
                break;
            };
            self.handle(event);
            n += 1;
        }
        self.salt_overdue();
        n
    }

    /// The host's own decision, once its salt is overdue (or the player asked is gone), is keyed
    /// by the host's own salt; once another decision took its place, it is dropped.
    fn salt_overdue(&mut self) {
        let Some(a) = &self.asking_salt else { return };
        let here = self
            .peers
            .get(&a.peer)
            .is_some_and(|s| s.hello && s.player == Some(a.player));
        if a.at != self.replica.len() {
            let at = a.at;
            self.asking_salt = None;
            self.note(format!(
                "the host's decision at entry {at} was overtaken by another: make it again"
            ));
        } else if !here || self.now.duration_since(a.since) >= COSIGN_WAIT {
            let Some(a) = self.asking_salt.take() else {
                return;
            };
            self.note(format!(
                "player {} gave no salt for the host's decision at entry {}: the host's own keys \
                 its draws",
                a.player, a.at
            ));
            // Not a salt of the host's choosing: one its secret fixes, which the player asked
            // checks should its salt come late.
            let committed = self
                .secrets
                .get(&a.at)
                .map(crate::draws::fallback_salt)
                .ok_or_else(|| format!("no draw secret for entry {}", a.at))
                .and_then(|salt| self.commit(a.action, a.maker, None, a.at, salt, None));
            if let Err(e) = committed {
                self.note(format!(
                    "the host's decision at entry {} is refused: {e}",
                    a.at
                ));
            }
        }
    }

    /// The seated player other than the host's own with the lowest number who is connected: the
    /// one asked for the salt of the host's own decisions.
    fn cosigner(&self) -> Option<(PeerId, u32)> {
        self.seats
            .iter()
            .filter(|&(&n, _)| Some(n) != self.me)
            .find(|&(&n, id)| {
                self.peers
                    .get(id)
                    .is_some_and(|s| s.hello && s.player == Some(n))
            })
            .map(|(&n, &id)| (id, n))
    }

    /// A decision of the host's own player: sent to another seated player for the salt of its
    /// draws, or committed with the host's own salt when nobody else is seated and connected.
    fn ask_salt(&mut self, action: R::Action, maker: Maker, at: u64) -> Result<(), String> {
        if let Some(a) = &self.asking_salt {
            return Err(format!(
                "the host's last decision waits for player {}'s salt",
                a.player
            ));
        }
        let Some((peer, player)) = self.cosigner() else {
            let salt = self.entropy.salt()?;
            return self.commit(action, maker, None, at, salt, None);
        };
        let asked = Message::SaltFor {
            at,
            action: encode_action(&action),
        };
        self.send(peer, &asked).map_err(|e| e.to_string())?;
        self.asking_salt = Some(AskingSalt {
            at,
            action,
            maker,
            peer,
            player,
            since: self.now,
        });
        Ok(())
    }

    /// A salt for the host's own decision, from the player asked.
    fn salt_given(&mut self, p: PeerId, at: u64, salt: Salt) {
        let Some(a) = self
            .asking_salt
            .take_if(|a| a.peer == p && a.at == at && at == self.replica.len())
        else {
            return;
        };
        if let Err(e) = self.commit(a.action, a.maker, None, at, salt, Some(a.player)) {
            self.note(format!("the host's decision at entry {at} is refused: {e}"));
        }
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Joined(p) => {
                let refused = if self.barred.contains(&p) {
                    Some("the host removed this key from the game".to_string())
                } else if !self.peers.contains_key(&p) && self.peers.len() >= MAX_PEERS {
                    Some(format!("the game has {MAX_PEERS} peers already"))
                } else {
                    None
                };
                if let Some(reason) = refused {
                    let _ = self.transport.send(
                        p,
                        codec::encode(&Message::Bye { reason }).unwrap_or_default(),
                    );
                    self.transport.close(p);
                    return;
                }
                // A connection again from the same key starts afresh (the transport has closed
                // the old one); its seat, if it holds one, is kept by the key.
                self.peers.insert(p, Slot::default());
            }
            Event::Left(p) => {
                // A departed peer frees its place at once; a seat it held stays its key's.
                if self.peers.remove(&p).is_some_and(|s| s.hello) {
                    self.broadcast_peers();
                }
            }
            Event::Frame(p, frame) => {
                // A peer not connected, or past its allowance of frames: dropped unread.
                if !self.allow(p, |b| &mut b.frames, limits::FRAMES) {
                    return;
                }
                self.traffic.received += 1;
                self.traffic.received_bytes += frame.len() as u64;
                match codec::decode(&frame) {
                    Ok(m) => self.on_message(p, m),
                    Err(e) => {
                        let at = self.replica.len();
                        self.refuse(Some(p), at, format!("the message is refused: {e}"));
                    }
                }
            }
        }
    }

    fn on_message(&mut self, p: PeerId, message: Message) {
        let hello = self.peers.get(&p).is_some_and(|s| s.hello);
        let len = self.replica.len();
        match message {
            Message::Hello {
                version,
                rules,
                scenario,
                want,
                contact,
                password,
            } => self.hello(p, version, &rules, scenario, want, contact, password),
            Message::GetScenario => self.send_scenario(p),
            _ if !hello => self.refuse(Some(p), len, "say hello first".into()),
            Message::Propose { at, action, salt } => {
                if let Err(why) = self.propose_bytes(Some(p), at, &action, salt) {
                    self.refuse(Some(p), at, why);
                }
            }
            Message::SyncFrom { from } => {
                if self.allow(p, |b| &mut b.catch_ups, limits::CATCH_UPS) {
                    self.catch_up(p, from);
                } else {
                    self.refuse(
                        Some(p),
                        from,
                        "too many catch-ups asked: wait a moment".into(),
                    );
                }
            }
            Message::UndoRequest { at } => {
                let why = if self.allow(p, |b| &mut b.undos, limits::UNDOS) {
                    self.undo_for(Some(p), at).err()
                } else {
                    Some("too many undo requests: wait a moment".into())
                };
                if let Some(why) = why {
                    self.refuse(Some(p), at, why);
                }
            }
            Message::Commitment { at, hero, digest } => {
                if let Err(why) = self.commitment(Some(p), at, hero, digest) {
                    self.refuse(Some(p), at, why);
                }
            }
            Message::Reveal {
                at,
                hero,
                action,
                salt,
            } => {
                if let Err(why) = self.reveal(Some(p), at, hero, action, salt) {
                    self.refuse(Some(p), at, why);
                }
            }
            Message::Salt { at, salt } => self.salt_given(p, at, salt),
            Message::Desync { report } => {
                let report: String = report.chars().take(400).collect();
                self.note(format!("peer {} reports a desync: {report}", p.0));
            }
            Message::Bye { .. } => {
                self.peers.remove(&p);
                self.transport.close(p);
                self.broadcast_peers();
            }
            other => {
                let why = format!("only the host sends {}", other.name());
                self.refuse(Some(p), len, why);
            }
        }
    }

    /// Takes one of a peer's allowances; `false` when it is spent for now.
    fn allow(
        &mut self,
        p: PeerId,
        which: fn(&mut Buckets) -> &mut Bucket,
        limit: (u64, u64),
    ) -> bool {
        let now = self.now;
        self.peers
            .get_mut(&p)
            .is_some_and(|s| which(&mut s.buckets).take(now, limit.0, limit.1))
    }

    #[expect(clippy::too_many_arguments, reason = "the hello's fields, read once")]
    fn hello(
        &mut self,
        p: PeerId,
        version: u32,
        rules: &str,
        scenario: StateHash,
        want: Want,
        contact: Option<String>,
        password: Option<String>,
    ) {
        if !self.allow(p, |b| &mut b.hellos, limits::HELLOS) {
            let len = self.replica.len();
            self.refuse(Some(p), len, "too many hellos: wait a moment".into());
            return;
        }
        let setup = self.replica.setup();
        let refused = if version != PROTOCOL {
            Some(format!("protocol {version}: this host speaks {PROTOCOL}"))
        } else if let Some(c) = contact.as_ref().filter(|c| c.len() > MAX_CONTACT) {
            Some(format!(
                "a contact of {} characters: at most {MAX_CONTACT}",
                c.len()
            ))
        } else if password.as_ref().is_some_and(|w| w.len() > MAX_PASSWORD) {
            Some(format!("a password of more than {MAX_PASSWORD} bytes"))
        } else if rules != setup.rules {
            Some(format!(
                "the game is played by the {} rules, not {rules}",
                setup.rules
            ))
        } else if scenario != setup.scenario {
            Some(format!(
                "the scenario file differs from the host's (text hash {scenario}, the host's {})",
                setup.scenario
            ))
        } else if self.password.is_some() && password != self.password {
            Some("the room's password is wrong".into())
        } else {
            None
        };
        if let Some(reason) = refused {
            self.refuse_hello(p, reason);
            return;
        }
        let player = match self.seat_for(p, want) {
            Ok(player) => player,
            Err(reason) => {
                self.refuse_hello(p, reason);
                return;
            }
        };
        // A seat's holder coming back was admitted before; anyone else by the admission.
        let holder = player.is_some_and(|n| self.seats.get(&n) == Some(&p));
        let admitted = holder
            || match &self.admission {
                Admission::Open => true,
                Admission::Keys(keys) => keys.contains(&p),
                Admission::Ask => false,
            };
        if !admitted {
            if matches!(self.admission, Admission::Keys(_)) {
                self.refuse_hello(p, "this host admits only the keys it was given".into());
                return;
            }
            if let Some(s) = self.peers.get_mut(&p) {
                s.asking = Some((want, contact));
            }
            let len = self.replica.len();
            self.refuse(Some(p), len, "waiting for the host to admit you".into());
            self.note(format!("{p} asks to join as {want}"));
            return;
        }
        self.seat(p, player, contact);
    }

    /// The seat a hello may have, or why not: a seat belongs to the key that took it first.
    fn seat_for(&self, p: PeerId, want: Want) -> Result<Option<u32>, String> {
        let Want::Player(n) = want else {
            return Ok(None);
        };
        if !(1..=self.replica.setup().seats).contains(&n) {
            return Err(format!("the game has no player {n}"));
        }
        match self.seats.get(&n) {
            Some(&holder) if holder == p => Ok(Some(n)),
            Some(_) => Err(format!(
                "player {n} is taken: its seat belongs to another key (the players can hand it over)"
            )),
            None => match self.seats.iter().find(|&(_, &id)| id == p) {
                Some((m, _)) => Err(format!("this key holds player {m}'s seat")),
                None => Ok(Some(n)),
            },
        }
    }

    /// Refuses a hello: the peer is told why, and its place is freed at once.
    fn refuse_hello(&mut self, p: PeerId, reason: String) {
        let _ = self.send(p, &Message::Bye { reason });
        self.transport.close(p);
        self.peers.remove(&p);
    }

    fn welcome_of(&self, player: Option<u32>) -> Message {
        Message::Welcome {
            player,
            setup: self.replica.setup().clone(),
            start: self.replica.start(),
            len: self.replica.len(),
            hash: self.replica.hash(),
            draws: self.replica.commitment_at(self.replica.len()),
        }
    }

    /// Seats a peer (or makes it a watcher) and welcomes it.
    fn seat(&mut self, p: PeerId, player: Option<u32>, contact: Option<String>) {
        if let Some(n) = player {
            self.seats.insert(n, p);
        }
        if let Some(s) = self.peers.get_mut(&p) {
            s.hello = true;
            s.asking = None;
            s.player = player;
            s.contact = contact;
        }
        if let Some(n) = player {
            self.void_lost_picks(n);
        }
        let welcome = self.welcome_of(player);
        let _ = self.send(p, &welcome);
        self.broadcast_peers();
        self.broadcast_contacts();
    }

    /// How to reach each connected peer, sent when one joins (not with every list of who is
    /// connected, which goes out at every commitment).
    fn broadcast_contacts(&mut self) {
        let contacts = self
            .peers
            .iter()
            .filter(|(_, s)| s.hello)
            .filter_map(|(&id, s)| Some((id, s.contact.clone()?)))
            .collect();
        self.broadcast(&Message::Contacts { contacts });
    }

    /// The scenario's text, once per connection: asking again is refused, so a flood costs
    /// nothing more.
    fn send_scenario(&mut self, p: PeerId) {
        let len = self.replica.len();
        let Some(text) = self.scenario_text.clone() else {
            self.refuse(Some(p), len, "this host does not send its scenario".into());
            return;
        };
        let Some(slot) = self.peers.get_mut(&p) else {
            return;
        };
        if slot.sent_scenario {
            self.refuse(Some(p), len, "the scenario was sent already".into());
            return;
        }
        slot.sent_scenario = true;
        let _ = self.send(p, &Message::Scenario { text });
    }

    fn broadcast_peers(&mut self) {
        let peers = self.peer_list();
        let waiting = self.waiting();
        self.broadcast(&Message::Peers { peers, waiting });
    }

    /// The heroes the game waits for: those to move, less those whose hidden pick is committed.
    pub fn waiting(&self) -> Vec<u32> {
        let ToMove::Heroes(heroes) = self.replica.game().to_move() else {
            return Vec::new();
        };
        heroes
            .into_iter()
            .filter(|h| {
                !self
                    .round
                    .as_ref()
                    .is_some_and(|r| r.commitments.contains_key(h))
            })
            .filter_map(|h| u32::try_from(h).ok())
            .collect()
    }

    /// Sends the session log from entry `from` in messages of at most [`MAX_MESSAGE`] bytes.
    fn catch_up(&mut self, p: PeerId, from: u64) {
        let len = self.replica.len();
        if from > len {
            let why = format!("the log has {len} entries: there is no entry {from}");
            self.refuse(Some(p), from, why);
            return;
        }
        let start = usize::try_from(from).unwrap_or(usize::MAX);
        let budget = MAX_MESSAGE / 2;
        let mut chunks: Vec<Message> = Vec::new();
        let mut chunk: Vec<Entry> = Vec::new();
        let (mut size, mut first) = (0, from);
        for e in &self.replica.entries()[start..] {
            let n = postcard::to_allocvec(e).map_or(0, |b| b.len());
            if !chunk.is_empty() && size + n > budget {
                let entries = std::mem::take(&mut chunk);
                let next = first + entries.len() as u64;
                chunks.push(Message::Catchup {
                    from: first,
                    entries,
                });
                (first, size) = (next, 0);
            }
            size += n;
            chunk.push(e.clone());
        }
        if !chunk.is_empty() {
            chunks.push(Message::Catchup {
                from: first,
                entries: chunk,
            });
        }
        for m in chunks {
            // A chunk that does not fit in the queue ends this catch-up: the peer asks again from
            // where it got to.
            if self.send(p, &m).is_err() {
                return;
            }
        }
    }

    /// The host's own player proposes a decision.
    pub fn propose(&mut self, action: &R::Action) -> Result<(), String> {
        let at = self.replica.len();
        // The host's own salt: it is ignored (see `propose_bytes`), a fresh one is drawn there.
        self.propose_bytes(None, at, &encode_action(action), [0; 16])
    }

    fn propose_bytes(
        &mut self,
        from: From,
        at: u64,
        bytes: &ActionBytes,
        salt: Salt,
    ) -> Result<(), String> {
        let len = self.replica.len();
        if let Some(slot) = from.and_then(|p| self.peers.get_mut(&p)) {
            slot.spent += 1;
            if slot.spent > MAX_IN_FLIGHT {
                return Err(format!(
                    "more than {MAX_IN_FLIGHT} proposals at once: refused unread"
                ));
            }
        }
        if at != len {
            return Err(format!(
                "proposed at entry {at}, the log is at {len}: stale, repeated or out of order"
            ));
        }
        let player = self.player_of(from);
        let Some(player) = player else {
            return Err("a spectator makes no decision".into());
        };
        let action: R::Action =
            decode_action(bytes).map_err(|e| format!("the action is refused: {e}"))?;
        R::check_action(&action).map_err(|e| format!("the action is refused: {e}"))?;
        if !choosing_in_secret::<R>(&self.replica.game().state).is_empty() {
            return Err("the heroes choose in secret now: send a commitment".into());
        }
        let Some(maker) = self.replica.maker(&action) else {
            return Err(match self.replica.game().to_move() {
                ToMove::Over { .. } => "the game is over".into(),
                ToMove::Heroes(h) => format!(
                    "not a legal action of the heroes to move ({h:?}): not your turn, or not a move the rules allow"
                ),
                ToMove::Tie { .. } => "a tie is to be broken: not a choice of it".into(),
                ToMove::Rules { .. } | ToMove::Chance { .. } => {
                    "the rules' own steps and the dice are not proposed: every copy runs them"
                        .into()
                }
            });
        };
        if !self.owns(Some(player), maker) {
            return Err(match maker {
                Maker::Hero(h) => format!("hero {h} is not player {player}'s"),
                Maker::Table => format!("the table's ties are not player {player}'s to break"),
            });
        }
        if from.is_none() {
            // The host's own decision: another player's salt keys its draws.
            return self.ask_salt(action, maker, at);
        }
        self.commit(action, maker, None, at, salt, None)
    }

    /// The next draw secret: for the decisions made at log length `at`, committed to now.
    fn next_secret(&mut self, at: u64) -> Result<Digest, String> {
        let secret = self.entropy.secret()?;
        self.secrets.insert(at, secret);
        // A reveal round reads the secret of the length its picks were made at: a few are kept.
        while self.secrets.len() > SECRETS_KEPT {
            self.secrets.pop_first();
        }
        Ok(commitment(&secret))
    }

    /// Commits a decision made at log length `at` with the `salt` of the decider (or of player
    /// `by`, who gave it for the host's decision) and a hidden pick's `hidden` salt: the host's
    /// secret for `at` is revealed with it.
    fn commit(
        &mut self,
        action: R::Action,
        maker: Maker,
        hidden: Option<Salt>,
        at: u64,
        salt: Salt,
        by: Option<u32>,
    ) -> Result<(), String> {
        let secret = *self
            .secrets
            .get(&at)
            .ok_or_else(|| format!("no draw secret for entry {at}: propose again"))?;
        let next = self.next_secret(self.replica.len() + 1)?;
        let draws = Draws {
            by,
            ..crate::draws::draws(at, secret, salt)
        };
        let commit = self
            .replica
            .decide(action, maker, hidden, Some(draws), Some(next))?;
        for s in self.peers.values_mut() {
            s.spent = 0;
        }
        let cursor = self.replica.game().cursor;
        if cursor > self.furthest {
            self.furthest = cursor;
            self.undos_since = 0;
        }
        self.broadcast(&Message::Commit(commit));
        Ok(())
    }

    /// The host's own player asks to undo its last decision.
    pub fn request_undo(&mut self) -> Result<(), String> {
        let at = self.replica.len();
        self.undo_for(None, at)
    }

    /// The undo policy: a player's last decision in effect is undone on its request when it is not
    /// a hidden pick and no other seat has decided since; the request names the log's length.
    fn undo_for(&mut self, from: From, at: u64) -> Result<(), String> {
        let len = self.replica.len();
        if at != len {
            return Err(format!("undo asked at entry {at}, the log is at {len}"));
        }
        if self
            .round
            .as_ref()
            .is_some_and(|r| r.at == len && !r.commitments.is_empty())
        {
            return Err("hidden picks are being committed".into());
        }
        let player = self.player_of(from);
        let to = self.replica.undoable(|m| self.owns(player, m))?;
        if self.undos_since >= MAX_UNDOS_WITHOUT_PROGRESS {
            return Err(format!(
                "{MAX_UNDOS_WITHOUT_PROGRESS} undos since the game last went further: play on first"
            ));
        }
        self.undos_since += 1;
        let next = self.next_secret(len + 1)?;
        let granted = self.replica.undo(to, Some(next));
        self.broadcast(&Message::UndoGranted(granted));
        Ok(())
    }

    /// The host's own player commits to a hidden pick for `hero`; it is revealed once every hero
    /// choosing has committed.
    pub fn commit_secret(&mut self, hero: usize, action: &R::Action) -> Result<(), String> {
        let at = self.replica.len();
        let bytes = encode_action(action);
        let salt = self.entropy.salt()?;
        let hero32 = u32::try_from(hero).map_err(|_| "no such hero".to_string())?;
        let d = digest(at, hero32, &bytes, &salt);
        self.my_picks.insert(hero, (bytes, salt));
        self.commitment(None, at, hero32, d)
    }

    fn commitment(&mut self, from: From, at: u64, hero: u32, d: Digest) -> Result<(), String> {
        let len = self.replica.len();
        if let Some(slot) = from.and_then(|p| self.peers.get_mut(&p)) {
            slot.spent += 1;
            if slot.spent > MAX_IN_FLIGHT {
                return Err(format!(
                    "more than {MAX_IN_FLIGHT} commitments at once: refused unread"
                ));
            }
        }
        if at != len {
            return Err(format!("committed at entry {at}, the log is at {len}"));
        }
        let heroes = choosing_in_secret::<R>(&self.replica.game().state);
        let h = usize::try_from(hero).unwrap_or(usize::MAX);
        if !heroes.contains(&h) {
            return Err(format!("hero {hero} is not choosing in secret now"));
        }
        if !self.owns(self.player_of(from), Maker::Hero(h)) {
            return Err(format!("hero {hero} is not yours"));
        }
        let round = match &mut self.round {
            Some(r) if r.at == at => r,
            slot => slot.insert(Round {
                at,
                heroes: heroes.clone(),
                commitments: BTreeMap::new(),
                revealing: false,
                reveals: BTreeMap::new(),
            }),
        };
        if round.revealing {
            return Err("the picks are being revealed: commitments are closed".into());
        }
        round.commitments.insert(h, d);
        let all = round
            .heroes
            .iter()
            .all(|h| round.commitments.contains_key(h));
        if !all {
            self.broadcast_peers();
            return Ok(());
        }
        round.revealing = true;
        let commitments: Vec<(u32, Digest)> = round
            .commitments
            .iter()
            .filter_map(|(&h, &d)| Some((u32::try_from(h).ok()?, d)))
            .collect();
        self.broadcast(&Message::RevealNow { at, commitments });
        // The host's own picks go last, after everyone's commitment is fixed and sent.
        let mine: Vec<(usize, (ActionBytes, Salt))> =
            std::mem::take(&mut self.my_picks).into_iter().collect();
        for (h, (bytes, salt)) in mine {
            let hero = u32::try_from(h).unwrap_or(u32::MAX);
            if let Err(why) = self.reveal(None, at, hero, bytes, salt) {
                self.note(format!("the host's own pick for hero {h}: {why}"));
            }
        }
        Ok(())
    }

    /// A player who comes (back) to a seat holds no pick it committed to before: a crashed
    /// program took the picks and their salts with it, so they can never be revealed. Its heroes'
    /// commitments not yet revealed are dropped, and they commit again; the picks already
    /// revealed to the host stay, so nobody else chooses again.
    fn void_lost_picks(&mut self, player: u32) {
        let players = &self.replica.setup().players;
        let Some(round) = self.round.as_mut() else {
            return;
        };
        let lost: Vec<usize> = round
            .commitments
            .keys()
            .copied()
            .filter(|h| players.get(*h) == Some(&player) && !round.reveals.contains_key(h))
            .collect();
        if lost.is_empty() {
            return;
        }
        for h in &lost {
            round.commitments.remove(h);
        }
        round.revealing = false;
        self.note(format!(
            "player {player} came back without its picks: heroes {lost:?} choose again"
        ));
    }

    fn reveal(
        &mut self,
        from: From,
        at: u64,
        hero: u32,
        bytes: ActionBytes,
        salt: Salt,
    ) -> Result<(), String> {
        let h = usize::try_from(hero).unwrap_or(usize::MAX);
        if !self.owns(self.player_of(from), Maker::Hero(h)) {
            return Err(format!("hero {hero} is not yours"));
        }
        let Some(round) = self.round.as_mut().filter(|r| r.at == at && r.revealing) else {
            return Err(format!("no reveal is due at entry {at}"));
        };
        if round.commitments.get(&h) != Some(&digest(at, hero, &bytes, &salt)) {
            return Err(format!(
                "the pick of hero {hero} does not match its commitment"
            ));
        }
        round.reveals.insert(h, (bytes, salt));
        if round.heroes.iter().all(|h| round.reveals.contains_key(h)) {
            self.finish_round();
        }
        Ok(())
    }

    /// Applies every revealed pick, in hero order. A pick the rules refuse is refused to its
    /// player, whose hero then commits again.
    fn finish_round(&mut self) {
        let Some(round) = self.round.take() else {
            return;
        };
        for (h, (bytes, salt)) in round.reveals {
            let owner: Vec<PeerId> = self
                .peers
                .iter()
                .filter(|(_, s)| self.owns(s.player, Maker::Hero(h)))
                .map(|(&p, _)| p)
                .collect();
            let result = decode_action::<R::Action>(&bytes)
                .map_err(|e| e.to_string())
                .and_then(|a| R::check_action(&a).map(|()| a))
                .and_then(|a| match self.replica.maker(&a) {
                    Some(Maker::Hero(m)) if m == h => Ok(a),
                    _ => Err(format!("not a legal pick of hero {h}")),
                })
                .and_then(|a| self.commit(a, Maker::Hero(h), Some(salt), round.at, salt, None));
            if let Err(why) = result {
                let at = self.replica.len();
                self.note(format!("the hidden pick of hero {h} is refused: {why}"));
                for p in owner {
                    self.refuse(
                        Some(p),
                        at,
                        format!("the pick of hero {h} is refused: {why}"),
                    );
                }
            }
        }
    }

    /// The next move of the host's own player by the hero autopilot, made now: a proposal, or a
    /// commitment to a hidden pick. Returns whether it moved.
    pub fn play_auto(&mut self) -> bool {
        if self.asking_salt.is_some() {
            return false;
        }
        let player = self.me;
        let committed: BTreeSet<usize> = self.my_picks.keys().copied().collect();
        let round_has = |h: usize| {
            self.round
                .as_ref()
                .is_some_and(|r| r.commitments.contains_key(&h))
        };
        let next = self.replica.auto_move(
            |m| self.owns(player, m),
            |h| committed.contains(&h) || round_has(h),
        );
        match next {
            Some(AutoMove::Propose(a)) => self.propose(&a).is_ok(),
            Some(AutoMove::Secret(h, a)) => self.commit_secret(h, &a).is_ok(),
            None => false,
        }
    }
}

/// Each hero's player when `seats` players share the heroes: hero N is player N mod seats + 1's.
pub fn seat_heroes<R: Present>(game: &Game<R>, seats: u32) -> Vec<u32> {
    let heroes = R::view(&game.state)
        .figures
        .iter()
        .filter(|f| f.side == foehold_core::rules::view::Side::Hero)
        .count();
    (0..heroes)
        .map(|h| u32::try_from(h).unwrap_or(u32::MAX) % seats.max(1) + 1)
        .collect()
}
