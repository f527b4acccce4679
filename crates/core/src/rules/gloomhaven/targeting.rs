//! The Gloomhaven-2e / Frosthaven monster: focus, movement, attack hexes and targets, with every tie.
//!
//! [`decide`] answers "what does this monster do?" for one board position. It returns every outcome the
//! rules leave equal (the players pick one) and a trace of the rule steps in words a player can read.
//! The rule conventions follow the puzzle format's section 6; `docs/rules-gloomhaven.md` spells out the
//! readings taken where the printed rules are terse.

use super::attack::Attack;
use super::movement::{Frontier, Mode, MoveGraph, Occupant, Score, UNREACHABLE};
use super::preset::{Edition, JumpLanding};
use super::shared::{self, Shared};
use crate::hex::{Hex, HexMap, qr};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;

pub use super::ability::MonsterAction;

/// An enemy of the active monster (a character or a character's summon).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enemy {
    /// Where the enemy stands.
    pub hex: Hex,
    /// Initiative this round; lower acts earlier.
    pub initiative: u32,
    /// Settles an equal `initiative`, lower first: the initiative of a hero's other card, or
    /// [`RESTING`] for a long-resting hero (who acts after every hero playing cards). Equal on both
    /// is a real tie, which the players break.
    pub second: u32,
    /// Settles what `initiative` and `second` leave equal, lower first: a summon acts just before
    /// its summoner (its place among the summoner's summons, 0 first), a monster in its type's
    /// order of turns (its place there); heroes have [`LAST`].
    pub order: u32,
    /// Name used in the trace.
    pub name: String,
}

/// The `second` initiative of a long-resting hero: after every card.
pub const RESTING: u32 = u32::MAX;

/// The `order` of a hero: after its summons.
pub const LAST: u32 = u32::MAX;

/// The `second` initiative of a scenario's ally: after the characters of its initiative.
pub const ALLY: u32 = u32::MAX - 1;

/// One board position with an active monster about to act.
#[derive(Debug, Clone, Copy)]
pub struct Situation<'a> {
    /// The board.
    pub map: &'a HexMap,
    /// Where the active monster stands.
    pub active: Hex,
    /// Its allies: other monsters, which it may pass but not stop on.
    pub allies: &'a [Hex],
    /// Its enemies.
    pub enemies: &'a [Enemy],
    /// What its ability card tells it to do.
    pub action: &'a MonsterAction,
    /// The edition of the rules it follows.
    pub edition: Edition,
}

impl Situation<'_> {
    /// How the monster moves, with the edition's price of a jump's landing.
    pub fn mode(&self) -> Mode {
        Mode {
            flying: self.action.flying,
            jumping: self.action.jumping,
            teleport: self.action.teleport,
            heavy_landing: self.edition.switches.jump_landing == JumpLanding::Terrain,
        }
    }
}

/// One outcome the players may choose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// Where the monster ends its move (its own hex if it does not move).
    pub end: Hex,
    /// The hexes it enters, in order (empty if it stays).
    pub path: Vec<Hex>,
    /// The enemies it attacks, sorted by `(q, r)`.
    pub targets: Vec<Hex>,
    /// When it cannot attack its focus this turn: the attack hexes it is heading for.
    pub heading_to: Vec<Hex>,
    /// The focus (or tied foci) under which this outcome arises.
    pub focus: Vec<Hex>,
    /// One placement of the area of effect giving these targets (empty without an area).
    pub aoe: Vec<Hex>,
}

/// What the rules say the monster does: all equal outcomes plus the reasoning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// Enemies that are valid foci (a tie here is the players' to break); empty: no focus.
    pub focus: Vec<Hex>,
    /// Every allowed outcome, sorted by `(end, targets)`, no repeats.
    pub options: Vec<Choice>,
    /// The rule steps, in words.
    pub trace: Vec<String>,
}

