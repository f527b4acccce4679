//! The transport a session talks over: frames to and from peers, and peers coming and going.
//!
//! The trait is synchronous and never blocks, so sessions are plain state machines that a test
//! steps by hand. An asynchronous transport (QUIC with `iroh`, on tokio) implements it with a task
//! per connection: a writer task drains a bounded channel of outgoing frames onto the connection's
//! stream, a reader task splits the stream into frames with [`crate::codec::FrameReader`] and waits
//! on a bounded channel of incoming ones, so a peer that floods is slowed by its own stream's flow
//! control and costs at most the channel's frames; [`Transport::poll`] takes from those channels
//! with `try_recv`, and [`Transport::send`] puts with `try_send`.

use std::collections::BTreeMap;

use crate::message::PeerId;

/// Something that happened on the transport.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A peer connected.
    Joined(PeerId),
    /// A peer's connection closed or broke.
    Left(PeerId),
    /// A frame from a peer (length prefix and body, not yet checked).
    Frame(PeerId, Vec<u8>),
}

/// Why a frame was not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendError {
    /// The peer's queue is full: it does not keep up (the frame is dropped; a peer that misses a
    /// commit asks for it again).
    Full,
    /// The peer is not connected.
    Gone,
    /// The frame is larger than [`crate::codec::MAX_FRAME`].
    TooLarge,
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SendError::Full => "the peer's queue is full",
            SendError::Gone => "the peer is not connected",
            SendError::TooLarge => "the frame is too large",
        })
    }
}

impl std::error::Error for SendError {}

/// Frames to and from peers, over bounded queues.
pub trait Transport {
    /// This end's id.
    fn id(&self) -> PeerId;
    /// Queues a frame for a peer without waiting.
    fn send(&mut self, to: PeerId, frame: Vec<u8>) -> Result<(), SendError>;
    /// The next event, if one is waiting; never waits. Peers are served in turn, so one peer's
    /// flood does not hold back the others.
    fn poll(&mut self) -> Option<Event>;
    /// Closes the connection to a peer.
    fn close(&mut self, peer: PeerId);
    /// How another peer would reach this end, should it continue as host (a join code); `None`
    /// when this transport cannot be reached that way.
    fn contact(&self) -> Option<String> {
        None
    }
    /// Starts taking connections from now on: this end continues as host.
    fn accept(&mut self) -> Result<(), String> {
        Err("this transport cannot take connections".into())
    }
    /// Connects to the peer at `contact` (from its [`contact`](Self::contact)) without waiting:
    /// [`Event::Joined`] comes when it is connected, [`Event::Left`] when it cannot be reached.
    fn dial(&mut self, contact: &str) -> Result<PeerId, String> {
        Err(format!(
            "this transport cannot connect to another host ({} characters given)",
            contact.len()
        ))
    }
}

/// The peers of `links` in the order a transport serves them: those after `last` (the one served
/// last), then the rest, so each peer has its turn and one that floods does not hold back others.
pub(crate) fn in_turn<V>(links: &BTreeMap<PeerId, V>, last: Option<PeerId>) -> Vec<PeerId> {
    match last {
        Some(last) => {
            let after = links.range(last..).map(|(p, _)| *p).filter(|p| *p != last);
            let before = links.range(..=last).map(|(p, _)| *p);
            after.chain(before).collect()
        }
        None => links.keys().copied().collect(),
    }
}
