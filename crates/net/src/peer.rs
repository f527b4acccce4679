//! A peer: proposes its players' decisions to the host and applies the host's commits to its own
//! copy of the game, checking every hash; it can continue as host from that copy.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use foehold_core::game::Game;
use foehold_core::rules::{Present, TieBreaker};

use crate::codec::{self, encode_action};
use crate::draws::Entropy;
use crate::host::{Host, MAX_IN_FLIGHT, MAX_PEERS};
use crate::message::{
    ActionBytes, Commit, Digest, Entry, MAX_CONTACT, Message, PROTOCOL, PeerId, PeerInfo, Salt,
    Setup, StateHash, Want,
};
use crate::replica::{AutoMove, Desync, Maker, Replica};
use crate::secret::digest;
use crate::transport::{Event, SendError, Transport};
use crate::{Traffic, local};

/// The most transport events one [`Peer::poll`] handles.
pub const MAX_EVENTS_PER_POLL: usize = 1024;
const MAX_NOTES: usize = 64;

/// The scenario a peer's copy is built on, from its own file.
#[derive(Debug)]
pub struct Scenario<R: Present> {
    /// The parsed scenario.
    pub scenario: Arc<R::Scenario>,
    /// Where it was read from.
    pub path: String,
    /// The file's text hash ([`foehold_core::game::save::text_hash`]).
    pub text_hash: String,
}

/// The scenario a peer plays, from the text its host sent: a scenario file's, or a bundle's
/// with the host's own monster types and classes the scenario names
/// ([`foehold_core::workshop::bundle::pack`]).
pub fn hosts_scenario<R: Present>(text: &str) -> Result<Scenario<R>, String> {
    let name = "the host's scenario";
    let (text, library) =
        foehold_core::workshop::bundle::unpack(name, text).map_err(|e| e.to_string())?;
    let scenario = R::parse_scenario_in(name, &text, &library).map_err(|e| e.to_string())?;
    Ok(Scenario {
        scenario: Arc::new(scenario),
        path: name.to_string(),
        text_hash: foehold_core::game::save::text_hash(&text),
    })
}

/// Polls in a row without a new entry, while behind the host, before the missing entries are
/// asked for again (a second or two at a table's frame rate or a command's tick).
pub const RETRY_AFTER_POLLS: u32 = 50;

/// A peer's session over a transport.
#[derive(Debug)]
pub struct Peer<R: Present, T: Transport = local::Endpoint> {
    transport: T,
    host: PeerId,
    want: Want,
    scenario: Scenario<R>,
    replica: Option<Replica<R>>,
    player: Option<u32>,
    /// The host's log length, as last heard.
    host_len: u64,
    /// The log length a sync was last asked from (not asked twice for one gap).
    asked: Option<u64>,
    /// The log length the last proposal was made at, until it is answered.
    pending: Option<u64>,
    in_flight: u32,
    /// This peer's hidden picks until they are committed: hero → (at, pick, salt).
    picks: BTreeMap<usize, (u64, ActionBytes, Salt)>,
    /// The commitments of the last reveal: (at, hero → digest).
    revealed: Option<(u64, BTreeMap<usize, Digest>)>,
    peers: Vec<PeerInfo>,
    waiting: Vec<u32>,
    /// How to reach the other peers, as the host last told.
    contacts: BTreeMap<PeerId, String>,
    /// Hosts that left or could not be reached: never followed again.
    passed: Vec<PeerId>,
    /// Following a new host that has not welcomed this peer yet.
    unwelcomed: bool,
    host_gone: bool,
    /// Polls in a row that brought no entry while this copy is behind the host.
    idle: u32,
    /// Polls in a row that brought nothing while proposals wait for an answer.
    unanswered: u32,
    /// The room's password, sent in the hello.
    password: Option<String>,
    /// The decisions this player proposed lately (position, action): a commit said to be this
    /// player's must be one of them.
    proposed: VecDeque<(u64, ActionBytes)>,
    /// The log positions this player asked an undo at, lately.
    undo_asked: VecDeque<u64>,
    /// Why the host put this peer out of the game, once it has: it stops, and never hosts.
    removed: Option<String>,
    notes: VecDeque<String>,
    /// Notes taken so far, dropped ones included.
    noted: u64,
    traffic: Traffic,
    /// Where this peer's salts come from (and its secrets, should it continue as host).
    entropy: Entropy,
    /// The salts this player gave for the host's decisions: the log length, the decision, the salt.
    salts_given: VecDeque<(u64, ActionBytes, Salt)>,
    /// The salt of this player's proposals at each log length: a proposal the host refused and
    /// made again at the same length keeps its salt, so a refusal never draws again.
    proposal_salts: VecDeque<(u64, Salt)>,
}