/// Why a position cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SituationError {
    /// A figure off the board.
    NotOnMap(Hex),
    /// A figure on a wall hex.
    OnWall(Hex),
    /// Two figures on one hex.
    Shared(Hex),
    /// More than 64 enemies (the count).
    TooManyEnemies(usize),
}

impl std::fmt::Display for SituationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SituationError::NotOnMap(h) => write!(
                f,
                "a figure stands on ({}, {}), which is not on the map",
                h.x, h.y
            ),
            SituationError::OnWall(h) => {
                write!(f, "a figure stands on the wall hex ({}, {})", h.x, h.y)
            }
            SituationError::Shared(h) => write!(f, "two figures stand on ({}, {})", h.x, h.y),
            SituationError::TooManyEnemies(n) => write!(f, "{n} enemies: at most 64 are supported"),
        }
    }
}

impl std::error::Error for SituationError {}

fn fmt_hex(h: Hex) -> String {
    format!("({}, {})", h.x, h.y)
}

fn fmt_hexes(hs: &[Hex]) -> String {
    hs.iter().map(|h| fmt_hex(*h)).collect::<Vec<_>>().join(" ")
}

/// Checks a position: figures on the board, off walls, one per hex.
pub(crate) fn validate(s: &Situation) -> Result<(), SituationError> {
    if s.enemies.len() > 64 {
        return Err(SituationError::TooManyEnemies(s.enemies.len()));
    }
    let mut seen: Vec<Hex> = Vec::new();
    for h in std::iter::once(s.active)
        .chain(s.allies.iter().copied())
        .chain(s.enemies.iter().map(|e| e.hex))
    {
        match s.map.terrain(h) {
            None => return Err(SituationError::NotOnMap(h)),
            Some(crate::hex::Terrain::Wall) => return Err(SituationError::OnWall(h)),
            _ => {}
        }
        if seen.contains(&h) {
            return Err(SituationError::Shared(h));
        }
        seen.push(h);
    }
    Ok(())
}

/// Decides what the active monster does. See the module docs.
pub fn decide(s: &Situation) -> Result<Decision, SituationError> {
    decide_with(s, &mut Shared::default())
}

/// [`decide`], reusing what earlier decisions on the same board worked out and keeping what this one
/// works out (see [`Shared`]). The answer is the same as [`decide`]'s.
pub(crate) fn decide_with(s: &Situation, shared: &mut Shared) -> Result<Decision, SituationError> {
    validate(s)?;
    let map = s.map;
    let enemies: Vec<usize> = s.enemies.iter().map(|e| index(map, e.hex)).collect();
    let lines = s.edition.switches.sight;
    let seen = shared.take_seen(map, lines, &enemies);
    let mode = s.mode();
    let turn = shared.turn(map, index(map, s.active), &enemies, mode, lines);
    let own;
    let (graph, towards) = match turn.graph {
        Some(g) => (g, turn.towards),
        None => {
            own = MoveGraph::new(map, &occupants(s), mode);
            (&own, None)
        }
    };
    let ranges = turn.ranges.iter().map(|r| Cow::Borrowed(*r)).collect();
    let attack = Attack::with(
        map,
        s.action,
        enemies.clone(),
        ranges,
        Cow::Borrowed(turn.sight),
        seen,
    );
    let (decision, attack) = Solver::new(s, graph, towards, turn.ranges, attack).run();
    let rows = attack.into_sight_rows();
    shared.give_back(&enemies, rows);
    Ok(decision)
}

/// The dense index of a hex on the board (validated positions only).
fn index(map: &HexMap, h: Hex) -> usize {
    map.index_of(h).map(|i| i as usize).unwrap_or_default()
}

