//! The messages host and peers exchange, one serde enum.
//!
//! Actions travel as the module's own action type encoded on its own ([`ActionBytes`]), so a
//! message is the same type for every module and an action that does not decode is refused with a
//! reason of its own while the message around it is read.

use serde::{Deserialize, Serialize};

/// The protocol's version: a hello with another one is refused.
///
/// Version 2 added the peers' contacts, so that a peer can continue as host; version 3 seats that
/// belong to their keys, the room password, [`Message::Removed`] and who made each decision;
/// version 4 draws nobody can foresee ([`Draws`], [`crate::draws`]).
pub const PROTOCOL: u32 = 4;

/// The longest room password a hello carries.
pub const MAX_PASSWORD: usize = 200;

/// The longest contact a peer gives (a join code is at most 400 characters).
pub const MAX_CONTACT: usize = 400;

/// A peer as the transport names it; stable across a reconnection of the same peer (a QUIC
/// transport derives it from the peer's key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PeerId(pub u64);

impl std::fmt::Display for PeerId {
    /// The start of the key, as people read it: `key 8a20bed4`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "key {:08x}", self.0 >> 32)
    }
}

/// A state hash ([`foehold_core::rules::state_hash`]) as 8 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct StateHash(pub [u8; 8]);

impl StateHash {
    /// The hash of a state, as saves record it.
    pub fn of<T: Serialize>(state: &T) -> StateHash {
        StateHash::from_hex(&foehold_core::rules::state_hash(state))
    }

    /// The hash from its 16 hex digits (as saves and `text_hash` write it); text that is not 16
    /// hex digits is hashed again, so that it still compares.
    pub fn from_hex(hex: &str) -> StateHash {
        let n = u64::from_str_radix(hex, 16)
            .unwrap_or_else(|_| foehold_core::rules::fnv1a(hex.as_bytes()));
        StateHash(n.to_be_bytes())
    }
}

impl std::fmt::Display for StateHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}", u64::from_be_bytes(self.0))
    }
}

/// A module's action, encoded with postcard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionBytes(pub Vec<u8>);

/// A random salt that hides a pick in its commitment.
pub type Salt = [u8; 16];
/// A commitment to a hidden pick (BLAKE3 of the pick and its salt).
pub type Digest = [u8; 32];

/// A draw secret of the host: revealed in the commit whose draws it keys, committed to (its
/// [`crate::draws::commitment`]) one entry before.
pub type Secret = [u8; 32];

/// What keys the draws after a decision (see [`crate::draws`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draws {
    /// The session log's length the decision was made at: the host's commitment for that
    /// position is the one `secret` must match.
    pub at: u64,
    /// The host's secret for that position, revealed now.
    pub secret: Secret,
    /// The decider's salt, sent with the decision (for a hidden pick, the pick's own salt), or
    /// the salt another seated player gave for a decision of the host's own player.
    pub salt: Salt,
    /// The player who gave `salt` when it is not the decider's own (the host's decisions).
    pub by: Option<u32>,
}

/// What a peer asks to be in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Want {
    /// Player `n` (from 1): the heroes the game's seat map gives that player.
    Player(u32),
    /// Watching: a spectator gets every commit and proposes nothing.
    Spectator,
}

impl std::fmt::Display for Want {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Want::Player(n) => write!(f, "Player {n}"),
            Want::Spectator => f.write_str("a watcher"),
        }
    }
}

/// What a copy of the game needs besides its scenario file: sent in the welcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The rule module's name (`rules:`).
    pub rules: String,
    /// [`foehold_core::game::save::text_hash`] of the scenario file.
    pub scenario: StateHash,
    /// The game's seed.
    pub seed: u64,
    /// Whether the seeded pick breaks the ties the rules leave open (else the table player does).
    pub seeded_ties: bool,
    /// How many players the game seats (numbered from 1; a player may have no hero).
    pub seats: u32,
    /// The player (from 1) of each hero, in hero order.
    pub players: Vec<u32>,
    /// The player who breaks the ties the rules leave to the table.
    pub table_player: u32,
}

impl Setup {
    /// Whether `other` is the same game, whoever breaks its ties: a host that continues from a
    /// peer's copy takes the table's ties, and the copies keep their entries.
    pub fn same_game(&self, other: &Setup) -> bool {
        Setup {
            table_player: other.table_player,
            ..self.clone()
        } == *other
    }
}

