//! An in-process transport over bounded channels, for tests: every link between two endpoints is a
//! pair of `sync_channel`s of a fixed number of frames.

use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, TrySendError, sync_channel};

use crate::codec::MAX_FRAME;
use crate::message::PeerId;
use crate::transport::{Event, SendError, Transport};

/// One end of in-process links.
#[derive(Debug)]
pub struct Endpoint {
    id: PeerId,
    links: BTreeMap<PeerId, Link>,
    joined: VecDeque<PeerId>,
    /// The peer served last, so that `poll` serves them in turn.
    last: Option<PeerId>,
}

#[derive(Debug)]
struct Link {
    tx: SyncSender<Vec<u8>>,
    rx: Receiver<Vec<u8>>,
}

impl Endpoint {
    /// An endpoint with no links.
    pub fn new(id: PeerId) -> Endpoint {
        Endpoint {
            id,
            links: BTreeMap::new(),
            joined: VecDeque::new(),
            last: None,
        }
    }

    /// The peers linked to this one.
    pub fn linked(&self) -> Vec<PeerId> {
        self.links.keys().copied().collect()
    }
}

/// Links two endpoints, each way through a queue of `capacity` frames; each sees the other join.
pub fn connect(a: &mut Endpoint, b: &mut Endpoint, capacity: usize) {
    let (a_tx, b_rx) = sync_channel(capacity);
    let (b_tx, a_rx) = sync_channel(capacity);
    a.links.insert(b.id, Link { tx: a_tx, rx: a_rx });
    b.links.insert(a.id, Link { tx: b_tx, rx: b_rx });
    a.joined.push_back(b.id);
    b.joined.push_back(a.id);
}

impl Transport for Endpoint {
    fn id(&self) -> PeerId {
        self.id
    }

    fn send(&mut self, to: PeerId, frame: Vec<u8>) -> Result<(), SendError> {
        if frame.len() > MAX_FRAME {
            return Err(SendError::TooLarge);
        }
        let link = self.links.get(&to).ok_or(SendError::Gone)?;
        match link.tx.try_send(frame) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(SendError::Full),
            Err(TrySendError::Disconnected(_)) => Err(SendError::Gone),
        }
    }

    fn poll(&mut self) -> Option<Event> {
        if let Some(p) = self.joined.pop_front() {
            return Some(Event::Joined(p));
        }
        let order = crate::transport::in_turn(&self.links, self.last);
        for peer in order {
            let Some(link) = self.links.get(&peer) else {
                continue;
            };
            match link.rx.try_recv() {
                Ok(frame) => {
                    self.last = Some(peer);
                    return Some(Event::Frame(peer, frame));
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    self.links.remove(&peer);
                    return Some(Event::Left(peer));
                }
            }
        }
        None
    }

    fn close(&mut self, peer: PeerId) {
        // Dropping both ends tells the other side once it has read what was sent before.
        self.links.remove(&peer);
        self.joined.retain(|p| *p != peer);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_arrive_in_order_and_a_full_queue_refuses() {
        let (mut a, mut b) = (Endpoint::new(PeerId(1)), Endpoint::new(PeerId(2)));
        connect(&mut a, &mut b, 2);
        assert_eq!(a.poll(), Some(Event::Joined(PeerId(2))));
        assert_eq!(b.poll(), Some(Event::Joined(PeerId(1))));
        assert_eq!(a.send(PeerId(2), vec![1]), Ok(()));
        assert_eq!(a.send(PeerId(2), vec![2]), Ok(()));
        assert_eq!(a.send(PeerId(2), vec![3]), Err(SendError::Full));
        assert_eq!(b.poll(), Some(Event::Frame(PeerId(1), vec![1])));
        assert_eq!(b.poll(), Some(Event::Frame(PeerId(1), vec![2])));
        assert_eq!(b.poll(), None);
        a.send(PeerId(2), vec![4]).unwrap();
        drop(a);
        assert_eq!(b.poll(), Some(Event::Frame(PeerId(1), vec![4])));
        assert_eq!(b.poll(), Some(Event::Left(PeerId(1))));
        assert_eq!(b.send(PeerId(1), vec![5]), Err(SendError::Gone));
    }

    #[test]
    fn peers_are_served_in_turn() {
        let mut host = Endpoint::new(PeerId(0));
        let mut p1 = Endpoint::new(PeerId(1));
        let mut p2 = Endpoint::new(PeerId(2));
        connect(&mut host, &mut p1, 8);
        connect(&mut host, &mut p2, 8);
        for i in 0..4 {
            p1.send(PeerId(0), vec![i]).unwrap();
        }
        p2.send(PeerId(0), vec![9]).unwrap();
        let mut from = Vec::new();
        while let Some(e) = host.poll() {
            if let Event::Frame(p, _) = e {
                from.push(p.0);
            }
        }
        assert_eq!(from, [1, 2, 1, 1, 1]);
    }
}
