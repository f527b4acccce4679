//! The host: the authoritative game, checking every proposal and committing it to everyone.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use foehold_core::game::Game;
use foehold_core::rules::{Present, Rules, TieBreaker, ToMove};

use crate::codec::{self, MAX_MESSAGE, decode_action, encode_action};
use crate::message::{
    ActionBytes, Digest, Entry, MAX_CONTACT, Message, PROTOCOL, PeerId, PeerInfo, Salt, Setup,
    StateHash, Want,
};
use crate::replica::{AutoMove, Maker, Replica};
use crate::secret::{choosing_in_secret, digest, fresh_salt};
use crate::transport::{Event, SendError, Transport};
use crate::{Traffic, local};

/// The most peers a host keeps, connected or not.
pub const MAX_PEERS: usize = 16;
/// The most proposals, commitments and reveals of one peer handled in one [`Host::poll`] (and
/// between two commits); past it they are refused unread.
pub const MAX_IN_FLIGHT: u32 = 4;
/// The most refusals a peer is sent in one [`Host::poll`]; past it its messages are dropped.
pub const MAX_REFUSALS: u32 = 32;
/// The most transport events one [`Host::poll`] handles.
pub const MAX_EVENTS_PER_POLL: usize = 1024;
/// The most notes kept.
const MAX_NOTES: usize = 64;