/// Who stands on each hex, from the active monster's point of view.
fn occupants(s: &Situation) -> Vec<Occupant> {
    let mut occ = vec![Occupant::Empty; s.map.len()];
    for a in s.allies {
        occ[index(s.map, *a)] = Occupant::Ally;
    }
    for e in s.enemies {
        occ[index(s.map, e.hex)] = Occupant::Enemy;
    }
    occ[index(s.map, s.active)] = Occupant::Myself;
    occ
}

/// A monster's moves from where it stands, searched outwards in the order of their scores, as far
/// as its choice needs.
struct Reach {
    frontier: Frontier,
    start: usize,
    /// The search score of the hex settled last: every hex scoring less is settled.
    last: Score,
    /// Every hex it can reach is settled.
    done: bool,
}

impl Reach {
    fn new(graph: &MoveGraph, start: usize) -> Self {
        Reach {
            frontier: Frontier::new(graph, start, false),
            start,
            last: (0, 0),
            done: false,
        }
    }

    /// Settles the next hex, if any is left.
    fn next(&mut self, graph: &MoveGraph) -> Option<usize> {
        if self.done {
            return None;
        }
        match self.frontier.next(graph) {
            Some((h, sc)) => {
                self.last = sc;
                Some(h)
            }
            None => {
                self.done = true;
                None
            }
        }
    }

    /// Whether every hex scoring at most `s` is settled. A path's score adds the landing penalty
    /// of where it ends to the search's, never less, so a search past `s` has them all.
    fn covers(&self, s: Score) -> bool {
        self.done || self.last > s
    }

    /// The best score from the start to `h`, landing penalty included, once `h` is settled;
    /// `UNREACHABLE` before.
    fn score(&self, graph: &MoveGraph, h: usize) -> Score {
        if !self.frontier.is_settled(h) {
            return UNREACHABLE;
        }
        if h == self.start {
            // Staying put enters no hex, so it lands on none.
            return (0, 0);
        }
        graph.landed(self.frontier.score(h), h)
    }
}

struct Solver<'a> {
    s: &'a Situation<'a>,
    map: &'a HexMap,
    start: usize,
    graph: &'a MoveGraph,
    /// Where the monster may end a move (its graph's may be another monster's).
    endable: Vec<bool>,
    /// Searches towards hexes on a shared graph.
    towards: Option<&'a mut BTreeMap<u16, Frontier>>,
    /// Per enemy, the range from it to every hex.
    ranges: Vec<&'a [u16]>,
    /// Its moves, searched only as far as its choice needs.
    reach: Reach,
    /// Per hex settled in `reach`, in that order: the enemies it can attack from there.
    hits: Vec<(usize, u64)>,
    /// Per enemy, the best score to a hex it can attack the enemy from (once `run` has it).
    best: Vec<Option<Score>>,
    attack: Attack<'a>,
    enemy_idx: Vec<usize>,
    trace: Vec<String>,
}

impl<'a> Solver<'a> {
    fn new(
        s: &'a Situation<'a>,
        graph: &'a MoveGraph,
        towards: Option<&'a mut BTreeMap<u16, Frontier>>,
        ranges: Vec<&'a [u16]>,
        attack: Attack<'a>,
    ) -> Self {
        let map = s.map;
        let start = index(map, s.active);
        // A shared graph was built with the enemies alone on the board: allies are not to be ended
        // on, the monster's own hex is.
        let mut endable = graph.endable.clone();
        for a in s.allies {
            endable[index(map, *a)] = false;
        }
        endable[start] = true;
        let enemy_idx: Vec<usize> = s.enemies.iter().map(|e| index(map, e.hex)).collect();
        Solver {
            s,
            map,
            start,
            graph,
            endable,
            towards,
            ranges,
            reach: Reach::new(graph, start),
            hits: Vec::new(),
            best: Vec::new(),
            attack,
            enemy_idx,
            trace: Vec::new(),
        }
    }

