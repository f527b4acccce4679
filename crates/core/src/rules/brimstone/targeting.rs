//! One enemy's activation: the six behaviours (Melee, Ranged, Melee or ranged, Acid Blob, Shootout,
//! Support) with their retarget rules, movement, and whom they attack, with every allowed outcome.

use super::choices::{Branches, Kind, Pending, Walk, fixed, settle};
use super::{Hero, join_names, join_squares, square_name};
use crate::decision::{ChosenBy, Decision};
use crate::square::{Square, SquareBoard, UNREACHABLE, adjacent, range};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// How an enemy type acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Behaviour {
    /// Keeps an adjacent target, else moves as far as it can while still reaching a hero and attacks it.
    Melee,
    /// Shoots every activation, approaching until a hero is within attack range.
    Ranged,
    /// Attacks an adjacent hero in melee, else shoots from a square next to no hero.
    MeleeOrRanged,
    /// Attacks the largest group of heroes around one square it can reach.
    AcidBlob,
    /// Retreats from adjacent heroes, then shoots the hero with the fewest Shootout markers.
    Shootout,
    /// Never attacks: keeps away from heroes.
    Support,
}

impl Behaviour {
    /// Whether it shoots, and so needs a range of 1 or more.
    pub const fn shoots(self) -> bool {
        matches!(
            self,
            Behaviour::Ranged | Behaviour::MeleeOrRanged | Behaviour::Shootout
        )
    }
}

/// The kind of attack an outcome ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Attack {
    /// An attack on adjacent heroes.
    Melee,
    /// A shot.
    Ranged,
    /// No attack.
    NoAttack,
}

impl Attack {
    /// The name the case format uses.
    pub const fn name(self) -> &'static str {
        match self {
            Attack::Melee => "Melee",
            Attack::Ranged => "Ranged",
            Attack::NoAttack => "NoAttack",
        }
    }
}

/// The enemy that activates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Active {
    /// The enemy's name.
    pub name: String,
    /// The square it stands on.
    pub at: Square,
    /// How it acts.
    pub behaviour: Behaviour,
    /// Movement allowance in steps.
    pub move_points: u32,
    /// Attack range for the shooting behaviours (at least 1); unused otherwise.
    pub range: u32,
    /// The hero it targeted before this activation (index into heroes).
    pub current_target: Option<usize>,
    /// Enemies of its type on the board, itself included.
    pub same_type_count: u32,
    /// Heroes already targeted this turn by other enemies of its type (indices into heroes).
    pub targeted_by_same_type: Vec<usize>,
}

/// Everything an activation depends on.
#[derive(Debug, Clone, Copy)]
pub struct Situation<'a> {
    /// The board.
    pub board: &'a SquareBoard,
    /// The heroes on it.
    pub heroes: &'a [Hero],
    /// The squares of the other enemies: they only block movement.
    pub enemies: &'a [Square],
    /// The enemy that activates.
    pub active: &'a Active,
    /// The Shootout retreat roll when it is known; `None` lists both results.
    pub retreat_roll: Option<u8>,
}

/// One allowed result of an activation.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Outcome {
    /// Where the enemy ends (its own square if it doesn't move).
    pub end: Square,
    /// The heroes it attacks, sorted by name.
    pub targets: Vec<String>,
    /// The kind of attack.
    pub attack: Attack,
    /// Who settles this outcome.
    pub chosen_by: ChosenBy,
}

/// The result of an activation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activation {
    /// The enemy drops any current target and targets afresh.
    pub retarget: bool,
    /// Every allowed outcome.
    pub outcomes: Decision<Outcome>,
}

/// An outcome while choices are still being collected: end square index, target heroes, attack.
type Key = (usize, Vec<usize>, Attack);

/// Runs one enemy activation and returns every allowed outcome.
pub fn activate(s: &Situation) -> Activation {
    let walk = Walk::all();
    let (retarget, branches, trace, _) = run(s, &walk);
    outcomes(s, retarget, branches, trace)
}

