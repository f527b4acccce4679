//! One end of a session, the host's or a peer's, and the hand-over when the host is gone.

use foehold_core::game::Game;
use foehold_core::rules::Present;

use crate::host::{Host, MAX_PEERS};
use crate::message::{PeerId, PeerInfo};
use crate::peer::Peer;
use crate::replica::{Desync, Replica};
use crate::transport::Transport;
use crate::{Traffic, local};

/// The host's session or a peer's: what a program that plays online holds, whichever end it is,
/// and which a peer turns into a host's when the host is gone ([`Side::hand_over`]).
#[derive(Debug)]
pub enum Side<R: Present, T: Transport = local::Endpoint> {
    /// This end hosts.
    Host(Box<Host<R, T>>),
    /// This end follows a host.
    Peer(Box<Peer<R, T>>),
}

/// What a hand-over did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handover {
    /// This end continues as host from its copy of the game.
    Hosting,
    /// This end connects to the peer that continues as host.
    Following(PeerId),
}

impl<R: Present, T: Transport> Side<R, T> {
    /// Handles what the transport has; returns how many events.
    pub fn poll(&mut self) -> usize {
        match self {
            Side::Host(h) => h.poll(),
            Side::Peer(p) => p.poll(),
        }
    }

    /// Swaps the game of this side's copy with `game` ([`Replica::swap_game`]); false when there
    /// is no copy yet.
    pub fn swap_game(&mut self, game: &mut Game<R>) -> bool {
        match self {
            Side::Host(h) => {
                h.swap_game(game);
                true
            }
            Side::Peer(p) => p.swap_game(game),
        }
    }

    /// The copy of the game (a peer's once welcomed).
    pub fn replica(&self) -> Option<&Replica<R>> {
        match self {
            Side::Host(h) => Some(h.replica()),
            Side::Peer(p) => p.replica(),
        }
    }

    /// Whether the copy has every entry the host told of (the host's always has).
    pub fn synced(&self) -> bool {
        match self {
            Side::Host(_) => true,
            Side::Peer(p) => p.synced(),
        }
    }

    /// This end's player, once known.
    pub fn player(&self) -> Option<u32> {
        match self {
            Side::Host(h) => h.player(),
            Side::Peer(p) => p.player(),
        }
    }

    /// Proposes a decision of this end's player.
    pub fn propose(&mut self, action: &R::Action) -> Result<(), String> {
        match self {
            Side::Host(h) => h.propose(action),
            Side::Peer(p) => p.propose(action),
        }
    }

    /// Commits to a hidden pick of one of this end's heroes.
    pub fn commit_secret(&mut self, hero: usize, action: &R::Action) -> Result<(), String> {
        match self {
            Side::Host(h) => h.commit_secret(hero, action),
            Side::Peer(p) => p.commit_secret(hero, action),
        }
    }

    /// Asks to undo this end's last decision.
    pub fn request_undo(&mut self) -> Result<(), String> {
        match self {
            Side::Host(h) => h.request_undo(),
            Side::Peer(p) => p.request_undo(),
        }
    }

    /// Makes this end's next move by the autopilot, if it has one to make.
    pub fn play_auto(&mut self) -> bool {
        match self {
            Side::Host(h) => h.play_auto(),
            Side::Peer(p) => p.play_auto(),
        }
    }

    /// The session's notes taken since `seen` of them were, oldest first, and the new count.
    pub fn notes_after(&self, seen: u64) -> (Vec<String>, u64) {
        let (notes, noted): (Vec<&str>, u64) = match self {
            Side::Host(h) => (h.notes().collect(), h.noted()),
            Side::Peer(p) => (p.notes().collect(), p.noted()),
        };
        let new = usize::try_from(noted.saturating_sub(seen)).unwrap_or(usize::MAX);
        let from = notes.len().saturating_sub(new);
        (
            notes[from..].iter().map(|n| (*n).to_string()).collect(),
            noted,
        )
    }

    /// The transport.
    pub fn transport_mut(&mut self) -> &mut T {
        match self {
            Side::Host(h) => h.transport_mut(),
            Side::Peer(p) => p.transport_mut(),
        }
    }

    /// What was sent and received so far.
    pub fn traffic(&self) -> Traffic {
        match self {
            Side::Host(h) => h.traffic(),
            Side::Peer(p) => p.traffic(),
        }
    }

    /// Every peer as the host lists them (itself first, on the host).
    pub fn peer_list(&self) -> Vec<PeerInfo> {
        match self {
            Side::Host(h) => h.peer_list(),
            Side::Peer(p) => p.peers().0.to_vec(),
        }
    }

    /// Where this copy parted from the host's, once it has.
    pub fn desync(&self) -> Option<&Desync> {
        self.replica().and_then(Replica::desync)
    }

    /// Why the host put this end out of the game, once it has ([`Peer::removed`]).
    pub fn removed(&self) -> Option<&str> {
        match self {
            Side::Host(_) => None,
            Side::Peer(p) => p.removed(),
        }
    }

    /// Whether this end follows a host that is gone.
    pub fn host_gone(&self) -> bool {
        matches!(self, Side::Peer(p) if p.host_gone())
    }

    /// When the host is gone, the next in line ([`Peer::successor`]) continues as host from its
    /// copy and takes connections, and every other peer connects to it and says hello again,
    /// keeping its copy (a copy ahead of the new host's drops its last entries). Called again after
    /// a hand-over that failed (the next in line could not be reached), it tries the one after.
    /// A peer the host removed (or replaced by another connection with its key) never hosts. A
    /// host, a peer whose host is there, one not yet welcomed (with no copy to continue from) or
    /// one with no successor is left as it was, with the reason.
    pub fn hand_over(self) -> (Side<R, T>, Result<Handover, String>) {
        let Side::Peer(mut peer) = self else {
            return (self, Err("this end hosts".into()));
        };
        if let Some(why) = peer.removed() {
            let why = format!("this player is out of the game ({why}): it does not host");
            return (Side::Peer(peer), Err(why));
        }
        if !peer.host_gone() {
            return (Side::Peer(peer), Err("the host is still there".into()));
        }
        if peer.replica().is_none() {
            let why = "the host left before it welcomed this player".into();
            return (Side::Peer(peer), Err(why));
        }
        let me = peer.id();
        let mut unreachable = String::new();
        // Each pass follows the next in line or passes it over: at most one pass per peer.
        for _ in 0..=MAX_PEERS {
            let Some((next, contact)) = peer.successor() else {
                break;
            };
            if next == me {
                if let Err(e) = peer.transport_mut().accept() {
                    return (Side::Peer(peer), Err(e));
                }
                return match (*peer).into_host() {
                    Ok(host) => (Side::Host(Box::new(host)), Ok(Handover::Hosting)),
                    Err(peer) => (Side::Peer(peer), Err("no copy to host".into())),
                };
            }
            let contact = contact.map(str::to_string).unwrap_or_default();
            let dialled = peer.transport_mut().dial(&contact);
            peer.follow(next);
            match dialled {
                Ok(_) => return (Side::Peer(peer), Ok(Handover::Following(next))),
                Err(e) => {
                    unreachable = format!(" (the last one tried: {e})");
                    peer.mark_gone();
                }
            }
        }
        let why = format!("no other player can be reached to continue as host{unreachable}");
        (Side::Peer(peer), Err(why))
    }
}