/// How many of its own proposals and undo requests a peer remembers, to check the commits said to
/// be its own.
const REMEMBERED: usize = 16;

/// Keeps `item` among the last [`REMEMBERED`] of `queue`.
fn remember<T>(queue: &mut VecDeque<T>, item: T) {
    if queue.len() == REMEMBERED {
        queue.pop_front();
    }
    queue.push_back(item);
}

/// The peer to continue as host when the host is gone: the one whose copy has the longest log,
/// then the lowest id.
pub fn elect(candidates: &[(PeerId, u64)]) -> Option<PeerId> {
    candidates
        .iter()
        .max_by_key(|(id, len)| (*len, std::cmp::Reverse(*id)))
        .map(|(id, _)| *id)
}

impl<R: Present, T: Transport> Peer<R, T> {
    /// A peer that will join the game at `host` as `want` once connected.
    pub fn new(scenario: Scenario<R>, want: Want, host: PeerId, transport: T) -> Peer<R, T> {
        Peer {
            transport,
            host,
            want,
            scenario,
            replica: None,
            player: None,
            host_len: 0,
            asked: None,
            pending: None,
            in_flight: 0,
            picks: BTreeMap::new(),
            revealed: None,
            peers: Vec::new(),
            waiting: Vec::new(),
            contacts: BTreeMap::new(),
            passed: Vec::new(),
            unwelcomed: false,
            host_gone: false,
            idle: 0,
            unanswered: 0,
            password: None,
            proposed: VecDeque::new(),
            undo_asked: VecDeque::new(),
            removed: None,
            notes: VecDeque::new(),
            noted: 0,
            traffic: Traffic::default(),
            entropy: Entropy::default(),
            salts_given: VecDeque::new(),
            proposal_salts: VecDeque::new(),
        }
    }

    /// The same peer with its salts drawn from `entropy` (see [`Entropy::seeded`]).
    #[must_use]
    pub fn with_entropy(mut self, entropy: Entropy) -> Self {
        self.entropy = entropy;
        self
    }

    /// The room's password, sent in every hello from now on.
    pub fn set_password(&mut self, password: Option<String>) {
        self.password = password;
    }

    /// Why the host put this peer out of the game (removed, or replaced by another connection
    /// with its key), once it has: the peer stops and never continues as host.
    pub fn removed(&self) -> Option<&str> {
        self.removed.as_deref()
    }

    /// Swaps the game of this peer's copy with `game` ([`Replica::swap_game`]); false before the
    /// host's welcome, when there is no copy yet.
    pub fn swap_game(&mut self, game: &mut Game<R>) -> bool {
        self.replica.as_mut().map(|r| r.swap_game(game)).is_some()
    }

    /// The copy of the game, once welcomed.
    pub fn replica(&self) -> Option<&Replica<R>> {
        self.replica.as_ref()
    }

    /// The player number the host gave.
    pub fn player(&self) -> Option<u32> {
        self.player
    }

    /// The transport, to connect it.
    pub fn transport_mut(&mut self) -> &mut T {
        &mut self.transport
    }

    /// The peer's id.
    pub fn id(&self) -> PeerId {
        self.transport.id()
    }

    /// What was sent and received so far.
    pub fn traffic(&self) -> Traffic {
        self.traffic
    }

    /// The peers the host listed last, and the heroes it waits for.
    pub fn peers(&self) -> (&[PeerInfo], &[u32]) {
        (&self.peers, &self.waiting)
    }