/// A decision the host accepted: the `seq`-th entry of the session log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commit {
    /// Its place in the session log (from 0).
    pub seq: u64,
    /// The decision.
    pub action: ActionBytes,
    /// The player who made it (the hero's player, or the player who breaks the table's ties):
    /// every copy checks it against the seat table, and a player's own copy refuses a decision
    /// said to be its own that it never made.
    pub by: u32,
    /// The state hash after the decision, then after each automatic step every copy runs after it
    /// (the rules' own steps, the dice, seeded ties), in order: a copy that parts names the step.
    pub hashes: Vec<StateHash>,
    /// The salt of a hidden pick, so that everyone checks it against its commitment.
    pub salt: Option<Salt>,
    /// What keys the draws of the steps after it; `None` for a decision made before the game went
    /// online, whose draws were the seed's.
    pub draws: Option<Draws>,
    /// The host's commitment to its secret for the draws of the decisions made at the log's next
    /// length (`seq + 1`).
    pub next: Option<Digest>,
}

/// An undo the host granted: the `seq`-th entry of the session log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndoGranted {
    /// Its place in the session log.
    pub seq: u64,
    /// The player who asked for it: the undone decision must be that player's, and that player's
    /// own copy refuses an undo it never asked for.
    pub by: u32,
    /// The game's log position the game goes back to.
    pub to: u64,
    /// The state hash there.
    pub hash: StateHash,
    /// The host's commitment for the draws of the decisions made at the log's next length.
    pub next: Option<Digest>,
}

/// An entry of the session log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Entry {
    /// A decision and the steps after it.
    Commit(Commit),
    /// An undo.
    Undo(UndoGranted),
}

impl Entry {
    /// Its place in the session log.
    pub fn seq(&self) -> u64 {
        match self {
            Entry::Commit(c) => c.seq,
            Entry::Undo(u) => u.seq,
        }
    }
}

/// A peer as the host lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerInfo {
    /// The peer.
    pub id: PeerId,
    /// Its player number, `None` for a spectator.
    pub player: Option<u32>,
    /// Whether it is connected now (a dropped player keeps its seat).
    pub connected: bool,
}

