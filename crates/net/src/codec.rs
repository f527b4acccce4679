//! Frames: a 4-byte little-endian length, then one postcard-encoded [`Message`] of at most
//! [`MAX_MESSAGE`] bytes.
//!
//! The length is checked before a byte of the body is stored, so a peer announcing a huge message
//! costs nothing; every error is a value.

use std::io::Read;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::message::{ActionBytes, Message};

/// The largest message body: a commit of one decision and the steps after it is far smaller, and
/// a long log travels in several [`Message::Catchup`]s.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// The length prefix's size.
pub const PREFIX: usize = 4;
/// The largest frame: prefix and body.
pub const MAX_FRAME: usize = PREFIX + MAX_MESSAGE;

/// Why bytes are not a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Fewer bytes than the length prefix.
    Short(usize),
    /// The prefix announces a body larger than [`MAX_MESSAGE`]; nothing was read or allocated.
    TooLarge(u64),
    /// The frame holds another number of bytes than its prefix says.
    Length {
        /// What the prefix says.
        said: usize,
        /// What the frame holds.
        has: usize,
    },
    /// The body is not a message (or an action not one of the module's).
    Malformed(String),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Short(n) => write!(f, "a frame of {n} bytes has no length prefix"),
            DecodeError::TooLarge(n) => {
                write!(f, "a message of {n} bytes: at most {MAX_MESSAGE} are read")
            }
            DecodeError::Length { said, has } => {
                write!(f, "the prefix says {said} bytes, the frame holds {has}")
            }
            DecodeError::Malformed(why) => write!(f, "malformed: {why}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// A message too large to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge(pub usize);

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a message of {} bytes: at most {MAX_MESSAGE} are sent",
            self.0
        )
    }
}

impl std::error::Error for TooLarge {}

/// The frame of a message.
pub fn encode(message: &Message) -> Result<Vec<u8>, TooLarge> {
    // Encoding to memory fails only on types serde cannot write, which a message has none of.
    let body = postcard::to_allocvec(message).unwrap_or_default();
    frame(&body)
}

/// The frame of an encoded body.
pub fn frame(body: &[u8]) -> Result<Vec<u8>, TooLarge> {
    if body.len() > MAX_MESSAGE {
        return Err(TooLarge(body.len()));
    }
    let mut out = Vec::with_capacity(PREFIX + body.len());
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
    Ok(out)
}

/// The body length a prefix announces, refused past [`MAX_MESSAGE`].
pub fn body_len(prefix: [u8; PREFIX]) -> Result<usize, DecodeError> {
    let n = u32::from_le_bytes(prefix);
    usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_MESSAGE)
        .ok_or(DecodeError::TooLarge(n.into()))
}

/// The message in a whole frame.
pub fn decode(frame: &[u8]) -> Result<Message, DecodeError> {
    let Some((prefix, body)) = frame.split_first_chunk::<PREFIX>() else {
        return Err(DecodeError::Short(frame.len()));
    };
    let said = body_len(*prefix)?;
    if said != body.len() {
        return Err(DecodeError::Length {
            said,
            has: body.len(),
        });
    }
    decode_body(body)
}

/// The message in a body, all of whose bytes it must use.
pub fn decode_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, DecodeError> {
    match postcard::take_from_bytes::<T>(body) {
        Ok((value, [])) => Ok(value),
        Ok((_, rest)) => Err(DecodeError::Malformed(format!(
            "{} bytes after the message",
            rest.len()
        ))),
        Err(e) => Err(DecodeError::Malformed(e.to_string())),
    }
}

/// A module's action for the wire.
pub fn encode_action<A: Serialize>(action: &A) -> ActionBytes {
    ActionBytes(postcard::to_allocvec(action).unwrap_or_default())
}

/// A module's action from the wire.
pub fn decode_action<A: DeserializeOwned>(bytes: &ActionBytes) -> Result<A, DecodeError> {
    decode_body(&bytes.0)
}

/// Reads one frame's body from a byte stream: `None` at a clean end between frames. The prefix is
/// checked before the body's buffer is allocated, and the buffer is exactly the body's size.
pub fn read_frame(stream: &mut impl Read) -> std::io::Result<Option<Vec<u8>>> {
    let mut prefix = [0; PREFIX];
    let mut got = 0;
    while got < PREFIX {
        match stream.read(&mut prefix[got..])? {
            0 if got == 0 => return Ok(None),
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => got += n,
        }
    }
    let len = body_len(prefix).map_err(std::io::Error::other)?;
    let mut body = vec![0; len];
    stream.read_exact(&mut body)?;
    Ok(Some(body))
}

