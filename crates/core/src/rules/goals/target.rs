//! Choose Target: possible targets, minions out, valid targets, the override card, easiest to hit
//! then easiest to damage; what is still tied is the players' choice.

use super::context::Ctx;
use super::situation::Pick;

/// A possible target and the hit chance the option gives against it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cand {
    pub hero: usize,
    pub hit: i32,
}

/// How step 3 (valid targets) applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Validity {
    /// Keep targets with hit chance at least −2; none left means the option fails.
    Required,
    /// Keep the valid ones, or all of them when none is valid (Melee step, reaction shots).
    Fallback,
    /// Validity plays no part.
    Skip,
}

/// The lowest hit chance that still makes a target valid.
pub const VALID_HIT: i32 = -2;

/// Signed number as players write it (`−6`, `+1`, `0`).
pub fn signed(n: i32) -> String {
    match n.cmp(&0) {
        std::cmp::Ordering::Less => format!("−{}", n.unsigned_abs()),
        std::cmp::Ordering::Equal => "0".to_string(),
        std::cmp::Ordering::Greater => format!("+{n}"),
    }
}

impl Ctx<'_> {
    /// Names of heroes, joined for a trace.
    pub fn names(&self, heroes: impl IntoIterator<Item = usize>) -> String {
        let v: Vec<&str> = heroes.into_iter().map(|h| self.name_of(h)).collect();
        match v.len() {
            0 => "nobody".to_string(),
            _ => v.join(", "),
        }
    }

    /// Step 4: the targets with the highest or lowest printed override rating.
    pub fn override_step(&self, cands: Vec<Cand>, words: &mut Vec<String>) -> Vec<Cand> {
        let r = self.card.rating;
        let value = |c: &Cand| self.hero(c.hero).rating(r);
        let best = match self.card.pick {
            Pick::Highest => cands.iter().map(value).max(),
            Pick::Lowest => cands.iter().map(value).min(),
        };
        let kept: Vec<Cand> = cands
            .into_iter()
            .filter(|c| Some(value(c)) == best)
            .collect();
        let arrow = match self.card.pick {
            Pick::Highest => "Highest",
            Pick::Lowest => "Lowest",
        };
        words.push(format!(
            "override {arrow} {} → {}",
            r.name(),
            self.names(kept.iter().map(|c| c.hero))
        ));
        kept
    }

    /// Choose Target over `cands`; `easiest` says whether step 5 applies. Returns the targets left
    /// (several = players' choice; none = the option fails) and appends the steps to `words`.
    pub fn choose_target(
        &self,
        cands: Vec<Cand>,
        validity: Validity,
        easiest: bool,
        words: &mut Vec<String>,
    ) -> Vec<Cand> {
        if cands.is_empty() {
            words.push("no possible target".to_string());
            return cands;
        }
        words.push(format!(
            "{} possible",
            self.names(cands.iter().map(|c| c.hero))
        ));
        let mut cands = cands;
        if cands.iter().any(|c| !self.hero(c.hero).minion)
            && cands.iter().any(|c| self.hero(c.hero).minion)
        {
            cands.retain(|c| !self.hero(c.hero).minion);
            words.push("minions left out".to_string());
        }
        if validity != Validity::Skip {
            let invalid: Vec<String> = cands
                .iter()
                .filter(|c| c.hit < VALID_HIT)
                .map(|c| format!("{} invalid (hit {})", self.name_of(c.hero), signed(c.hit)))
                .collect();
            if invalid.len() == cands.len() {
                words.push(invalid.join("; "));
                if validity == Validity::Required {
                    words.push("no valid target".to_string());
                    return Vec::new();
                }
                words.push("none valid, so all stay".to_string());
            } else if !invalid.is_empty() {
                words.push(invalid.join("; "));
                cands.retain(|c| c.hit >= VALID_HIT);
            }
        }
        if cands.len() > 1 {
            cands = self.override_step(cands, words);
        }
        if easiest && cands.len() > 1 {
            let best = cands.iter().map(|c| c.hit).max();
            cands.retain(|c| Some(c.hit) == best);
            let armor = cands.iter().map(|c| self.hero(c.hero).armor).min();
            cands.retain(|c| Some(self.hero(c.hero).armor) == armor);
            words.push(format!(
                "easiest to hit, then to damage → {}",
                self.names(cands.iter().map(|c| c.hero))
            ));
        }
        if cands.len() > 1 {
            words.push("players choose the target".to_string());
        } else if let Some(c) = cands.first() {
            words.push(format!("target {}", self.name_of(c.hero)));
        }
        cands
    }
}