    /// Settles the next hex of its moves and works out whom it can attack from there, if it may
    /// end there; `false` once every hex it can reach is settled.
    fn settle(&mut self) -> bool {
        let Some(h) = self.reach.next(self.graph) else {
            return false;
        };
        let mut mask = 0u64;
        if self.endable[h] {
            self.attack.offer_at(h);
            for k in 0..self.s.enemies.len() {
                if self.attack.can_hit(k, h) {
                    mask |= 1 << k;
                }
            }
        }
        self.hits.push((h, mask));
        true
    }

    /// The score of the monster's best path to `h` (settled hexes only; `UNREACHABLE` else).
    fn score(&self, h: usize) -> Score {
        self.reach.score(self.graph, h)
    }

    fn name(&self, k: usize) -> String {
        let e = &self.s.enemies[k];
        let at = fmt_hex(e.hex);
        if e.name.is_empty() || e.name == at {
            at
        } else {
            format!("{} {}", e.name, at)
        }
    }

    /// The decision, and the attack for what it learnt of sight.
    fn run(mut self) -> (Decision, Attack<'a>) {
        let act = self.s.action;
        let mode = self.s.mode();
        self.trace.push(format!(
            "The monster at {} {} {} and {}.",
            fmt_hex(self.s.active),
            mode.describe(),
            if act.move_points == 0 {
                "not at all".to_string()
            } else {
                format!("up to {}", act.move_points)
            },
            self.attack.describe()
        ));
        // Attack hexes and the best path to one of them, per enemy: its moves are searched in the
        // order of their scores until every enemy's best is sure (no hex left scores lower).
        let mut best: Vec<Option<Score>> = vec![None; self.s.enemies.len()];
        let mut seen = 0;
        loop {
            while seen < self.hits.len() {
                let (h, mask) = self.hits[seen];
                seen += 1;
                let sc = self.score(h);
                let mut left = mask;
                while left != 0 {
                    let k = left.trailing_zeros() as usize;
                    left &= left - 1;
                    if best[k].is_none_or(|b| sc < b) {
                        best[k] = Some(sc);
                    }
                }
            }
            if best.iter().all(|b| b.is_some_and(|b| self.reach.covers(b))) || !self.settle() {
                break;
            }
        }
        let candidates: Vec<usize> = (0..self.s.enemies.len())
            .filter(|k| best[*k].is_some())
            .collect();
        for (k, b) in best.iter().enumerate() {
            if b.is_none() {
                self.trace.push(format!(
                    "{}: no hex it can reach lets it attack this enemy.",
                    self.name(k)
                ));
            }
        }
        if candidates.is_empty() {
            self.trace
                .push("No focus: it neither moves nor attacks.".into());
            let stay = Choice {
                end: self.s.active,
                path: vec![],
                targets: vec![],
                heading_to: vec![],
                focus: vec![],
                aoe: vec![],
            };
            let decision = Decision {
                focus: vec![],
                options: vec![stay],
                trace: self.trace,
            };
            return (decision, self.attack);
        }
        let foci = self.choose_focus(&candidates, &best);
        self.best = best;
        let mut options: Vec<Choice> = Vec::new();
        for &f in &foci {
            for c in self.options_for(f) {
                match options
                    .iter_mut()
                    .find(|o| o.end == c.end && o.targets == c.targets)
                {
                    Some(o) => {
                        o.focus.extend(c.focus);
                        crate::hex::sort_hexes(&mut o.focus);
                        o.heading_to.extend(c.heading_to);
                        crate::hex::sort_hexes(&mut o.heading_to);
                    }
                    None => options.push(c),
                }
            }
        }
        // By end hex, then targets in order: compared in place, as a crowd of tied outcomes
        // sorts hundreds of pairs.
        options.sort_by(|a, b| {
            qr(a.end).cmp(&qr(b.end)).then_with(|| {
                let (x, y) = (a.targets.iter(), b.targets.iter());
                x.map(|h| qr(*h)).cmp(y.map(|h| qr(*h)))
            })
        });
        let mut focus: Vec<Hex> = foci.iter().map(|&k| self.s.enemies[k].hex).collect();
        crate::hex::sort_hexes(&mut focus);
        if options.len() > 1 {
            self.trace.push(format!(
                "{} outcomes are equal under the rules: the players choose.",
                options.len()
            ));
        }
        let decision = Decision {
            focus,
            options,
            trace: self.trace,
        };
        (decision, self.attack)
    }