/// Splits a byte stream that arrives in pieces into frames, for a transport fed by a socket. It
/// holds at most one frame's bytes.
#[derive(Debug, Default)]
pub struct FrameReader {
    buf: Vec<u8>,
}

impl FrameReader {
    /// An empty reader.
    pub fn new() -> FrameReader {
        FrameReader::default()
    }

    /// Takes bytes from the stream; returns the complete frames' bodies they end, in order. After an
    /// error the stream cannot be trusted to be in step: the connection should be closed.
    pub fn push(&mut self, mut bytes: &[u8]) -> Result<Vec<Vec<u8>>, DecodeError> {
        let mut frames = Vec::new();
        while !bytes.is_empty() {
            // Fill the prefix first, then exactly the body it announces: never more than a frame.
            let want = match self.buf.first_chunk::<PREFIX>() {
                None => PREFIX,
                Some(prefix) => PREFIX + body_len(*prefix)?,
            };
            let take = (want - self.buf.len()).min(bytes.len());
            self.buf.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if let Some(prefix) = self.buf.first_chunk::<PREFIX>() {
                let len = body_len(*prefix)?;
                if self.buf.len() == PREFIX + len {
                    frames.push(self.buf.split_off(PREFIX));
                    self.buf.clear();
                }
            }
        }
        Ok(frames)
    }

    /// The bytes held for the frame in progress.
    pub fn held(&self) -> usize {
        self.buf.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::PeerId;

    fn bye() -> Message {
        Message::Bye {
            reason: "done".into(),
        }
    }

    #[test]
    fn a_message_round_trips_through_a_frame() {
        let f = encode(&bye()).unwrap();
        assert_eq!(decode(&f), Ok(bye()));
    }

    #[test]
    fn an_oversize_prefix_is_refused_before_anything_is_allocated() {
        let mut f = u32::MAX.to_le_bytes().to_vec();
        f.extend_from_slice(&[0; 8]);
        assert_eq!(decode(&f), Err(DecodeError::TooLarge(u32::MAX.into())));
        let mut r = FrameReader::new();
        assert!(matches!(r.push(&f), Err(DecodeError::TooLarge(_))));
        assert!(r.held() <= 16, "the reader held {} bytes", r.held());
        // A stream that announces 4 GiB and then never ends: refused at the prefix.
        let mut endless = Read::chain(&f[..4], std::io::repeat(7));
        let e = read_frame(&mut endless).unwrap_err();
        assert!(e.to_string().contains("at most"), "{e}");
    }

    #[test]
    fn malformed_bodies_and_wrong_lengths_are_errors() {
        assert!(matches!(decode(&[1, 0]), Err(DecodeError::Short(2))));
        assert!(matches!(
            decode(&frame(&[200, 200, 200]).unwrap()),
            Err(DecodeError::Malformed(_))
        ));
        let mut f = encode(&bye()).unwrap();
        f.push(0);
        assert!(matches!(decode(&f), Err(DecodeError::Length { .. })));
        // A valid message with a byte more in its body.
        let mut body = postcard::to_allocvec(&bye()).unwrap();
        body.push(0);
        assert!(matches!(
            decode(&frame(&body).unwrap()),
            Err(DecodeError::Malformed(_))
        ));
        // Every truncation of a real message is refused, none panics.
        let full = postcard::to_allocvec(&Message::Peers {
            peers: vec![crate::message::PeerInfo {
                id: PeerId(3),
                player: Some(2),
                connected: true,
            }],
            waiting: vec![1, 2],
        })
        .unwrap();
        for n in 0..full.len() {
            assert!(decode(&frame(&full[..n]).unwrap()).is_err());
        }
    }

    #[test]
    fn a_stream_in_pieces_gives_its_frames() {
        let mut bytes = encode(&bye()).unwrap();
        bytes.extend(encode(&Message::SyncFrom { from: 300 }).unwrap());
        let mut r = FrameReader::new();
        let mut out = Vec::new();
        for b in bytes.chunks(3) {
            out.extend(r.push(b).unwrap());
        }
        let got: Vec<Message> = out.iter().map(|b| decode_body(b).unwrap()).collect();
        assert_eq!(got, [bye(), Message::SyncFrom { from: 300 }]);
        let mut one = &bytes[..];
        assert!(read_frame(&mut one).unwrap().is_some());
        assert!(read_frame(&mut one).unwrap().is_some());
        assert_eq!(read_frame(&mut one).unwrap(), None);
    }

    #[test]
    fn a_message_too_large_is_not_sent() {
        let m = Message::Bye {
            reason: "x".repeat(MAX_MESSAGE),
        };
        assert!(encode(&m).is_err());
    }
}