/// One step of an activation in a game: the outcome the picks made so far lead to, or the next
/// choice they leave open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The picks settle the activation (its `chosen_by` is `Fixed`: nothing is left to choose).
    Done {
        /// The enemy drops any current target and targets afresh.
        retarget: bool,
        /// Where it ends, whom it attacks and how.
        outcome: Outcome,
        /// What the rules did, in words.
        trace: Vec<String>,
        /// Even distribution left a hero out of a random pick on the way.
        even_distribution: bool,
    },
    /// The next choice: a random pick or the players' tie.
    Choice(Pending),
}

/// Runs one enemy activation along `picks` (one per real choice met, in order): the same rules as
/// [`activate`], met one choice at a time. `None` when the picks go past the rules' choices.
pub fn activate_along(s: &Situation, picks: &[usize]) -> Option<Step> {
    let walk = Walk::along(picks);
    let (retarget, branches, trace, even_distribution) = run(s, &walk);
    if let Some(p) = walk.pending() {
        return Some(Step::Choice(p));
    }
    if walk.unused() > 0 {
        return None;
    }
    let done = outcomes(s, retarget, branches, trace);
    let outcome = done.outcomes.options.into_iter().next()?;
    Some(Step::Done {
        retarget: done.retarget,
        outcome,
        trace: done.outcomes.trace,
        even_distribution,
    })
}

/// The activation's branches, with whether even distribution left a hero out on the way (only
/// meaningful along one path of picks).
fn run(s: &Situation, walk: &Walk) -> (bool, Branches<Key>, Vec<String>, bool) {
    let ctx = Ctx::new(s, walk);
    let mut trace = Vec::new();
    let (retarget, branches) = match s.active.behaviour {
        Behaviour::Melee => ctx.melee(&mut trace),
        Behaviour::Ranged => (true, ctx.ranged(&mut trace)),
        Behaviour::MeleeOrRanged => ctx.melee_or_ranged(&mut trace),
        Behaviour::AcidBlob => ctx.acid_blob(&mut trace),
        Behaviour::Shootout => (true, ctx.shootout(&mut trace)),
        Behaviour::Support => (false, ctx.support(&mut trace)),
    };
    (retarget, branches, trace, ctx.spread.get())
}

fn outcomes(
    s: &Situation,
    retarget: bool,
    branches: Branches<Key>,
    trace: Vec<String>,
) -> Activation {
    let mut options: Vec<Outcome> = settle(branches)
        .into_iter()
        .map(|((end, targets, attack), chosen_by)| {
            let mut targets: Vec<String> =
                targets.iter().map(|&h| s.heroes[h].name.clone()).collect();
            targets.sort();
            Outcome {
                end: s.board.square(end),
                targets,
                attack,
                chosen_by,
            }
        })
        .collect();
    options.sort();
    Activation {
        retarget,
        outcomes: Decision { options, trace },
    }
}

/// The board as the activation sees it, with the fields it needs computed once.
struct Ctx<'a> {
    s: &'a Situation<'a>,
    /// How the choices are met: all of them, or along a game's picks.
    walk: &'a Walk,
    board: &'a SquareBoard,
    start: usize,
    /// Squares holding a model other than the active enemy.
    occupied: Vec<bool>,
    /// Square index of each hero.
    hero_at: Vec<usize>,
    /// Walking distance from each hero to every square (models ignored).
    hero_dist: Vec<Vec<u32>>,
    /// Movement cost from the enemy's square (models block).
    cost: Vec<u32>,
    /// Squares adjacent to some hero.
    near_hero: Vec<bool>,
    /// Even distribution left a hero out of a pick on the way (read along a game's picks).
    spread: std::cell::Cell<bool>,
}

impl<'a> Ctx<'a> {
    fn new(s: &'a Situation<'a>, walk: &'a Walk) -> Self {
        let board = s.board;
        let start = board
            .index_of(s.active.at)
            .expect("the active enemy stands on a board square");
        let mut occupied = vec![false; board.len()];
        let hero_at: Vec<usize> = s
            .heroes
            .iter()
            .map(|h| board.index_of(h.at).expect("heroes stand on board squares"))
            .collect();
        for &i in hero_at.iter().chain(
            s.enemies
                .iter()
                .filter_map(|&e| board.index_of(e))
                .collect::<Vec<_>>()
                .iter(),
        ) {
            occupied[i] = true;
        }
        occupied[start] = false;
        let hero_dist = hero_at.iter().map(|&i| board.distances_from(i)).collect();
        let cost = board.walk_from(start, |i| !occupied[i]);
        let near_hero = (0..board.len())
            .map(|i| s.heroes.iter().any(|h| adjacent(h.at, board.square(i))))
            .collect();
        Ctx {
            s,
            walk,
            board,
            start,
            occupied,
            hero_at,
            hero_dist,
            cost,
            near_hero,
            spread: std::cell::Cell::new(false),
        }
    }