    fn choose_focus(&mut self, candidates: &[usize], best: &[Option<Score>]) -> Vec<usize> {
        // Proximity is the range from the monster, which is the range from the enemy to it.
        // The last field is the whole initiative: the leading card, then the other card, then a
        // summon's place before its summoner.
        let key = |k: usize| {
            let (neg, cost) = best[k].unwrap_or(UNREACHABLE);
            let e = &self.s.enemies[k];
            (
                neg as u128,
                cost as u128,
                self.ranges[k][self.start] as u128,
                ((e.initiative as u128) << 64) | ((e.second as u128) << 32) | e.order as u128,
            )
        };
        let described: Vec<String> = candidates
            .iter()
            .map(|&k| {
                let (neg, cost, prox, _) = key(k);
                format!(
                    "{}: {} negative hex(es), {} move(s), {} proximity, initiative {}",
                    self.name(k),
                    neg,
                    cost,
                    prox,
                    self.initiative_words(k)
                )
            })
            .collect();
        self.trace
            .push(format!("Focus candidates: {}.", described.join("; ")));
        let mut remaining: Vec<usize> = candidates.to_vec();
        type Rank = fn(&(u128, u128, u128, u128)) -> u128;
        let steps: [(&str, Rank); 4] = [
            ("fewest negative hexes on the path", |k| k.0),
            ("shortest path", |k| k.1),
            ("closest in proximity", |k| k.2),
            ("lowest initiative", |k| k.3),
        ];
        for (what, f) in steps {
            if remaining.len() < 2 {
                break;
            }
            if what == "closest in proximity" && !self.s.edition.switches.proximity {
                self.trace.push(format!(
                    "{}: proximity does not count for the focus.",
                    self.tag(|s| !s.proximity)
                ));
                continue;
            }
            let min = remaining.iter().map(|&k| f(&key(k))).min().unwrap_or(0);
            let before = remaining.len();
            remaining.retain(|&k| f(&key(k)) == min);
            if remaining.len() < before {
                let names: Vec<String> = remaining.iter().map(|&k| self.name(k)).collect();
                let shown = if what == "lowest initiative" {
                    self.initiative_words(remaining[0])
                } else {
                    min.to_string()
                };
                self.trace
                    .push(format!("Focus by {what} ({shown}): {}.", names.join(", ")));
            }
        }
        if remaining.len() > 1 {
            let names: Vec<String> = remaining.iter().map(|&k| self.name(k)).collect();
            self.trace.push(format!(
                "Focus tie the players break: {}.",
                names.join(", ")
            ));
        } else {
            self.trace
                .push(format!("Focus: {}.", self.name(remaining[0])));
        }
        remaining
    }

    /// An enemy's initiative in words: "20", "20 then 25", "99, resting", "20 then 25, before its
    /// summoner".
    fn initiative_words(&self, k: usize) -> String {
        let e = &self.s.enemies[k];
        let words = match e.second {
            0 => e.initiative.to_string(),
            RESTING => format!("{}, resting", e.initiative),
            ALLY => format!("{}, an ally", e.initiative),
            n => format!("{} then {n}", e.initiative),
        };
        // A hero's summon (the only enemy with a second card and an order) acts before it.
        if e.second != 0 && e.order != LAST {
            format!("{words}, before its summoner")
        } else {
            words
        }
    }