/// What the host knows of a peer.
#[derive(Debug, Clone, Default)]
struct Slot {
    connected: bool,
    hello: bool,
    player: Option<u32>,
    /// Proposals and commitments in this poll since the last commit.
    spent: u32,
    /// Refusals sent in this poll.
    refused: u32,
    /// Whether the scenario was sent on this connection.
    sent_scenario: bool,
    /// How to reach the peer should it continue as host.
    contact: Option<String>,
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
    peers: BTreeMap<PeerId, Slot>,
    round: Option<Round>,
    /// The host's own hidden picks until their reveal.
    my_picks: BTreeMap<usize, (ActionBytes, Salt)>,
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
        Host::from_replica(
            Replica::new(game, setup),
            me,
            Vec::new(),
            &BTreeMap::new(),
            transport,
        )
    }

    /// Continues as host from a copy of the game: `known` are the peers the last host listed, who
    /// keep their seats when they come back, and `contacts` how to reach them.
    pub fn from_replica(
        replica: Replica<R>,
        me: Option<u32>,
        known: Vec<PeerInfo>,
        contacts: &BTreeMap<PeerId, String>,
        transport: T,
    ) -> Host<R, T> {
        let mine = transport.id();
        let peers = known
            .into_iter()
            .filter(|p| p.id != mine)
            .take(MAX_PEERS)
            .map(|p| {
                let slot = Slot {
                    player: p.player,
                    contact: contacts.get(&p.id).cloned(),
                    ..Slot::default()
                };
                (p.id, slot)
            })
            .collect();
        Host {
            replica,
            transport,
            me,
            peers,
            round: None,
            my_picks: BTreeMap::new(),
            notes: VecDeque::new(),
            noted: 0,
            traffic: Traffic::default(),
            scenario_text: None,
        }
    }

    /// Sends the scenario file's text to a peer that asks for it ([`Message::GetScenario`]), so that
    /// a friend needs no copy of the file. Refused when it does not fit in one message.
    pub fn offer_scenario(&mut self, text: String) -> Result<(), codec::TooLarge> {
        codec::encode(&Message::Scenario { text: text.clone() })?;
        self.scenario_text = Some(text);
        Ok(())
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

    /// The peers, as the host lists them (itself first).
    pub fn peer_list(&self) -> Vec<PeerInfo> {
        let me = PeerInfo {
            id: self.transport.id(),
            player: self.me,
            connected: true,
        };
        std::iter::once(me)
            .chain(
                self.peers
                    .iter()
                    .filter(|(_, s)| s.hello)
                    .map(|(&id, s)| PeerInfo {
                        id,
                        player: s.player,
                        connected: s.connected,
                    }),
            )
            .collect()
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
            .filter(|(_, s)| s.connected && s.hello)
            .map(|(&p, _)| p)
            .collect();
        for p in to {
            let _ = self.send(p, message);
        }
    }

    fn refuse(&mut self, from: From, at: u64, reason: String) {
        let Some(p) = from else { return };
        let Some(slot) = self.peers.get_mut(&p) else {
            return;
        };
        if slot.refused >= MAX_REFUSALS {
            return;
        }
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
        let Some(player) = player else { return false };
        match maker {
            Maker::Hero(h) => self.replica.setup().players.get(h) == Some(&player),
            Maker::Table => self.replica.setup().table_player == player,
        }
    }

    /// Handles what the transport has (at most [`MAX_EVENTS_PER_POLL`] events); returns how many.
    pub fn poll(&mut self) -> usize {
        // Each poll gives every peer a fresh allowance: a flood costs a bounded amount of work per
        // poll, and a peer that spent its allowance on its own turn can still decide at the next.
        for s in self.peers.values_mut() {
            s.spent = 0;
            s.refused = 0;
        }
        let mut n = 0;
        while n < MAX_EVENTS_PER_POLL {
            let Some(event) = self.transport.poll() else {
                break;
            };
            self.handle(event);
            n += 1;
        }
        n
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Joined(p) => {
                if !self.peers.contains_key(&p) && self.peers.len() >= MAX_PEERS {
                    let _ = self.transport.send(
                        p,
                        codec::encode(&Message::Bye {
                            reason: format!("the game has {MAX_PEERS} peers already"),
                        })
                        .unwrap_or_default(),
                    );
                    self.transport.close(p);
                    return;
                }
                let slot = self.peers.entry(p).or_default();
                slot.connected = true;
                slot.hello = false;
                slot.sent_scenario = false;
            }
            Event::Left(p) => {
                if let Some(s) = self.peers.get_mut(&p) {
                    s.connected = false;
                }
                self.broadcast_peers();
            }
            Event::Frame(p, frame) => {
                let Some(slot) = self.peers.get(&p) else {
                    return;
                };
                if !slot.connected {
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
            } => self.hello(p, version, &rules, scenario, want, contact),
            Message::GetScenario => self.send_scenario(p),
            _ if !hello => self.refuse(Some(p), len, "say hello first".into()),
            Message::Propose { at, action } => {
                if let Err(why) = self.propose_bytes(Some(p), at, &action) {
                    self.refuse(Some(p), at, why);
                }
            }
            Message::SyncFrom { from } => self.catch_up(p, from),
            Message::UndoRequest { at } => {
                if let Err(why) = self.undo_for(Some(p), at) {
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
            Message::Desync { report } => {
                let report: String = report.chars().take(400).collect();
                self.note(format!("peer {} reports a desync: {report}", p.0));
            }
            Message::Bye { .. } => {
                if let Some(s) = self.peers.get_mut(&p) {
                    s.connected = false;
                }
                self.transport.close(p);
                self.broadcast_peers();
            }
            other => {
                let why = format!("only the host sends {}", other.name());
                self.refuse(Some(p), len, why);
            }
        }
    }

    fn hello(
        &mut self,
        p: PeerId,
        version: u32,
        rules: &str,
        scenario: StateHash,
        want: Want,
        contact: Option<String>,
    ) {
        let setup = self.replica.setup().clone();
        let refused = if version != PROTOCOL {
            Some(format!("protocol {version}: this host speaks {PROTOCOL}"))
        } else if let Some(c) = contact.as_ref().filter(|c| c.len() > MAX_CONTACT) {
            Some(format!(
                "a contact of {} characters: at most {MAX_CONTACT}",
                c.len()
            ))
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
        } else if let Want::Player(n) = want {
            let seated = (1..=setup.seats).contains(&n);
            let held = self.me == Some(n)
                || self
                    .peers
                    .iter()
                    .any(|(&q, s)| q != p && s.player == Some(n) && s.connected && s.hello);
            if !seated {
                Some(format!("the game has no player {n}"))
            } else if held {
                Some(format!("player {n} is taken"))
            } else {
                None
            }
        } else {
            None
        };
        if let Some(reason) = refused {
            let _ = self.send(p, &Message::Bye { reason });
            self.transport.close(p);
            if let Some(s) = self.peers.get_mut(&p) {
                s.connected = false;
            }
            return;
        }
        let player = match want {
            Want::Player(n) => Some(n),
            Want::Spectator => None,
        };
        // A seat held by a peer that is gone goes to whoever asks for it now.
        for (q, s) in &mut self.peers {
            if *q != p && s.player.is_some() && s.player == player {
                s.player = None;
            }
        }
        if let Some(s) = self.peers.get_mut(&p) {
            s.hello = true;
            s.player = player;
            s.contact = contact;
        }
        if let Some(n) = player {
            self.void_lost_picks(n);
        }
        let welcome = Message::Welcome {
            player,
            setup,
            start: self.replica.start(),
            len: self.replica.len(),
            hash: self.replica.hash(),
        };
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
            .filter(|(_, s)| s.connected && s.hello)
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
        self.propose_bytes(None, at, &encode_action(action))
    }

    fn propose_bytes(&mut self, from: From, at: u64, bytes: &ActionBytes) -> Result<(), String> {
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
        self.commit(action, maker, None)
    }

    fn commit(
        &mut self,
        action: R::Action,
        maker: Maker,
        salt: Option<Salt>,
    ) -> Result<(), String> {
        let commit = self.replica.decide(action, maker, salt)?;
        for s in self.peers.values_mut() {
            s.spent = 0;
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
        let granted = self.replica.undo(to);
        self.broadcast(&Message::UndoGranted(granted));
        Ok(())
    }

    /// The host's own player commits to a hidden pick for `hero`; it is revealed once every hero
    /// choosing has committed.
    pub fn commit_secret(&mut self, hero: usize, action: &R::Action) -> Result<(), String> {
        let at = self.replica.len();
        let bytes = encode_action(action);
        let salt = fresh_salt()?;
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
                .and_then(|a| self.commit(a, Maker::Hero(h), Some(salt)));
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