    fn name(&self, h: usize) -> &str {
        &self.s.heroes[h].name
    }

    fn names(&self, hs: &[usize]) -> String {
        let mut n: Vec<&str> = hs.iter().map(|&h| self.name(h)).collect();
        n.sort_unstable();
        join_names(&n)
    }

    fn squares(&self, is: &[usize]) -> String {
        let sq: Vec<Square> = is.iter().map(|&i| self.board.square(i)).collect();
        join_squares(&sq)
    }

    fn at(&self, i: usize) -> Square {
        self.board.square(i)
    }

    /// Heroes adjacent to square `i`.
    fn adjacent_heroes(&self, i: usize) -> Vec<usize> {
        let sq = self.at(i);
        (0..self.s.heroes.len())
            .filter(|&h| adjacent(self.s.heroes[h].at, sq))
            .collect()
    }

    /// Whether hero `h` is within attack range of the enemy standing on square `i`.
    fn in_range(&self, i: usize, h: usize) -> bool {
        let (from, to) = (self.at(i), self.s.heroes[h].at);
        let r = range(from, to);
        r >= 1 && r <= self.s.active.range && self.board.sees(from, to)
    }

    fn heroes_in_range(&self, i: usize) -> Vec<usize> {
        (0..self.s.heroes.len())
            .filter(|&h| self.in_range(i, h))
            .collect()
    }

    /// Squares the enemy can reach this activation with its movement cost field `cost`.
    fn reachable<'c>(&'c self, cost: &'c [u32]) -> impl Iterator<Item = usize> + 'c {
        let m = self.s.active.move_points;
        (0..self.board.len()).filter(move |&i| cost[i] <= m)
    }

