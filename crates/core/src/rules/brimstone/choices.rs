//! Outcome sets that remember which kinds of choice lead to each outcome, and the rule that turns
//! them into `ChosenBy` marks (a choice whose alternatives all give the same results is no choice).

use crate::decision::ChosenBy;
use std::collections::BTreeMap;

/// Who settles one choice on the way to an outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Chance: a die roll or a card drawn.
    Random,
    /// The players pick.
    Players,
}

/// The kinds of choice met on the ways to one outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kinds {
    /// Some chance decided the way.
    pub random: bool,
    /// The players picked on the way.
    pub players: bool,
}

impl Kinds {
    fn with(self, kind: Kind) -> Kinds {
        match kind {
            Kind::Random => Kinds {
                random: true,
                ..self
            },
            Kind::Players => Kinds {
                players: true,
                ..self
            },
        }
    }

    fn join(self, other: Kinds) -> Kinds {
        Kinds {
            random: self.random || other.random,
            players: self.players || other.players,
        }
    }
}

/// Every outcome reachable from some point of the rules, with the kinds of choice on the way.
pub(crate) type Branches<T> = BTreeMap<T, Kinds>;

/// The single outcome of a point where nothing is left to choose.
pub fn fixed<T: Ord>(outcome: T) -> Branches<T> {
    BTreeMap::from([(outcome, Kinds::default())])
}

/// A choice of `kind` between `alternatives`.
///
/// When all of them lead to the same set of outcomes the choice changes nothing, so it is not
/// recorded; otherwise every outcome gets `kind` added. The same outcome reached along several
/// alternatives joins their kinds.
pub fn choose<T: Ord>(kind: Kind, alternatives: Vec<Branches<T>>) -> Branches<T> {
    let same = alternatives
        .windows(2)
        .all(|w| w[0].len() == w[1].len() && w[0].keys().eq(w[1].keys()));
    let mut out: Branches<T> = BTreeMap::new();
    for alternative in alternatives {
        for (outcome, kinds) in alternative {
            let kinds = if same { kinds } else { kinds.with(kind) };
            let slot = out.entry(outcome).or_default();
            *slot = slot.join(kinds);
        }
    }
    out
}

/// A choice of `kind` over `items`, each leading to the branches `then` gives.
pub fn choose_each<I, T: Ord>(
    kind: Kind,
    items: impl IntoIterator<Item = I>,
    then: impl FnMut(I) -> Branches<T>,
) -> Branches<T> {
    choose(kind, items.into_iter().map(then).collect())
}

/// The outcomes with their `ChosenBy` marks: `Fixed` exactly when a single outcome is left.
pub fn settle<T>(branches: Branches<T>) -> Vec<(T, ChosenBy)> {
    let single = branches.len() == 1;
    branches
        .into_iter()
        .map(|(outcome, kinds)| {
            let by = match (single, kinds.random, kinds.players) {
                (true, ..) => ChosenBy::Fixed,
                (false, true, true) => ChosenBy::RandomAndPlayers,
                (false, true, false) => ChosenBy::Random,
                // `(false, false, false)` cannot happen: with several outcomes every way passes
                // some real choice.
                (false, false, _) => ChosenBy::Players,
            };
            (outcome, by)
        })
        .collect()
}

/// How a stage meets its choices: all of them (the case format lists every outcome) or along one
/// path of picks already made (a game in play, which asks for the next pick when the path ends).
///
/// Both ways run the same rule code: every choice point calls [`Walk::choose_n`]. Along a path, a
/// choice with one alternative is no choice; the first choice with several alternatives that the
/// path does not settle is recorded as pending and its branch gives no outcome.
#[derive(Debug, Default)]
pub struct Walk {
    /// `None` explores every alternative.
    path: Option<Path>,
}

#[derive(Debug, Default)]
struct Path {
    picks: Vec<usize>,
    next: std::cell::Cell<usize>,
    pending: std::cell::RefCell<Option<Pending>>,
    /// What [`Walk::why`] said of the next choice.
    why: std::cell::RefCell<String>,
}

/// A choice the path does not settle yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// A random pick (or die) or the players' tie.
    pub kind: Kind,
    /// A few words per alternative, in the order the picks number them.
    pub options: Vec<String>,
    /// Why it is a choice, as [`Walk::why`] said before it (empty when nothing was said).
    pub why: String,
}

impl Walk {
    /// Explores every alternative of every choice.
    pub fn all() -> Walk {
        Walk { path: None }
    }