    /// The outcomes for one focus.
    fn options_for(&mut self, f: usize) -> Vec<Choice> {
        let fname = self.name(f);
        // Its attack hexes with the fewest negative hexes on the way (`best`'s), and of these those
        // within its move, else the nearest: every hex scoring up to `horizon` is looked at.
        let (min_neg, nearest) = self.best[f].unwrap_or(UNREACHABLE);
        let mv = self.s.action.move_points.min(u16::MAX as u32 - 1) as u16;
        let horizon = (min_neg, nearest.max(mv));
        while !self.reach.covers(horizon) && self.settle() {}
        let mut hexes: Vec<usize> = self
            .hits
            .iter()
            .filter(|(_, mask)| mask & (1 << f) != 0)
            .map(|(h, _)| *h)
            .filter(|&h| {
                let sc = self.score(h);
                sc.0 == min_neg && sc.1 <= mv.max(nearest)
            })
            .collect();
        hexes.sort_unstable();
        if nearest <= mv {
            self.attack_now(f, &fname, &hexes)
        } else if self.s.edition.switches.head_as_attack && self.s.action.several() {
            // Every attack hex of the focus counts, however far: the monster heads for those it
            // would attack from, as if it could reach them now.
            while self.settle() {}
            let hexes: Vec<usize> = {
                let mut all: Vec<usize> = self
                    .hits
                    .iter()
                    .filter(|(h, mask)| mask & (1 << f) != 0 && self.score(*h).0 == min_neg)
                    .map(|(h, _)| *h)
                    .collect();
                all.sort_unstable();
                all
            };
            let before = self.trace.len();
            let pick = self.choose(f, &hexes);
            let mut dests: Vec<usize> = pick.choices.iter().map(|(h, _)| *h).collect();
            dests.dedup();
            let said: Vec<String> = self.trace.drain(before..).collect();
            self.trace.push(format!(
                "{}: it cannot attack {fname} this turn, so it picks where to head as if attacking \
                 from there ({} target(s) at most).",
                self.tag(|s| !s.head_as_attack),
                pick.most
            ));
            self.trace.extend(said);
            self.head_for(
                f,
                &fname,
                &dests,
                pick.cost,
                mv,
                "the attack hex(es) chosen so",
            )
        } else {
            hexes.retain(|&h| self.score(h).1 == nearest);
            self.head_for(f, &fname, &hexes, nearest, mv, "the nearest attack hex(es)")
        }
    }