    /// Whether this copy has every entry the host has told of: welcomed and caught up.
    pub fn synced(&self) -> bool {
        !self.unwelcomed
            && self
                .replica
                .as_ref()
                .is_some_and(|r| r.len() >= self.host_len)
    }

    /// Whether the host left or its connection broke.
    pub fn host_gone(&self) -> bool {
        self.host_gone
    }

    /// Where this copy parted from the host's, once it has.
    pub fn desync(&self) -> Option<&Desync> {
        self.replica.as_ref().and_then(Replica::desync)
    }

    /// Refusals and other things the host said, newest last.
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

    /// The host followed now.
    pub fn host(&self) -> PeerId {
        self.host
    }

    /// Who continues as host when this one is gone, and its contact (`None` when it is this
    /// peer): the first connected player by number (then the spectators) whose contact the host
    /// told (a peer whose transport cannot take connections has none), never a host that has left.
    /// Every peer reckons it from the same lists, so they agree without a word.
    pub fn successor(&self) -> Option<(PeerId, Option<&str>)> {
        let mut next: Vec<&PeerInfo> = self
            .peers
            .iter()
            .filter(|p| p.connected && p.id != self.host && !self.passed.contains(&p.id))
            .filter(|p| self.contacts.contains_key(&p.id))
            .collect();
        next.sort_by_key(|p| (p.player.is_none(), p.player, p.id));
        next.first().map(|p| {
            let contact = (p.id != self.id())
                .then(|| self.contacts.get(&p.id).map(String::as_str))
                .flatten();
            (p.id, contact)
        })
    }

    /// Takes the host followed as gone (it could not be reached).
    pub fn mark_gone(&mut self) {
        self.host_gone = true;
    }

    /// Follows another host from now on (the old one is gone): the hello goes when it connects.
    pub fn follow(&mut self, host: PeerId) {
        if !self.passed.contains(&self.host) && self.passed.len() < 4 * MAX_PEERS {
            self.passed.push(self.host);
        }
        self.host = host;
        self.unwelcomed = true;
        self.host_gone = false;
        self.asked = None;
        self.pending = None;
        self.in_flight = 0;
    }

    fn send(&mut self, message: &Message) -> Result<(), SendError> {
        let frame = codec::encode(message).map_err(|_| SendError::TooLarge)?;
        let len = frame.len() as u64;
        self.transport.send(self.host, frame)?;
        self.traffic.sent += 1;
        self.traffic.sent_bytes += len;
        Ok(())
    }

    /// Says hello to the host (done by itself when the host connects).
    pub fn hello(&mut self) -> Result<(), SendError> {
        let hello = Message::Hello {
            version: PROTOCOL,
            rules: R::NAME.to_string(),
            scenario: StateHash::from_hex(&self.scenario.text_hash),
            want: self.want,
            contact: self.transport.contact(),
            password: self.password.clone(),
        };
        self.send(&hello)
    }