    /// Even distribution: with more heroes on the board than enemies of this type, heroes already
    /// targeted by the type are dropped from a random pick, unless that would drop them all.
    fn spread(&self, candidates: Vec<usize>, trace: &mut Vec<String>, context: &str) -> Vec<usize> {
        let a = self.s.active;
        if self.s.heroes.len() as u64 <= u64::from(a.same_type_count) {
            return candidates;
        }
        let kept: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|h| !a.targeted_by_same_type.contains(h))
            .collect();
        if kept.is_empty() || kept.len() == candidates.len() {
            return candidates;
        }
        let dropped: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|h| a.targeted_by_same_type.contains(h))
            .collect();
        self.spread.set(true);
        trace.push(format!(
            "{context}even distribution: {} already targeted by its type, so left out",
            self.names(&dropped)
        ));
        kept
    }

    /// A random pick of a hero among `candidates`, each leading to `then`.
    fn random_hero(
        &self,
        candidates: Vec<usize>,
        trace: &mut Vec<String>,
        context: &str,
        what: &str,
        mut then: impl FnMut(usize, &mut Vec<String>) -> Branches<Key>,
    ) -> Branches<Key> {
        let picks = self.spread(candidates, trace, context);
        trace.push(match picks.len() {
            1 => format!("{context}{what}: only {}", self.names(&picks)),
            _ => format!("{context}{what}: random pick among {}", self.names(&picks)),
        });
        self.walk.choose_n(
            Kind::Random,
            picks.len(),
            |i| self.name(picks[i]).to_string(),
            |i| then(picks[i], trace),
        )
    }

    /// The closest heroes by walking distance (never those at infinite distance).
    fn closest(&self, from: usize) -> Vec<usize> {
        let d = |h: usize| self.hero_dist[h][from];
        let best = (0..self.s.heroes.len()).map(d).min().unwrap_or(UNREACHABLE);
        if best == UNREACHABLE {
            return Vec::new();
        }
        (0..self.s.heroes.len()).filter(|&h| d(h) == best).collect()
    }

    /// Approach hero `h` under movement costs `cost`: the allowed reachable squares that meet the goal
    /// with the least cost, else those closest to `h` by walking, then cheapest. Ties are listed.
    fn approach(
        &self,
        h: usize,
        cost: &[u32],
        allowed: impl Fn(usize) -> bool,
        goal: impl Fn(usize) -> bool,
    ) -> (Vec<usize>, bool) {
        let cands: Vec<usize> = self.reachable(cost).filter(|&i| allowed(i)).collect();
        if cands.is_empty() {
            // Nowhere allowed to end: it stays where it is.
            let from = (0..self.board.len())
                .find(|&i| cost[i] == 0)
                .unwrap_or(self.start);
            return (vec![from], goal(from));
        }
        let meeting: Vec<usize> = cands.iter().copied().filter(|&i| goal(i)).collect();
        if !meeting.is_empty() {
            return (least_by(&meeting, |i| cost[i]), true);
        }
        let dist = &self.hero_dist[h];
        (least_by(&cands, |i| (dist[i], cost[i])), false)
    }

    /// Players' tie over the closest heroes, each approached by `then`; with no hero reachable by
    /// walking, the enemy stays and `then_none` decides.
    fn towards_closest(
        &self,
        trace: &mut Vec<String>,
        from: usize,
        mut then: impl FnMut(usize, &mut Vec<String>) -> Branches<Key>,
        then_none: impl FnOnce(&mut Vec<String>) -> Branches<Key>,
    ) -> Branches<Key> {
        let closest = self.closest(from);
        match closest.len() {
            0 => {
                trace.push("no hero can be walked to → it stays".into());
                then_none(trace)
            }
            1 => {
                trace.push(format!("closest hero: {}", self.names(&closest)));
                then(closest[0], trace)
            }
            _ => {
                trace.push(format!(
                    "closest heroes: {} (tied: the players choose whom it moves towards)",
                    self.names(&closest)
                ));
                self.walk.why(|| {
                    format!(
                        "{}: the closest heroes are {}, equally close: the players choose whom it moves towards",
                        self.s.active.name,
                        self.names(&closest)
                    )
                });
                self.walk.choose_n(
                    Kind::Players,
                    closest.len(),
                    |i| format!("towards {}", self.name(closest[i])),
                    |i| then(closest[i], trace),
                )
            }
        }
    }

    /// Players' tie over end squares.
    fn ends(
        &self,
        squares: Vec<usize>,
        mut then: impl FnMut(usize) -> Branches<Key>,
    ) -> Branches<Key> {
        self.walk.choose_n(
            Kind::Players,
            squares.len(),
            |i| square_name(self.at(squares[i])),
            |i| then(squares[i]),
        )
    }

    fn describe_ends(&self, trace: &mut Vec<String>, context: &str, ends: &[usize], why: &str) {
        let line = format!(
            "{context}ends on {}{}",
            self.squares(ends),
            if ends.len() > 1 {
                format!(" ({why}; tied: the players choose)")
            } else {
                format!(" ({why})")
            }
        );
        if ends.len() > 1 {
            self.walk.why(|| format!("{} {line}", self.s.active.name));
        }
        trace.push(line);
    }

    // --- Melee -------------------------------------------------------------------------------------

    fn melee(&self, trace: &mut Vec<String>) -> (bool, Branches<Key>) {
        if let Some(t) = self.kept_adjacent_target(trace, "Melee") {
            return (false, fixed((self.start, vec![t], Attack::Melee)));
        }
        let reach: Vec<usize> = self.reachable(&self.cost).collect();
        let candidates: Vec<usize> = (0..self.s.heroes.len())
            .filter(|&h| {
                reach
                    .iter()
                    .any(|&i| adjacent(self.at(i), self.s.heroes[h].at))
            })
            .collect();
        if candidates.is_empty() {
            trace.push("Melee: no hero within movement range → no target; it moves towards the closest hero".into());
            let b = self.towards_closest(
                trace,
                self.start,
                |h, trace| {
                    let (ends, _) = self.approach(h, &self.cost, |_| true, |_| false);
                    self.describe_ends(
                        trace,
                        "",
                        &ends,
                        &format!("as close to {} as it gets", self.name(h)),
                    );
                    self.ends(ends, |e| fixed((e, vec![], Attack::NoAttack)))
                },
                |_| fixed((self.start, vec![], Attack::NoAttack)),
            );
            return (true, b);
        }
        trace.push(format!(
            "Melee: retargets; heroes within movement range: {}",
            self.names(&candidates)
        ));
        let b = self.random_hero(candidates, trace, "", "target", |h, trace| {
            let hero = self.s.heroes[h].at;
            let next: Vec<usize> = reach
                .iter()
                .copied()
                .filter(|&i| adjacent(self.at(i), hero))
                .collect();
            let most = next.iter().map(|&i| self.cost[i]).max().unwrap_or(0);
            let ends: Vec<usize> = next.into_iter().filter(|&i| self.cost[i] == most).collect();
            self.describe_ends(
                trace,
                &format!("if {}: ", self.name(h)),
                &ends,
                "the reachable square next to the target that costs the most movement",
            );
            self.ends(ends, |e| fixed((e, vec![h], Attack::Melee)))
        });
        (true, b)
    }

    /// The current target, when it is adjacent: kept, no move, melee attack.
    fn kept_adjacent_target(&self, trace: &mut Vec<String>, who: &str) -> Option<usize> {
        let t = self.s.active.current_target?;
        if adjacent(self.s.heroes[t].at, self.s.active.at) {
            trace.push(format!(
                "{who}: current target {} is adjacent → keeps it, does not move, attacks in melee",
                self.name(t)
            ));
            Some(t)
        } else {
            trace.push(format!(
                "{who}: current target {} is not adjacent → retargets",
                self.name(t)
            ));
            None
        }
    }

    // --- Ranged ------------------------------------------------------------------------------------

    /// From square `e`: a random adjacent hero, else a random hero within attack range, else nothing.
    fn shoot_from(&self, e: usize, trace: &mut Vec<String>, context: &str) -> Branches<Key> {
        let adj = self.adjacent_heroes(e);
        if !adj.is_empty() {
            return self.random_hero(adj, trace, context, "shoots an adjacent hero", |h, _| {
                fixed((e, vec![h], Attack::Ranged))
            });
        }
        let inr = self.heroes_in_range(e);
        if inr.is_empty() {
            trace.push(format!(
                "{context}no hero within attack range of {} → no attack",
                square_name(self.at(e))
            ));
            return fixed((e, vec![], Attack::NoAttack));
        }
        self.random_hero(
            inr,
            trace,
            context,
            "shoots a hero within attack range",
            |h, _| fixed((e, vec![h], Attack::Ranged)),
        )
    }

    fn ranged(&self, trace: &mut Vec<String>) -> Branches<Key> {
        if !self.heroes_in_range(self.start).is_empty() {
            trace.push("Ranged: retargets; a hero is within attack range → it stays".into());
            return self.shoot_from(self.start, trace, "");
        }
        trace.push(
            "Ranged: retargets; no hero within attack range → moves towards the closest hero"
                .into(),
        );
        self.towards_closest(
            trace,
            self.start,
            |h, trace| {
                let (ends, met) = self.approach(h, &self.cost, |_| true, |i| self.in_range(i, h));
                let why = if met {
                    format!("stops as soon as {} is within attack range", self.name(h))
                } else {
                    format!("{} stays out of range; as close as it gets", self.name(h))
                };
                self.describe_ends(trace, "", &ends, &why);
                self.ends(ends, |e| {
                    let ctx = format!("from {}: ", square_name(self.at(e)));
                    self.shoot_from(e, trace, &ctx)
                })
            },
            |trace| self.shoot_from(self.start, trace, ""),
        )
    }

    // --- Melee or ranged -----------------------------------------------------------------------------

    fn melee_or_ranged(&self, trace: &mut Vec<String>) -> (bool, Branches<Key>) {
        if let Some(t) = self.kept_adjacent_target(trace, "Melee or ranged") {
            return (false, fixed((self.start, vec![t], Attack::Melee)));
        }
        let adj = self.adjacent_heroes(self.start);
        if !adj.is_empty() {
            trace.push("Melee or ranged: a hero is adjacent → no move, melee attack".into());
            let b = self.random_hero(adj, trace, "", "target", |h, _| {
                fixed((self.start, vec![h], Attack::Melee))
            });
            return (true, b);
        }
        if !self.heroes_in_range(self.start).is_empty() {
            trace.push(
                "Melee or ranged: a hero is within attack range → it stays and shoots".into(),
            );
            return (true, self.shoot_from(self.start, trace, ""));
        }
        trace.push(
            "Melee or ranged: no hero within attack range → moves towards the closest hero, never ending next to a hero"
                .into(),
        );
        let b = self.towards_closest(
            trace,
            self.start,
            |h, trace| {
                let (ends, met) = self.approach(
                    h,
                    &self.cost,
                    |i| !self.near_hero[i],
                    |i| self.in_range(i, h),
                );
                let why = if met {
                    format!("stops as soon as {} is within attack range", self.name(h))
                } else {
                    format!("{} stays out of range; as close as it gets", self.name(h))
                };
                self.describe_ends(trace, "", &ends, &why);
                self.ends(ends, |e| {
                    let ctx = format!("from {}: ", square_name(self.at(e)));
                    self.shoot_from(e, trace, &ctx)
                })
            },
            |trace| self.shoot_from(self.start, trace, ""),
        );
        (true, b)
    }

    // --- Acid Blob ---------------------------------------------------------------------------------

    fn acid_blob(&self, trace: &mut Vec<String>) -> (bool, Branches<Key>) {
        let reach: Vec<usize> = self.reachable(&self.cost).collect();
        let groups: Vec<Vec<usize>> = reach.iter().map(|&i| self.adjacent_heroes(i)).collect();
        let best = groups.iter().map(Vec::len).max().unwrap_or(0);
        let current = self.s.active.current_target;
        if best == 0 {
            let no_attack = |e: usize| fixed((e, vec![], Attack::NoAttack));
            return match current {
                Some(t) => {
                    trace.push(format!(
                        "Acid Blob: no hero can be reached → keeps its target {} and moves towards it",
                        self.name(t)
                    ));
                    let (ends, _) = self.approach(t, &self.cost, |_| true, |_| false);
                    self.describe_ends(trace, "", &ends, "as close as it gets");
                    (false, self.ends(ends, no_attack))
                }
                None => {
                    trace.push(
                        "Acid Blob: no hero can be reached → moves towards the closest hero".into(),
                    );
                    let b = self.towards_closest(
                        trace,
                        self.start,
                        |h, trace| {
                            let (ends, _) = self.approach(h, &self.cost, |_| true, |_| false);
                            self.describe_ends(
                                trace,
                                "",
                                &ends,
                                &format!("as close to {} as it gets", self.name(h)),
                            );
                            self.ends(ends, no_attack)
                        },
                        |_| no_attack(self.start),
                    );
                    (true, b)
                }
            };
        }
        if let Some(t) = current {
            let keep: Vec<usize> = (0..reach.len())
                .filter(|&k| groups[k].len() == best && groups[k].contains(&t))
                .collect();
            if !keep.is_empty() {
                let ends: Vec<usize> = keep.iter().map(|&k| reach[k]).collect();
                trace.push(format!(
                    "Acid Blob: a largest reachable group ({best} heroes) includes its target {} → keeps it",
                    self.name(t)
                ));
                self.describe_ends(
                    trace,
                    "",
                    &ends,
                    "next to the largest group with its target",
                );
                self.walk.why(|| {
                    format!(
                        "{}: {} squares are next to a largest group with its target: the players choose",
                        self.s.active.name,
                        keep.len()
                    )
                });
                let b = self.walk.choose_n(
                    Kind::Players,
                    keep.len(),
                    |i| square_name(self.at(reach[keep[i]])),
                    |i| fixed((reach[keep[i]], groups[keep[i]].clone(), Attack::Melee)),
                );
                return (false, b);
            }
        }
        let distinct: BTreeSet<&Vec<usize>> = groups.iter().filter(|g| g.len() == best).collect();
        let names: Vec<String> = distinct
            .iter()
            .map(|g| format!("[{}]", self.names(g)))
            .collect();
        trace.push(format!(
            "Acid Blob: retargets; the largest groups it can reach ({best} heroes): {}{}",
            names.join(", "),
            if distinct.len() > 1 {
                " → random pick of a group"
            } else {
                ""
            }
        ));
        let distinct: Vec<&Vec<usize>> = distinct.into_iter().collect();
        let b = self.walk.choose_n(
            Kind::Random,
            distinct.len(),
            |i| names[i].clone(),
            |i| {
                let g = distinct[i];
                let ends: Vec<usize> = (0..reach.len())
                    .filter(|&k| &groups[k] == g)
                    .map(|k| reach[k])
                    .collect();
                self.describe_ends(
                    trace,
                    &format!("if [{}]: ", self.names(g)),
                    &ends,
                    "next to exactly that group",
                );
                self.ends(ends, |e| fixed((e, g.clone(), Attack::Melee)))
            },
        );
        (true, b)
    }

    // --- Shootout ----------------------------------------------------------------------------------

    fn shootout(&self, trace: &mut Vec<String>) -> Branches<Key> {
        let adj = self.adjacent_heroes(self.start);
        if adj.is_empty() {
            trace.push("Shootout: retargets; no hero adjacent → no retreat".into());
            return self.shootout_aim(self.start, &self.cost, trace, "");
        }
        let fail = |trace: &mut Vec<String>, ctx: &str| {
            self.random_hero(
                adj.clone(),
                trace,
                ctx,
                "melee attack on an adjacent hero",
                |h, _| fixed((self.start, vec![h], Attack::Melee)),
            )
        };
        // The retreat: a free move of any length to the cheapest square next to no hero.
        let free = self.board.walk_from(self.start, |i| !self.occupied[i]);
        let away: Vec<usize> = (0..self.board.len())
            .filter(|&i| free[i] != UNREACHABLE && !self.near_hero[i])
            .collect();
        let retreat = least_by(&away, |i| free[i]);
        let succeed = |trace: &mut Vec<String>, ctx: &str| -> Branches<Key> {
            if retreat.is_empty() {
                trace.push(format!(
                    "{ctx}no square away from the heroes can be reached → the retreat fails"
                ));
                return fail(trace, ctx);
            }
            self.describe_ends(
                trace,
                ctx,
                &retreat,
                "retreat: the nearest square next to no hero",
            );
            self.ends(retreat.clone(), |r| {
                let cost = self.board.walk_from(r, |i| !self.occupied[i]);
                let c = format!("{ctx}after retreating to {}: ", square_name(self.at(r)));
                self.shootout_aim(r, &cost, trace, &c)
            })
        };
        trace.push("Shootout: retargets; a hero is adjacent → it tries to retreat (D6, 4+)".into());
        match self.s.retreat_roll {
            Some(n) if n >= 4 => {
                trace.push(format!("retreat roll {n}: success"));
                succeed(trace, "")
            }
            Some(n) => {
                trace.push(format!("retreat roll {n}: failure → no move"));
                fail(trace, "")
            }
            None => {
                trace.push("retreat roll not given: both results are listed (random)".into());
                self.walk.choose_n(
                    Kind::Random,
                    2,
                    |i| ["retreat roll 4-6", "retreat roll 1-3"][i].to_string(),
                    |i| {
                        if i == 0 {
                            succeed(trace, "on 4-6: ")
                        } else {
                            fail(trace, "on 1-3: ")
                        }
                    },
                )
            }
        }
    }

    /// Shootout steps 4 to 6 from square `from`, with the movement costs from there.
    fn shootout_aim(
        &self,
        from: usize,
        cost: &[u32],
        trace: &mut Vec<String>,
        ctx: &str,
    ) -> Branches<Key> {
        let all: Vec<usize> = (0..self.s.heroes.len()).collect();
        let fewest = self.fewest_markers(&all);
        self.random_hero(
            fewest,
            trace,
            ctx,
            "target among the heroes with the fewest markers",
            |t, trace| {
                let c = format!("{ctx}if {}: ", self.name(t));
                if self.in_range(from, t) {
                    trace.push(format!("{c}within attack range → shoots without moving"));
                    return fixed((from, vec![t], Attack::Ranged));
                }
                let (ends, met) =
                    self.approach(t, cost, |i| !self.near_hero[i], |i| self.in_range(i, t));
                let why = if met {
                    "stops as soon as the target is within attack range"
                } else {
                    "the target stays out of range; as close as it gets"
                };
                self.describe_ends(trace, &c, &ends, why);
                self.ends(ends, |e| {
                    if self.in_range(e, t) {
                        return fixed((e, vec![t], Attack::Ranged));
                    }
                    let inr = self.heroes_in_range(e);
                    let c2 = format!("{c}from {}: ", square_name(self.at(e)));
                    if inr.is_empty() {
                        trace.push(format!("{c2}no hero within attack range → no attack"));
                        return fixed((e, vec![], Attack::NoAttack));
                    }
                    let fewest = self.fewest_markers(&inr);
                    self.random_hero(
                        fewest,
                        trace,
                        &c2,
                        "shoots a hero in range with the fewest markers",
                        |h, _| fixed((e, vec![h], Attack::Ranged)),
                    )
                })
            },
        )
    }

    fn fewest_markers(&self, heroes: &[usize]) -> Vec<usize> {
        let least = heroes
            .iter()
            .map(|&h| self.s.heroes[h].markers)
            .min()
            .unwrap_or(0);
        heroes
            .iter()
            .copied()
            .filter(|&h| self.s.heroes[h].markers == least)
            .collect()
    }

    // --- Support -----------------------------------------------------------------------------------

    fn support(&self, trace: &mut Vec<String>) -> Branches<Key> {
        let stay = fixed((self.start, vec![], Attack::NoAttack));
        let adj = self.adjacent_heroes(self.start);
        if !adj.is_empty() {
            let away: Vec<usize> = self
                .reachable(&self.cost)
                .filter(|&i| !self.near_hero[i])
                .collect();
            if away.is_empty() {
                trace.push(format!(
                    "Support: next to {} but no square away from every hero can be reached → it stays",
                    self.names(&adj)
                ));
                return stay;
            }
            let nearest = |i: usize| adj.iter().map(|&h| self.hero_dist[h][i]).min().unwrap_or(0);
            let far = most_by(&away, nearest);
            trace.push(format!(
                "Support: next to {} → moves away from them",
                self.names(&adj)
            ));
            self.describe_ends(
                trace,
                "",
                &far,
                "as far as possible from the nearest of them, next to no hero",
            );
            return self.ends(far, |e| fixed((e, vec![], Attack::NoAttack)));
        }
        let tile = self.board.tile_of(self.start);
        if self.hero_at.iter().any(|&i| self.board.tile_of(i) == tile) {
            trace.push("Support: a hero shares its tile and none is adjacent → it stays".into());
            return stay;
        }
        trace.push("Support: no hero on its tile → moves towards the closest hero's tile, never next to a hero".into());
        self.towards_closest(
            trace,
            self.start,
            |h, trace| {
                let htile = self.board.tile_of(self.hero_at[h]);
                let (ends, met) = self.approach(
                    h,
                    &self.cost,
                    |i| !self.near_hero[i],
                    |i| self.board.tile_of(i) == htile,
                );
                let why = if met {
                    format!("the cheapest square on {}'s tile", self.name(h))
                } else {
                    format!(
                        "{}'s tile is out of reach; as close as it gets",
                        self.name(h)
                    )
                };
                self.describe_ends(trace, "", &ends, &why);
                self.ends(ends, |e| fixed((e, vec![], Attack::NoAttack)))
            },
            |_| fixed((self.start, vec![], Attack::NoAttack)),
        )
    }
}

/// The items with the least key.
fn least_by<K: Ord>(items: &[usize], key: impl Fn(usize) -> K) -> Vec<usize> {
    let Some(best) = items.iter().map(|&i| key(i)).min() else {
        return Vec::new();
    };
    items.iter().copied().filter(|&i| key(i) == best).collect()
}

/// The items with the greatest key.
fn most_by(items: &[usize], key: impl Fn(usize) -> u32) -> Vec<usize> {
    let Some(best) = items.iter().map(|&i| key(i)).max() else {
        return Vec::new();
    };
    items.iter().copied().filter(|&i| key(i) == best).collect()
}
