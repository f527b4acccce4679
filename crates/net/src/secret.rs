//! Hidden picks: every hero choosing in secret sends a commitment (BLAKE3 of its pick and a random
//! salt) first, and the picks are revealed only once every one of them is committed.
//!
//! Nobody, the host included, learns a pick before every pick is fixed: the host sends
//! [`crate::Message::RevealNow`] with all the commitments, its own players' among them, and only
//! then do the peers reveal; every copy checks each revealed pick against its commitment.

use foehold_core::rules::view::Telling;
use foehold_core::rules::{Present, Seat, ToMove};

use crate::message::{ActionBytes, Digest, Salt};

/// The commitment to `pick` for `hero` at session log position `at` with `salt`. The position and
/// the hero are in it, so a commitment cannot be replayed for another pick.
pub fn digest(at: u64, hero: u32, pick: &ActionBytes, salt: &Salt) -> Digest {
    let mut h = blake3::Hasher::new();
    h.update(b"foehold hidden pick v1");
    h.update(&at.to_le_bytes());
    h.update(&hero.to_le_bytes());
    h.update(&(pick.0.len() as u64).to_le_bytes());
    h.update(&pick.0);
    h.update(salt);
    *h.finalize().as_bytes()
}

/// A fresh random salt from the system's generator.
pub fn fresh_salt() -> Result<Salt, String> {
    let mut salt = [0; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no random salt: {e}"))?;
    Ok(salt)
}

/// The heroes choosing in secret now, at the same time; empty when nothing is chosen in secret.
///
/// They are the heroes to move when the module tells their choices as secrets: the events of the
/// first one's first legal action, tried on a copy, are [`Telling::Secret`] by [`Present::telling`].
pub fn choosing_in_secret<R: Present>(state: &R::State) -> Vec<usize> {
    let ToMove::Heroes(heroes) = R::to_move(state) else {
        return Vec::new();
    };
    let Some(&first) = heroes.first() else {
        return Vec::new();
    };
    let Some(pick) = R::legal_actions(state, Seat::Hero(first))
        .into_iter()
        .next()
    else {
        return Vec::new();
    };
    let mut after = state.clone();
    let Ok(events) = R::apply(&mut after, pick) else {
        return Vec::new();
    };
    let secret = events
        .iter()
        .any(|e| matches!(R::telling(&after, e), Telling::Secret { .. }));
    if secret { heroes } else { Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commitment_binds_the_pick_the_salt_the_hero_and_the_place() {
        let pick = ActionBytes(vec![1, 2, 3]);
        let salt = [7; 16];
        let d = digest(4, 0, &pick, &salt);
        assert_eq!(d, digest(4, 0, &pick, &salt));
        assert_ne!(d, digest(4, 0, &ActionBytes(vec![1, 2, 4]), &salt));
        assert_ne!(d, digest(4, 0, &pick, &[8; 16]));
        assert_ne!(d, digest(4, 1, &pick, &salt));
        assert_ne!(d, digest(5, 0, &pick, &salt));
        let (a, b) = (fresh_salt().unwrap(), fresh_salt().unwrap());
        assert_ne!(a, b);
    }
}
