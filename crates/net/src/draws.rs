//! Draws nobody can foresee: each decision's chance outcomes are keyed by a secret of the host,
//! committed before the decision, and a salt of the decider, sent with it.
//!
//! The host holds a fresh random secret for each length of the session log and publishes its
//! commitment (BLAKE3) one entry before: in the welcome, then in every commit and undo (`next`).
//! A decision made at log length `at` carries the decider's fresh salt (a hidden pick's own salt);
//! the host's commit reveals its secret for `at`, and every copy checks it against the commitment
//! it holds and derives the key of that decision's draws from the secret, the salt and the entry's
//! place. The draws of the steps after it are the seeded pick of that key and the step count.
//!
//! A decision of the host's own player is sent first to another seated player ([`Message::SaltFor`])
//! whose salt keys its draws ([`Message::Salt`], one per log length); only with nobody else seated
//! and connected, or no answer in [`crate::host::COSIGN_WAIT`], does the host's own salt key them,
//! and the commit says whose salt it is.
//!
//! So a player cannot compute a draw before the commit that makes it (it lacks the secret), and
//! the host cannot choose one (its secret was fixed before the salt reached it) nor compute one
//! before the decision is fixed (it lacks the salt). What remains is in `docs/online.md`.
//!
//! [`Message::SaltFor`]: crate::message::Message::SaltFor
//! [`Message::Salt`]: crate::message::Message::Salt

use crate::message::{Digest, Draws, Salt, Secret};

/// The commitment to a draw secret.
pub fn commitment(secret: &Secret) -> Digest {
    let mut h = blake3::Hasher::new();
    h.update(b"foehold draw secret v1");
    h.update(secret);
    *h.finalize().as_bytes()
}

/// The key of the draws after the decision at session log place `seq`; `earlier` are the salts
/// of the hidden picks of the same round committed before it.
pub fn key(seq: u64, draws: &Draws, earlier: &[Salt]) -> u64 {
    let mut h = blake3::Hasher::new();
    h.update(b"foehold draws v1");
    h.update(&seq.to_le_bytes());
    h.update(&draws.at.to_le_bytes());
    h.update(&draws.secret);
    for salt in earlier {
        h.update(salt);
    }
    h.update(&draws.salt);
    let b = h.finalize();
    let mut first = [0; 8];
    first.copy_from_slice(&b.as_bytes()[..8]);
    u64::from_le_bytes(first)
}

/// The salt of the host's own decision when the player asked for one gave none in time.
///
/// The secret fixes it, so that the host cannot try salts until the draws suit it (it can only know
/// them ahead, and the player who gave a salt late checks and notes it).
pub fn fallback_salt(secret: &Secret) -> Salt {
    let mut h = blake3::Hasher::new();
    h.update(b"foehold fallback salt v1");
    h.update(secret);
    let mut salt = [0; 16];
    salt.copy_from_slice(&h.finalize().as_bytes()[..16]);
    salt
}

/// Where a machine's draw secrets and salts come from: the system's generator, or a seeded one.
#[derive(Debug, Clone, Default)]
pub struct Entropy {
    /// The seed and the number of values drawn from it.
    seeded: Option<(u64, u64)>,
}

impl Entropy {
    /// Values derived from `seed`: whoever knows the seed computes every secret and salt, and so
    /// every draw. For tests that need the same game on every run, never for play.
    pub fn seeded(seed: u64) -> Entropy {
        Entropy {
            seeded: Some((seed, 0)),
        }
    }

    fn fill(&mut self, out: &mut [u8]) -> Result<(), String> {
        match &mut self.seeded {
            None => getrandom::fill(out).map_err(|e| format!("no random value: {e}")),
            Some((seed, n)) => {
                let mut h = blake3::Hasher::new();
                h.update(b"foehold seeded entropy v1");
                h.update(&seed.to_le_bytes());
                h.update(&n.to_le_bytes());
                *n += 1;
                h.finalize_xof().fill(out);
                Ok(())
            }
        }
    }

    /// A fresh salt.
    pub fn salt(&mut self) -> Result<Salt, String> {
        let mut salt = [0; 16];
        self.fill(&mut salt)?;
        Ok(salt)
    }

    /// A fresh draw secret.
    pub fn secret(&mut self) -> Result<Secret, String> {
        let mut secret = [0; 32];
        self.fill(&mut secret)?;
        Ok(secret)
    }
}

/// Draws keyed by `secret` and the decider's `salt` for a decision made at `at`.
pub fn draws(at: u64, secret: Secret, salt: Salt) -> Draws {
    Draws {
        at,
        secret,
        salt,
        by: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_needs_the_secret_the_salt_and_the_place() {
        let mut e = Entropy::default();
        let (s, t) = (e.secret().unwrap(), e.secret().unwrap());
        assert_ne!(s, t);
        assert_ne!(commitment(&s), commitment(&t));
        let d = draws(4, s, [1; 16]);
        let k = key(5, &d, &[]);
        assert_eq!(k, key(5, &d, &[]));
        assert_ne!(k, key(6, &d, &[]));
        assert_ne!(k, key(5, &draws(3, s, [1; 16]), &[]));
        assert_ne!(k, key(5, &draws(4, t, [1; 16]), &[]));
        assert_ne!(k, key(5, &draws(4, s, [2; 16]), &[]));
        assert_ne!(k, key(5, &d, &[[3; 16]]), "a round's earlier salts");
    }

    #[test]
    fn seeded_entropy_repeats_itself_and_the_system_does_not() {
        let (mut a, mut b) = (Entropy::seeded(3), Entropy::seeded(3));
        let first = a.salt().unwrap();
        assert_eq!(first, b.salt().unwrap());
        assert_ne!(first, a.salt().unwrap(), "each value is new");
        assert_ne!(Entropy::seeded(4).salt().unwrap(), first);
        let mut system = Entropy::default();
        assert_ne!(system.secret().unwrap(), system.secret().unwrap());
    }
}