    /// Handles what the transport has (at most [`MAX_EVENTS_PER_POLL`] events); returns how many.
    /// A copy left behind the host for [`RETRY_AFTER_POLLS`] polls in a row asks again for what
    /// it misses: a catch-up chunk may have been dropped by a full queue, and when the game waits
    /// for this very player no commit would come to show the gap.
    pub fn poll(&mut self) -> usize {
        let before = self.replica.as_ref().map(Replica::len);
        let mut n = 0;
        while n < MAX_EVENTS_PER_POLL {
            let Some(event) = self.transport.poll() else {
                break;
            };
            self.handle(event);
            n += 1;
        }
        let now = self.replica.as_ref().map(Replica::len);
        let behind = self
            .replica
            .as_ref()
            .is_some_and(|r| r.desync().is_none() && r.len() < self.host_len);
        if behind && now == before && !self.host_gone && !self.unwelcomed {
            self.idle += 1;
            if self.idle >= RETRY_AFTER_POLLS
                && let Some(len) = now
            {
                self.idle = 0;
                self.asked = None;
                self.ask(len);
            }
        } else {
            self.idle = 0;
        }
        // A host past a peer's allowance drops its refusals unanswered, and a full queue drops a
        // commit: proposals left waiting that long are given up, so this player may propose again.
        if self.in_flight > 0 && n == 0 {
            self.unanswered += 1;
            if self.unanswered >= RETRY_AFTER_POLLS {
                self.note(format!(
                    "no answer from the host to {} proposals: this player may propose again",
                    self.in_flight
                ));
                self.in_flight = 0;
                self.pending = None;
                self.unanswered = 0;
            }
        } else {
            self.unanswered = 0;
        }
        n
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Joined(p) if p == self.host => {
                let _ = self.hello();
            }
            Event::Left(p) if p == self.host => self.host_gone = true,
            Event::Frame(p, frame) if p == self.host => {
                self.traffic.received += 1;
                self.traffic.received_bytes += frame.len() as u64;
                match codec::decode(&frame) {
                    Ok(m) => self.on_message(m),
                    Err(e) => self.note(format!("a message from the host is refused: {e}")),
                }
            }
            // Only the host talks to a peer.
            Event::Frame(p, _) | Event::Joined(p) => self.transport.close(p),
            Event::Left(_) => {}
        }
    }

    fn on_message(&mut self, message: Message) {
        match message {
            Message::Welcome {
                player,
                setup,
                start,
                len,
                hash,
                draws,
            } => self.welcome(player, setup, start, (len, hash), draws),
            Message::Commit(c) => self.entry(Entry::Commit(c)),
            Message::UndoGranted(u) => self.entry(Entry::Undo(u)),
            Message::Catchup { entries, .. } => {
                for e in entries {
                    // Hidden picks in a catch-up were checked by the copies that saw them revealed.
                    if !self.entry_checked(e, false) {
                        break;
                    }
                }
            }
            Message::Reject { at, reason } => {
                self.in_flight = self.in_flight.saturating_sub(1);
                if self.pending == Some(at) {
                    self.pending = None;
                }
                self.note(format!("refused at entry {at}: {reason}"));
            }
            Message::RevealNow { at, commitments } => self.reveal_now(at, commitments),
            Message::SaltFor { at, action } => self.give_salt(at, action),
            Message::Peers { peers, waiting } => {
                self.peers = peers;
                self.waiting = waiting;
            }
            Message::Contacts { contacts } => {
                // The host keeps at most MAX_PEERS; more, or a contact too long, is not kept.
                self.contacts = contacts
                    .into_iter()
                    .filter(|(_, c)| c.len() <= MAX_CONTACT)
                    .take(MAX_PEERS)
                    .collect();
            }
            Message::Bye { reason } => {
                self.host_gone = true;
                self.note(format!("the host says goodbye: {reason}"));
            }
            Message::Removed { reason } => {
                self.host_gone = true;
                self.note(format!("out of the game: {reason}"));
                self.removed = Some(reason);
            }
            other => self.note(format!("a peer does not take {}", other.name())),
        }
    }

    fn welcome(
        &mut self,
        player: Option<u32>,
        setup: Setup,
        start: StateHash,
        (len, hash): (u64, StateHash),
        draws: Option<Digest>,
    ) {
        self.player = player;
        self.host_len = len;
        self.unwelcomed = false;
        self.asked = None;
        // A welcome starts the seat afresh: the host drops the commitments it holds for this
        // player that were not revealed, so any pick still kept here is made again.
        self.picks.clear();
        if setup.rules != R::NAME || setup.scenario != StateHash::from_hex(&self.scenario.text_hash)
        {
            self.note("the host's game is not this scenario".into());
            return;
        }
        let replica = match self.replica.take() {
            Some(mut r) if r.setup().same_game(&setup) => {
                // A new host may have taken the table's ties.
                r.set_table_player(setup.table_player);
                if r.len() > len {
                    let dropped = dropped_entries(&r, len);
                    self.note(format!(
                        "the new host never received entries {len} to {} (the old host committed \
                         them as it went): {dropped}; they are dropped from this copy and made \
                         again",
                        r.len() - 1
                    ));
                    r.truncated(len)
                } else {
                    r
                }
            }
            _ => {
                let ties = if setup.seeded_ties {
                    TieBreaker::Seeded
                } else {
                    TieBreaker::Table
                };
                let game = match Game::<R>::new(
                    self.scenario.scenario.clone(),
                    self.scenario.path.clone(),
                    setup.seed,
                    ties,
                ) {
                    Ok(g) => g,
                    Err(e) => {
                        self.note(format!("the game cannot be set up: {e}"));
                        return;
                    }
                };
                let mut game = game;
                game.scenario_hash = Some(self.scenario.text_hash.clone());
                Replica::new(game, setup)
            }
        };
        if replica.start() != start {
            self.note(format!(
                "the steps that open the game part: state hash {} instead of {start}",
                replica.start()
            ));
        }
        let mine = replica.len();
        let same = mine == len && replica.hash() == hash;
        let mut replica = replica;
        if let Some(d) = draws {
            // The host's secret for the decisions made once the log is as long as it says.
            replica.expect_draws(len, d);
        }
        self.replica = Some(replica);
        if mine < len {
            self.ask(mine);
        } else if !same {
            self.note("this copy and the host's have the same length and differ".into());
        }
    }

    fn ask(&mut self, from: u64) {
        if self.asked == Some(from) {
            return;
        }
        self.asked = Some(from);
        let _ = self.send(&Message::SyncFrom { from });
    }

    fn entry(&mut self, e: Entry) {
        self.entry_checked(e, true);
    }

    /// Applies an entry in its place: an old one is skipped, one past a gap asks for the gap.
    /// Returns whether the copy can take more.
    fn entry_checked(&mut self, e: Entry, check_salt: bool) -> bool {
        let Some(replica) = &self.replica else {
            return false;
        };
        let len = replica.len();
        let seq = e.seq();
        self.host_len = self.host_len.max(seq + 1);
        if seq < len {
            return true;
        }
        if seq > len {
            self.ask(len);
            return false;
        }
        let refused = if check_salt {
            self.check_own(&e).and_then(|()| match &e {
                Entry::Commit(c) => self.check_reveal(c).and_then(|()| self.check_salt_given(c)),
                Entry::Undo(_) => Ok(()),
            })
        } else {
            Ok(())
        };
        if let Err(why) = refused {
            if let Some(r) = &mut self.replica {
                r.refuse(seq, why.clone());
            }
            self.note(why.clone());
            let _ = self.send(&Message::Desync { report: why });
            return false;
        }
        let Some(replica) = &mut self.replica else {
            return false;
        };
        let received = if check_salt {
            replica.receive(&e)
        } else {
            replica.receive_caught_up(&e)
        };
        match received {
            Ok(()) => {
                self.in_flight = 0;
                self.pending = None;
                true
            }
            Err(d) => {
                let report = d.to_string();
                self.note(report.clone());
                let _ = self.send(&Message::Desync { report });
                false
            }
        }
    }

    /// A decision or an undo said to be this player's must be one it asked for: a host cannot
    /// decide in its name.
    fn check_own(&self, e: &Entry) -> Result<(), String> {
        let Some(me) = self.player else {
            return Ok(());
        };
        match e {
            // A hidden pick is checked against its commitment instead.
            Entry::Commit(c) if c.by == me && c.salt.is_none() => {
                let asked = self
                    .proposed
                    .iter()
                    .any(|(at, action)| *at == c.seq && *action == c.action);
                if asked {
                    Ok(())
                } else {
                    Err(format!(
                        "entry {}: the host commits a decision of player {me} (this one) that it \
                         never proposed",
                        c.seq
                    ))
                }
            }
            Entry::Undo(u) if u.by == me && !self.undo_asked.contains(&u.seq) => Err(format!(
                "entry {}: the host grants an undo player {me} (this one) never asked for",
                u.seq
            )),
            _ => Ok(()),
        }
    }

    /// Gives the host a salt for its own decision at log length `at`: one per length, so that the
    /// host cannot ask again until the draws suit it.
    fn give_salt(&mut self, at: u64, action: ActionBytes) {
        let Some(r) = &self.replica else { return };
        if self.player.is_none() || at < r.len() {
            return;
        }
        let given = self.salts_given.iter().find(|(a, _, _)| *a == at).cloned();
        let salt = match given {
            Some((_, same, salt)) if same == action => salt,
            Some(_) => {
                self.note(format!(
                    "the host asked again for a salt at entry {at}, for another decision: not given"
                ));
                return;
            }
            None => match self.entropy.salt() {
                Ok(salt) => {
                    remember(&mut self.salts_given, (at, action, salt));
                    salt
                }
                Err(e) => {
                    self.note(e);
                    return;
                }
            },
        };
        let _ = self.send(&Message::Salt { at, salt });
    }

    /// A commit that says this player's salt keys its draws must carry the salt this player gave
    /// for that very decision.
    fn check_salt_given(&mut self, c: &Commit) -> Result<(), String> {
        let (Some(me), Some(d)) = (self.player, c.draws) else {
            return Ok(());
        };
        let given = self
            .salts_given
            .iter()
            .find(|(at, _, _)| *at == c.seq)
            .cloned();
        match (d.by, given) {
            (Some(p), Some((_, action, salt))) if p == me => {
                if action == c.action && salt == d.salt {
                    Ok(())
                } else {
                    Err(format!(
                        "entry {}: the host's draws are said to be keyed by this player's salt, \
                         for another decision or with another salt",
                        c.seq
                    ))
                }
            }
            (Some(p), None) if p == me => Err(format!(
                "entry {}: the host's draws are said to be keyed by this player's salt, which it \
                 never gave",
                c.seq
            )),
            (None, Some((_, action, _))) if action == c.action => {
                if d.salt != crate::draws::fallback_salt(&d.secret) {
                    return Err(format!(
                        "entry {}: the host drew with a salt of its own choosing instead of the \
                         one this player gave",
                        c.seq
                    ));
                }
                self.note(format!(
                    "entry {}: the host drew with the salt its secret fixes, not the one this \
                     player gave (it came too late, or was not used)",
                    c.seq
                ));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// A hidden pick's commit must match the commitment its hero made.
    fn check_reveal(&self, c: &Commit) -> Result<(), String> {
        let Some(salt) = c.salt else { return Ok(()) };
        let Some((at, commitments)) = &self.revealed else {
            return Err(format!(
                "entry {}: a hidden pick nobody committed to",
                c.seq
            ));
        };
        let found = commitments.iter().any(|(&h, d)| {
            u32::try_from(h).is_ok_and(|hero| digest(*at, hero, &c.action, &salt) == *d)
        });
        if found {
            Ok(())
        } else {
            Err(format!(
                "entry {}: the host's hidden pick matches no commitment",
                c.seq
            ))
        }
    }

    fn reveal_now(&mut self, at: u64, commitments: Vec<(u32, Digest)>) {
        let map: BTreeMap<usize, Digest> = commitments
            .into_iter()
            .filter_map(|(h, d)| Some((usize::try_from(h).ok()?, d)))
            .collect();
        let mine: Vec<(usize, ActionBytes, Salt)> = self
            .picks
            .iter()
            .filter(|(_, (a, _, _))| *a == at)
            .map(|(&h, (_, b, s))| (h, b.clone(), *s))
            .collect();
        self.revealed = Some((at, map.clone()));
        for (h, action, salt) in mine {
            let hero = u32::try_from(h).unwrap_or(u32::MAX);
            if map.get(&h) != Some(&digest(at, hero, &action, &salt)) {
                self.note(format!("the host lists another commitment for hero {h}"));
                continue;
            }
            let _ = self.send(&Message::Reveal {
                at,
                hero,
                action,
                salt,
            });
        }
    }

    fn mine(&self, maker: Maker) -> bool {
        let (Some(player), Some(r)) = (self.player, &self.replica) else {
            return false;
        };
        r.is_players(maker, player)
    }

    /// Proposes a decision at the log's length now. At most [`MAX_IN_FLIGHT`] proposals wait for
    /// the host's answer at a time.
    pub fn propose(&mut self, action: &R::Action) -> Result<(), String> {
        let Some(r) = &self.replica else {
            return Err("not welcomed yet".into());
        };
        if self.in_flight >= MAX_IN_FLIGHT {
            return Err(format!(
                "{MAX_IN_FLIGHT} proposals are waiting for the host"
            ));
        }
        let at = r.len();
        let action = encode_action(action);
        let salt = match self.proposal_salts.iter().find(|(a, _)| *a == at) {
            Some(&(_, salt)) => salt,
            None => {
                let salt = self.entropy.salt()?;
                remember(&mut self.proposal_salts, (at, salt));
                salt
            }
        };
        self.send(&Message::Propose {
            at,
            action: action.clone(),
            salt,
        })
        .map_err(|e| e.to_string())?;
        remember(&mut self.proposed, (at, action));
        self.in_flight += 1;
        self.pending = Some(at);
        Ok(())
    }

    /// Commits to a hidden pick for `hero`; it is revealed when the host says every pick is in.
    pub fn commit_secret(&mut self, hero: usize, action: &R::Action) -> Result<(), String> {
        let Some(r) = &self.replica else {
            return Err("not welcomed yet".into());
        };
        let at = r.len();
        let bytes = encode_action(action);
        let salt = self.entropy.salt()?;
        let hero32 = u32::try_from(hero).map_err(|_| "no such hero".to_string())?;
        let d = digest(at, hero32, &bytes, &salt);
        self.send(&Message::Commitment {
            at,
            hero: hero32,
            digest: d,
        })
        .map_err(|e| e.to_string())?;
        self.picks.insert(hero, (at, bytes, salt));
        Ok(())
    }

    /// Asks the host to undo this player's last decision.
    pub fn request_undo(&mut self) -> Result<(), String> {
        let Some(r) = &self.replica else {
            return Err("not welcomed yet".into());
        };
        let at = r.len();
        self.send(&Message::UndoRequest { at })
            .map_err(|e| e.to_string())?;
        remember(&mut self.undo_asked, at);
        Ok(())
    }

    /// The next move of this peer's player by the hero autopilot, sent now, unless one is waiting
    /// for the host's answer. Returns whether it moved.
    pub fn play_auto(&mut self) -> bool {
        let Some(r) = &self.replica else {
            return false;
        };
        if r.desync().is_some() || self.pending == Some(r.len()) || self.host_gone {
            return false;
        }
        let at = r.len();
        let next = r.auto_move(
            |m| self.mine(m),
            |h| self.picks.get(&h).is_some_and(|(a, _, _)| *a == at),
        );
        match next {
            Some(AutoMove::Propose(a)) => self.propose(&a).is_ok(),
            Some(AutoMove::Secret(h, a)) => self.commit_secret(h, &a).is_ok(),
            None => false,
        }
    }

    /// Continues as host from this copy of the game, over the same transport; the peers the last
    /// host listed keep their seats, and this peer's player breaks the table's ties from now on.
    /// A peer not welcomed yet has no copy and is given back.
    pub fn into_host(self) -> Result<Host<R, T>, Box<Self>> {
        match self.replica {
            Some(mut replica) => {
                // The new host breaks the table's ties: the player who did may be the one gone.
                if let Some(n) = self.player {
                    replica.set_table_player(n);
                }
                Ok(
                    Host::from_replica(replica, self.player, self.peers, self.transport)
                        .with_entropy(self.entropy),
                )
            }
            None => Err(Box::new(self)),
        }
    }
}

/// The entries of a copy from `from` on, in words: who decided what.
fn dropped_entries<R: Present>(r: &Replica<R>, from: u64) -> String {
    let start = usize::try_from(from).unwrap_or(usize::MAX);
    let words: Vec<String> = r
        .entries()
        .iter()
        .skip(start)
        .take(8)
        .map(|e| match e {
            Entry::Commit(c) => {
                let action = codec::decode_action::<R::Action>(&c.action)
                    .map_or_else(|_| "an action".to_string(), |a| format!("{a:?}"));
                format!("{}: player {}'s {action}", c.seq, c.by)
            }
            Entry::Undo(u) => format!("{}: player {}'s undo", u.seq, u.by),
        })
        .collect();
    let more = r.entries().len().saturating_sub(start + words.len());
    if more > 0 {
        format!("{} and {more} more", words.join("; "))
    } else {
        words.join("; ")
    }
}
