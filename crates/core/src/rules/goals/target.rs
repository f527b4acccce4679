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

/// How the trace names the Choose Target steps that narrowed the targets, which coverage counts.
pub mod step_words {
    /// Step 2: minions left out.
    pub(crate) const MINIONS_OUT: &str = "minions left out";
    /// Step 3: some targets invalid.
    pub(crate) const INVALID: &str = "invalid (hit";
    /// Step 4: the override card kept fewer targets.
    pub(crate) const OVERRIDE: &str = "override ";
    /// Step 4 when every target tied on the card: it decided nothing.
    pub(crate) const OVERRIDE_ALL_TIE: &str = "all tie";
    /// Step 5: easiest to hit, then to damage, kept fewer targets.
    pub(crate) const EASIEST: &str = "easiest to hit, then to damage";
    /// What is left is the players' choice.
    pub(crate) const PLAYERS: &str = "players choose the target";
}

/// The lowest hit chance that still makes a target valid.
pub(crate) const VALID_HIT: i32 = -2;

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
    pub(crate) fn override_step(&self, cands: Vec<Cand>, words: &mut Vec<String>) -> Vec<Cand> {
        let r = self.card.rating;
        let value = |c: &Cand| self.hero(c.hero).rating(r);
        let best = match self.card.pick {
            Pick::Highest => cands.iter().map(value).max(),
            Pick::Lowest => cands.iter().map(value).min(),
        };
        let before = cands.len();
        let kept: Vec<Cand> = cands
            .into_iter()
            .filter(|c| Some(value(c)) == best)
            .collect();
        let arrow = match self.card.pick {
            Pick::Highest => "Highest",
            Pick::Lowest => "Lowest",
        };
        let tie = if kept.len() == before {
            step_words::OVERRIDE_ALL_TIE
        } else {
            ""
        };
        words.push(format!(
            "{}{arrow} {} → {tie}{}{}",
            step_words::OVERRIDE,
            r.name(),
            if tie.is_empty() { "" } else { ": " },
            self.names(kept.iter().map(|c| c.hero))
        ));
        kept
    }

    /// Choose Target over `cands`; `easiest` says whether step 5 applies. Returns the targets left
    /// (several = players' choice; none = the option fails) and appends the steps to `words`.
    pub(crate) fn choose_target(
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
            words.push(step_words::MINIONS_OUT.to_string());
        }
        if validity != Validity::Skip {
            let invalid: Vec<String> = cands
                .iter()
                .filter(|c| c.hit < VALID_HIT)
                .map(|c| {
                    let name = self.name_of(c.hero);
                    format!("{name} {} {})", step_words::INVALID, signed(c.hit))
                })
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
            let before = cands.len();
            let best = cands.iter().map(|c| c.hit).max();
            cands.retain(|c| Some(c.hit) == best);
            let armor = cands.iter().map(|c| self.hero(c.hero).armor).min();
            cands.retain(|c| Some(self.hero(c.hero).armor) == armor);
            let tie = if cands.len() == before {
                step_words::OVERRIDE_ALL_TIE
            } else {
                ""
            };
            words.push(format!(
                "{} → {tie}{}{}",
                step_words::EASIEST,
                if tie.is_empty() { "" } else { ": " },
                self.names(cands.iter().map(|c| c.hero))
            ));
        }
        if cands.len() > 1 {
            words.push(step_words::PLAYERS.to_string());
        } else if let Some(c) = cands.first() {
            words.push(format!("target {}", self.name_of(c.hero)));
        }
        cands
    }
}