    /// Follows `picks` (the index of the alternative taken at each real choice, in order).
    pub fn along(picks: &[usize]) -> Walk {
        Walk {
            path: Some(Path {
                picks: picks.to_vec(),
                ..Path::default()
            }),
        }
    }

    /// The first choice the path did not settle, if the walk met one.
    pub fn pending(&self) -> Option<Pending> {
        self.path.as_ref().and_then(|p| p.pending.borrow().clone())
    }

    /// Picks of the path that were not used (a path that goes past the end of the rules' choices).
    pub fn unused(&self) -> usize {
        self.path
            .as_ref()
            .map_or(0, |p| p.picks.len().saturating_sub(p.next.get()))
    }

    /// A choice of `kind` between `n` alternatives, alternative `i` leading to `then(i)`; `label(i)`
    /// names it when the choice is left pending. The first error of an alternative stops the walk.
    pub fn try_choose_n<T: Ord, E>(
        &self,
        kind: Kind,
        n: usize,
        label: impl Fn(usize) -> String,
        mut then: impl FnMut(usize) -> Result<Branches<T>, E>,
    ) -> Result<Branches<T>, E> {
        let Some(path) = &self.path else {
            let mut alternatives = Vec::with_capacity(n);
            for i in 0..n {
                alternatives.push(then(i)?);
            }
            return Ok(choose(kind, alternatives));
        };
        // A reason belongs to the one choice after it.
        let why = path.why.take();
        if n == 1 {
            return then(0);
        }
        if n == 0 || path.pending.borrow().is_some() {
            return Ok(Branches::new());
        }
        let at = path.next.get();
        match path.picks.get(at) {
            Some(&i) if i < n => {
                path.next.set(at + 1);
                then(i)
            }
            // A pick out of range settles nothing: the choice stays pending.
            _ => {
                *path.pending.borrow_mut() = Some(Pending {
                    kind,
                    options: (0..n).map(label).collect(),
                    why,
                });
                Ok(Branches::new())
            }
        }
    }

    /// Says why the next choice is one, in words the table shows while the players pick (a game
    /// keeps it with the pending choice; walking every alternative has no use for it).
    pub fn why(&self, why: impl FnOnce() -> String) {
        if let Some(path) = &self.path {
            *path.why.borrow_mut() = why();
        }
    }

    /// [`Walk::try_choose_n`] for alternatives that cannot fail.
    pub fn choose_n<T: Ord>(
        &self,
        kind: Kind,
        n: usize,
        label: impl Fn(usize) -> String,
        mut then: impl FnMut(usize) -> Branches<T>,
    ) -> Branches<T> {
        match self.try_choose_n::<T, std::convert::Infallible>(kind, n, label, |i| Ok(then(i))) {
            Ok(b) => b,
            Err(never) => match never {},
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(b: Branches<u32>) -> Vec<(u32, ChosenBy)> {
        settle(b)
    }

    #[test]
    fn a_single_outcome_is_fixed_whatever_was_chosen_on_the_way() {
        let b = choose(Kind::Random, vec![fixed(1), fixed(1)]);
        assert_eq!(marks(b), vec![(1, ChosenBy::Fixed)]);
    }

    #[test]
    fn a_random_pick_then_a_players_tie_marks_both_kinds() {
        let b = choose(
            Kind::Random,
            vec![fixed(1), choose(Kind::Players, vec![fixed(2), fixed(3)])],
        );
        assert_eq!(
            marks(b),
            vec![
                (1, ChosenBy::Random),
                (2, ChosenBy::RandomAndPlayers),
                (3, ChosenBy::RandomAndPlayers)
            ]
        );
    }

    #[test]
    fn a_choice_whose_alternatives_give_the_same_results_is_no_choice() {
        let tie = || choose(Kind::Players, vec![fixed(1), fixed(2)]);
        let b = choose(Kind::Random, vec![tie(), tie()]);
        assert_eq!(
            marks(b),
            vec![(1, ChosenBy::Players), (2, ChosenBy::Players)]
        );
    }

    #[test]
    fn an_outcome_reached_two_ways_joins_their_kinds() {
        // Random pick: either 1 for sure, or a players' tie between 1 and 2.
        let b = choose(
            Kind::Random,
            vec![fixed(1), choose(Kind::Players, vec![fixed(1), fixed(2)])],
        );
        assert_eq!(
            marks(b),
            vec![
                (1, ChosenBy::RandomAndPlayers),
                (2, ChosenBy::RandomAndPlayers)
            ]
        );
    }
}