    /// The trace's tag for a step a switch decided: the preset's, or "set" when an override made
    /// the switch `differs` from the preset's.
    fn tag(&self, differs: impl Fn(&super::preset::Switches) -> bool) -> &'static str {
        let e = self.s.edition;
        self.s
            .edition
            .tag(differs(&e.preset.switches()) != differs(&e.switches))
    }

    /// Per enemy, its rank as a secondary target (0 best): by the focus rules from where the
    /// monster stands (with `rank_by_path` the negative hexes and length of its best path to
    /// attack the enemy, then proximity when the edition counts it, then initiative); equal keys
    /// share a rank.
    fn ranks(&self) -> Vec<u32> {
        let sw = self.s.edition.switches;
        let key = |k: usize| {
            let e = &self.s.enemies[k];
            (
                if sw.rank_by_path {
                    self.best.get(k).copied().flatten().unwrap_or(UNREACHABLE)
                } else {
                    (0, 0)
                },
                if sw.proximity {
                    self.ranges[k][self.start]
                } else {
                    0
                },
                (e.initiative, e.second, e.order),
            )
        };
        let mut keys: Vec<_> = (0..self.s.enemies.len()).map(key).collect();
        keys.sort_unstable();
        keys.dedup();
        (0..self.s.enemies.len())
            .map(|k| keys.binary_search(&key(k)).unwrap_or(0) as u32)
            .collect()
    }

    /// Which hexes of `hexes` (all the focus's) it attacks from, and with which groups, by the
    /// edition's order; the steps that narrowed them go to the trace.
    fn choose(&mut self, f: usize, hexes: &[usize]) -> super::attack::Pick {
        let act = self.s.action;
        let sw = self.s.edition.switches;
        // A ranged attack has disadvantage against adjacent targets, unless muddled already.
        let ranged = act.range > 0 && act.targets > 0;
        let mut hexes = hexes.to_vec();
        if sw.clear_focus_first && ranged && !act.muddled {
            let focus = self.s.enemies[f].hex;
            let clear: Vec<usize> = hexes
                .iter()
                .copied()
                .filter(|&h| !self.map.adjacent(self.map.hex_at(h), focus))
                .collect();
            if !clear.is_empty() && clear.len() < hexes.len() {
                let shown: Vec<Hex> = clear.iter().take(6).map(|&h| self.map.hex_at(h)).collect();
                let from = if clear.len() > shown.len() {
                    format!("{} hexes, {} among them", clear.len(), fmt_hexes(&shown))
                } else {
                    fmt_hexes(&shown)
                };
                self.trace.push(format!(
                    "{}: it attacks its focus without disadvantage first, from {from}.",
                    self.tag(|s| !s.clear_focus_first),
                ));
                hexes = clear;
            }
        }
        let near = |h: usize| -> u64 {
            if !ranged || act.muddled {
                return 0;
            }
            let here = self.map.hex_at(h);
            self.enemy_idx
                .iter()
                .enumerate()
                .filter(|(_, eh)| self.map.adjacent(here, self.map.hex_at(**eh)))
                .fold(0, |m, (k, _)| m | 1 << k)
        };
        let ranks = (sw.rank_secondary && act.several()).then(|| self.ranks());
        // The second edition chooses the other targets by the focus rules alone: no group is kept
        // for being cheaper to reach before they are ranked.
        let cheap_first = !(sw.rank_by_path && ranks.is_some());
        let pick = self.attack.pick(
            f,
            &hexes,
            |h| self.score(h).1,
            near,
            ranks.as_deref(),
            cheap_first,
        );
        // In the order the pick takes the steps.
        if let Some(min) = pick.cheapest {
            self.trace.push(format!(
                "Target groups reachable with the fewest movement points ({min}) are kept."
            ));
        }
        if pick.ranked {
            self.trace.push(format!(
                "{}: secondary targets are ranked by {}{}initiative; the best-ranked group(s) are kept.",
                self.tag(|s| !s.rank_secondary),
                if sw.rank_by_path {
                    "the focus rules from where it stands (negative hexes on the path, path length), then "
                } else {
                    ""
                },
                if sw.proximity {
                    "proximity from where it stands, then "
                } else {
                    ""
                }
            ));
        }
        if let Some(min_dis) = pick.disadvantage {
            self.trace.push(format!(
                "Hexes attacking with fewer targets at disadvantage ({min_dis}) are kept."
            ));
        }
        pick
    }

    fn attack_now(&mut self, f: usize, fname: &str, hexes: &[usize]) -> Vec<Choice> {
        let act = self.s.action;
        let before = self.trace.len();
        let pick = self.choose(f, hexes);
        let said: Vec<String> = self.trace.drain(before..).collect();
        let most = pick.most;
        if act.targets > 1 {
            self.trace.push(format!(
                "It can attack {fname} this turn; at most {most} target(s) at once."
            ));
        } else {
            self.trace.push(format!("It can attack {fname} this turn."));
        }
        self.trace.extend(said);
        let min_cost = pick.cost;
        self.trace
            .push(format!("It moves {min_cost} point(s) and attacks."));
        let cands = pick.choices;
        let focus_hex = self.s.enemies[f].hex;
        // Choices come hex by hex: a hex's path is found once for all its groups.
        let mut last: Option<(usize, Vec<Hex>)> = None;
        cands
            .into_iter()
            .map(|(h, g)| {
                let end = self.map.hex_at(h);
                let path = match &last {
                    Some((at, path)) if *at == h => path.clone(),
                    _ => {
                        let path = self.path_to(h, self.score(h));
                        last = Some((h, path.clone()));
                        path
                    }
                };
                let targets = if act.targets == 0 {
                    vec![]
                } else {
                    self.group_hexes(g.mask)
                };
                Choice {
                    end,
                    path,
                    targets,
                    heading_to: vec![],
                    focus: vec![focus_hex],
                    aoe: g.area,
                }
            })
            .collect()
    }

    fn head_for(
        &mut self,
        f: usize,
        fname: &str,
        dests: &[usize],
        nearest: u16,
        mv: u16,
        which: &str,
    ) -> Vec<Choice> {
        let dest_hexes: Vec<Hex> = dests.iter().map(|&h| self.map.hex_at(h)).collect();
        self.trace.push(format!(
            "It cannot attack {fname} this turn; it heads for {which} {} ({nearest} move(s) away).",
            fmt_hexes(&dest_hexes)
        ));
        let within = self.graph.within(self.start, mv);
        let n = self.map.len();
        let focus_hex = self.s.enemies[f].hex;
        // Which destination to head for is itself a tie the players break, so each destination ranks
        // the end hexes on its own: total negatives, remaining path, points spent.
        let mut out: Vec<Choice> = Vec::new();
        // Only the hexes it can end on this turn are ranked, so a search towards a destination stops
        // once they all have their score; one kept for other monsters goes on when they ask more.
        let ends: Vec<bool> = (0..n)
            .map(|e| within[e] != UNREACHABLE && self.endable[e])
            .collect();
        let end_list: Vec<usize> = (0..n).filter(|&e| ends[e]).collect();
        let mut own = None;
        for &d in dests {
            let to_d =
                shared::towards(self.graph, d, &mut self.towards, &ends, &end_list, &mut own);
            let ranked: Vec<((u16, u16, u16), usize)> = end_list
                .iter()
                .map(|&e| (e, to_d.score(e)))
                .filter(|(_, t)| *t != UNREACHABLE)
                .map(|(e, t)| ((within[e].0 + t.0, t.1, within[e].1), e))
                .collect();
            let Some(best) = ranked.iter().map(|r| r.0).min() else {
                continue;
            };
            let dest = self.map.hex_at(d);
            if best.2 == 0 {
                self.trace.push(format!(
                    "Towards {}: moving would not bring it closer, so it stays.",
                    fmt_hex(dest)
                ));
            } else {
                self.trace.push(format!(
                    "Towards {}: it ends where it has {} negative hex(es) in all and {} move(s) left to go, after spending {}.",
                    fmt_hex(dest),
                    best.0,
                    best.1,
                    best.2
                ));
            }
            for (_, e) in ranked.into_iter().filter(|r| r.0 == best) {
                let end = self.map.hex_at(e);
                match out.iter_mut().find(|c| c.end == end) {
                    Some(c) => {
                        c.heading_to.push(dest);
                        crate::hex::sort_hexes(&mut c.heading_to);
                    }
                    None => out.push(Choice {
                        end,
                        path: self.path_to(e, within[e]),
                        targets: vec![],
                        heading_to: vec![dest],
                        focus: vec![focus_hex],
                        aoe: vec![],
                    }),
                }
            }
        }
        out
    }

    fn path_to(&self, h: usize, score: Score) -> Vec<Hex> {
        self.graph
            .path(self.start, h, score)
            .into_iter()
            .map(|i| self.map.hex_at(i))
            .collect()
    }

    fn group_hexes(&self, mask: u64) -> Vec<Hex> {
        let mut hs: Vec<Hex> = (0..self.s.enemies.len())
            .filter(|k| mask & (1 << k) != 0)
            .map(|k| self.s.enemies[k].hex)
            .collect();
        crate::hex::sort_hexes(&mut hs);
        hs
    }
}