/// One message; every one travels in a frame of its own ([`crate::codec`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Message {
    /// Peer → host, first: who it is and what it plays.
    Hello {
        /// [`PROTOCOL`].
        version: u32,
        /// The rule module's name.
        rules: String,
        /// The scenario file's text hash.
        scenario: StateHash,
        /// The seat asked for.
        want: Want,
        /// How to reach this peer should it continue as host (its join code), if its transport
        /// can take connections; at most [`MAX_CONTACT`] characters.
        contact: Option<String>,
        /// The room's password, when the host set one; at most [`MAX_PASSWORD`] bytes.
        password: Option<String>,
    },
    /// Host → peer: the seat given and the game's setup; the log follows in [`Message::Catchup`]s
    /// once the peer says where its copy is ([`Message::SyncFrom`]).
    Welcome {
        /// The player number given (`None`: spectator).
        player: Option<u32>,
        /// The game's setup.
        setup: Setup,
        /// The state hash after the steps that open the game, before any decision.
        start: StateHash,
        /// The session log's length.
        len: u64,
        /// The state hash now.
        hash: StateHash,
        /// The host's commitment for the draws of the decisions made at the log's length now.
        draws: Option<Digest>,
    },
    /// Peer → host: a decision, for the state after the first `at` entries of the session log.
    Propose {
        /// The session log's length the decision was made at.
        at: u64,
        /// The decision.
        action: ActionBytes,
        /// A fresh random salt: with the host's secret for `at`, it keys the draws after it.
        salt: Salt,
    },
    /// Host → all: an accepted decision.
    Commit(Commit),
    /// Host → peer: a proposal, commitment, reveal or request refused; the game is unchanged.
    Reject {
        /// The session log position the refused message named.
        at: u64,
        /// Why, in words.
        reason: String,
    },
    /// Peer → host: send the session log from entry `from` on.
    SyncFrom {
        /// The first entry wanted.
        from: u64,
    },
    /// Host → peer: entries of the session log, in order, from `from`.
    Catchup {
        /// The first entry's place.
        from: u64,
        /// The entries.
        entries: Vec<Entry>,
    },
    /// Peer → host: undo my last decision (granted by the policy in `docs/online.md`).
    UndoRequest {
        /// The session log's length the request was made at.
        at: u64,
    },
    /// Host → all: an undo granted.
    UndoGranted(UndoGranted),
    /// Host → one seated peer: the host's own player makes this decision at log length `at`; a
    /// salt for its draws, please (the host then knows the draws no sooner than anyone else).
    SaltFor {
        /// The session log's length the decision is made at.
        at: u64,
        /// The decision.
        action: ActionBytes,
    },
    /// Peer → host: the salt asked for by [`Message::SaltFor`]; one per log length, whatever the
    /// host asks again.
    Salt {
        /// The session log's length.
        at: u64,
        /// A fresh random salt.
        salt: Salt,
    },
    /// Peer → host → all: a hidden pick's commitment.
    Commitment {
        /// The session log's length the pick is made at.
        at: u64,
        /// The hero picking.
        hero: u32,
        /// BLAKE3 of the pick and its salt ([`crate::secret::digest`]).
        digest: Digest,
    },
    /// Host → all: every hero picking has committed; reveal now.
    RevealNow {
        /// The session log's length the picks are made at.
        at: u64,
        /// Each hero's commitment, by hero.
        commitments: Vec<(u32, Digest)>,
    },
    /// Peer → host: a hidden pick and its salt, after [`Message::RevealNow`].
    Reveal {
        /// The session log's length the pick was made at.
        at: u64,
        /// The hero picking.
        hero: u32,
        /// The pick.
        action: ActionBytes,
        /// The salt of its commitment.
        salt: Salt,
    },
    /// Host → all: who is connected, with which seat, and whom the game waits for.
    Peers {
        /// Every peer that said hello, connected or not.
        peers: Vec<PeerInfo>,
        /// The heroes the game waits for.
        waiting: Vec<u32>,
    },
    /// Host → all, when a peer says hello: how to reach each connected peer, so that when the host
    /// is gone the next in line continues as host and the others reach it.
    Contacts {
        /// Each peer and its contact.
        contacts: Vec<(PeerId, String)>,
    },
    /// Peer → host: my copy parted from the host's (in words); I apply nothing more.
    Desync {
        /// What parted, naming the first diverging action.
        report: String,
    },
    /// Peer → host, before its hello: send me the scenario file, so that a friend needs only the
    /// join code. Answered once per connection.
    GetScenario,
    /// Host → peer: the scenario file's text (its text hash is checked as the hello's is).
    Scenario {
        /// The file's text.
        text: String,
    },
    /// Either way: I am leaving, or you are refused.
    Bye {
        /// Why.
        reason: String,
    },
    /// Host → peer: you are out of this game for good (the host removed you, or another
    /// connection with your key took your place). Unlike a host's [`Message::Bye`], the peer does
    /// not continue as host: it stops.
    Removed {
        /// Why.
        reason: String,
    },
}

impl Message {
    /// The message's name, for logs and counts.
    pub fn name(&self) -> &'static str {
        match self {
            Message::Hello { .. } => "hello",
            Message::Welcome { .. } => "welcome",
            Message::Propose { .. } => "propose",
            Message::Commit(_) => "commit",
            Message::Reject { .. } => "reject",
            Message::SyncFrom { .. } => "sync-from",
            Message::Catchup { .. } => "catchup",
            Message::UndoRequest { .. } => "undo-request",
            Message::UndoGranted(_) => "undo-granted",
            Message::Commitment { .. } => "commitment",
            Message::RevealNow { .. } => "reveal-now",
            Message::Reveal { .. } => "reveal",
            Message::SaltFor { .. } => "salt-for",
            Message::Salt { .. } => "salt",
            Message::Peers { .. } => "peers",
            Message::Contacts { .. } => "contacts",
            Message::Desync { .. } => "desync",
            Message::GetScenario => "get-scenario",
            Message::Scenario { .. } => "scenario",
            Message::Bye { .. } => "bye",
            Message::Removed { .. } => "removed",
        }
    }
}
