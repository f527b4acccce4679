//! Online play with no engine in it: the messages, a transport trait, and host and peer sessions.
//!
//! Friends on different machines play one game. One of them is the host: it holds the
//! authoritative [`Game`](foehold_core::game::Game), checks every decision a peer proposes against
//! the seat that made it and the module's own `legal_actions`, and sends every accepted decision to
//! everyone as a numbered commit with the state hash after it. Only the players' decisions cross
//! the wire: the rules' own steps, the dice and the seeded ties after a decision are run by every
//! copy from its log ([`replica`]), and the hashes prove that every copy ran the same ones.
//! `docs/online.md` describes the protocol.
//!
//! Messages are encoded with [`postcard`]: a compact serde format (a commit of one decision is a
//! few dozen bytes), well kept and meant for untrusted links; it reads only the bytes it is given,
//! so a message bounded by [`codec::MAX_MESSAGE`] cannot make it read or allocate past that. It
//! is not self-describing: actions must serialize without `skip_serializing_if` or untagged enums,
//! which every module's actions do (the tests round-trip them).
//!
//! - [`message`]: the message set; [`codec`]: frames (a length, checked before anything is
//!   allocated, then one message);
//! - [`transport`]: the [`Transport`] trait and [`local`], an in-process
//!   transport over bounded channels for tests; `quic` (feature `online`), QUIC over `iroh`;
//! - [`replica`]: a copy of the game and its session log, the part host and peers share;
//! - [`host`] and [`peer`]: the two sessions; a peer can continue as host from its own copy;
//!   [`side`]: either one, and the hand-over to the next host when the host is gone;
//! - [`secret`]: commitments to hidden picks and their reveals.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod codec;
pub mod draws;
pub mod host;
pub mod local;
pub mod message;
pub mod peer;
#[cfg(feature = "online")]
pub mod quic;
pub mod replica;
pub mod secret;
pub mod side;
pub mod transport;

pub use host::Host;
pub use message::{Message, PeerId};
pub use peer::Peer;
pub use replica::{Desync, Replica};
pub use side::{Handover, Side};
pub use transport::Transport;

/// What a session has sent and received, for the cost of a round.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Messages sent.
    pub sent: u64,
    /// Bytes sent, length prefixes included.
    pub sent_bytes: u64,
    /// Messages received.
    pub received: u64,
    /// Bytes received, length prefixes included.
    pub received_bytes: u64,
}
