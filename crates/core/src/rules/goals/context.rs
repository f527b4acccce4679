//! The figures as one decision sees them: who acts (a foe or an unleashed minion), where everyone
//! stands, which allies are left out (an invader "as though not there"), and shared lookups.

use super::board::Board;
use super::situation::{Aura, Hero, Item, MinionCard, OverrideCard, Situation, Weapon};
use crate::hex::NONE;
use std::cell::{OnceCell, RefCell};
use std::collections::BTreeMap;

/// The figure deciding: the active foe, or the minion it unleashes.
#[derive(Debug, Clone)]
pub(crate) struct Actor<'a> {
    pub start: usize,
    pub speed: u32,
    pub melee: i32,
    pub aim: i32,
    pub weapons: &'a [Weapon],
    pub auras: &'a [Aura],
    pub items: &'a [Item],
    /// May use Slip Away: the foe has it and is alone on its hex.
    pub slip: bool,
    /// May end on its own hex (not when it must move off an invaded hex, nor for a minion).
    pub own_end: bool,
    /// An unleashed minion: option 5 of its Attack goal heads for the nearest valid target.
    pub is_minion: bool,
}

/// Another foe on the board.
#[derive(Debug, Clone)]
pub(crate) struct Ally<'a> {
    pub name: &'a str,
    pub at: usize,
    pub acted: bool,
    pub auras: &'a [Aura],
    /// It has lost wounds.
    pub hurt: bool,
}

/// A place the actor can end: by a Move, or by a Slip Away (`swap` names the hero switched with).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Move {
    pub end: usize,
    pub points: u32,
    pub swap: Option<usize>,
    /// Index in [`Ctx::allies`] of the not-yet-acted ally whose space it ends in.
    pub stacked_on: Option<usize>,
}

/// One decision's view of the situation.
#[derive(Debug)]
pub(crate) struct Ctx<'a> {
    pub board: &'a Board,
    pub heroes: &'a [Hero],
    /// Board index of each hero.
    pub hero_idx: Vec<usize>,
    /// The hero on each board index, or `NONE`.
    pub hero_on: Vec<u16>,
    pub allies: Vec<Ally<'a>>,
    /// How many allies stand on each board index.
    pub allies_on: Vec<u8>,
    pub actor: Actor<'a>,
    pub card: OverrideCard,
    pub(crate) moves: OnceCell<Vec<Move>>,
    pub(crate) slips: OnceCell<Vec<Move>>,
    sight: RefCell<BTreeMap<(usize, usize), bool>>,
}

impl<'a> Ctx<'a> {
    fn build(s: &'a Situation, actor: Actor<'a>, allies: Vec<Ally<'a>>) -> Self {
        let n = s.board.len();
        let hero_idx: Vec<usize> = s
            .heroes
            .iter()
            .map(|h| s.board.index(h.hex).unwrap_or(0))
            .collect();
        let mut hero_on = vec![NONE; n];
        for (k, &i) in hero_idx.iter().enumerate() {
            hero_on[i] = k as u16;
        }
        let mut allies_on = vec![0u8; n];
        for a in &allies {
            allies_on[a.at] = allies_on[a.at].saturating_add(1);
        }
        Ctx {
            board: &s.board,
            heroes: &s.heroes,
            hero_idx,
            hero_on,
            allies,
            allies_on,
            actor,
            card: s.override_card,
            moves: OnceCell::new(),
            slips: OnceCell::new(),
            sight: RefCell::new(BTreeMap::new()),
        }
    }

    /// The active foe deciding its turn. `ignore`: a foe treated as not on the board (the invader of
    /// its hex); `own_end`: whether it may stay on its hex.
    pub(crate) fn for_foe(s: &'a Situation, ignore: Option<usize>, own_end: bool) -> Self {
        let f = &s.foes[s.active];
        let shares = s
            .foes
            .iter()
            .enumerate()
            .any(|(k, o)| k != s.active && o.hex == f.hex);
        let actor = Actor {
            start: s.board.index(f.hex).unwrap_or(0),
            speed: f.speed,
            melee: f.melee,
            aim: f.aim,
            weapons: &f.weapons,
            auras: &f.auras,
            items: &f.items,
            slip: f.slip_away && !shares,
            own_end,
            is_minion: false,
        };
        let allies = s
            .foes
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != s.active && Some(k) != ignore)
            .map(|(_, o)| Ally {
                name: &o.name,
                at: s.board.index(o.hex).unwrap_or(0),
                acted: o.acted,
                auras: &o.auras,
                hurt: o.hurt,
            })
            .collect();
        Ctx::build(s, actor, allies)
    }

    /// The minion of the active foe's card, appearing on the foe's hex; the foe stays there, acted.
    pub(crate) fn for_minion(
        s: &'a Situation,
        card: &'a MinionCard,
        ignore: Option<usize>,
    ) -> Self {
        let f = &s.foes[s.active];
        let actor = Actor {
            start: s.board.index(f.hex).unwrap_or(0),
            speed: card.speed,
            melee: card.melee,
            aim: card.aim,
            weapons: &[],
            auras: &[],
            items: &[],
            slip: false,
            own_end: false,
            is_minion: true,
        };
        let allies = s
            .foes
            .iter()
            .enumerate()
            .filter(|&(k, _)| Some(k) != ignore)
            .map(|(k, o)| Ally {
                name: &o.name,
                at: s.board.index(o.hex).unwrap_or(0),
                acted: o.acted || k == s.active,
                auras: &o.auras,
                hurt: o.hurt,
            })
            .collect();
        Ctx::build(s, actor, allies)
    }

    pub fn hero(&self, h: usize) -> &'a Hero {
        &self.heroes[h]
    }

    pub(crate) fn name_of(&self, h: usize) -> &'a str {
        &self.heroes[h].name
    }

    /// Whether hero `h` is inside a Dome (out of reach of everything but two options).
    pub(crate) fn in_dome(&self, h: usize) -> bool {
        self.board.is_dome(self.hero_idx[h])
    }

    /// Where hero `h` stands once the actor has made move `m` (a Slip Away moves the hero switched).
    pub fn hero_at(&self, m: Option<&Move>, h: usize) -> usize {
        match m {
            Some(m) if m.swap == Some(h) => self.actor.start,
            _ => self.hero_idx[h],
        }
    }

    /// Heroes (not inside a Dome) next to board index `i` once the actor has made move `m`.
    pub(crate) fn enemies_next_to(&self, m: Option<&Move>, i: usize) -> usize {
        (0..self.heroes.len())
            .filter(|&h| !self.in_dome(h) && self.board.adjacent(self.hero_at(m, h), i))
            .count()
    }

    /// Line of sight, remembered for this decision.
    pub fn sees(&self, a: usize, b: usize) -> bool {
        let key = (a.min(b), a.max(b));
        if let Some(&v) = self.sight.borrow().get(&key) {
            return v;
        }
        let v = self.board.sees(a, b);
        self.sight.borrow_mut().insert(key, v);
        v
    }

    /// Melee hit chance of the actor against hero `h`.
    pub(crate) fn melee_hit(&self, h: usize) -> i32 {
        self.actor.melee - self.hero(h).agility
    }

    /// The hit chance of a Surprise card's strike from hiding at hero `h` where it stands: Aim +
    /// `strike` against Stealth, +2 in woods.
    pub(crate) fn surprise_hit(&self, h: usize, strike: i32) -> i32 {
        self.actor.aim + strike - self.shot_defence(h, self.hero_idx[h])
    }

    /// Hero `h`'s defence against a shot at it standing on board index `at`: its Stealth, +2 in
    /// woods.
    fn shot_defence(&self, h: usize, at: usize) -> i32 {
        self.hero(h).stealth + if self.board.is_woods(at) { 2 } else { 0 }
    }

    /// The best ranged hit chance from board index `from` at hero `h` standing on `at`, and the
    /// weapons (indices) that give it; `None` when no weapon reaches (range and sight).
    pub(crate) fn ranged_hit(&self, from: usize, h: usize, at: usize) -> Option<(i32, Vec<usize>)> {
        let d = self.board.distance(from, at);
        let defence = self.shot_defence(h, at);
        let mut best: Option<(i32, Vec<usize>)> = None;
        let mut sight: Option<bool> = None;
        for (k, w) in self.actor.weapons.iter().enumerate() {
            if d < w.min || d > w.max {
                continue;
            }
            if !*sight.get_or_insert_with(|| self.sees(from, at)) {
                return None;
            }
            let hit = self.actor.aim + w.hit - defence;
            match &mut best {
                Some((b, ws)) if *b == hit => ws.push(k),
                Some((b, _)) if *b > hit => {}
                _ => best = Some((hit, vec![k])),
            }
        }
        best
    }

    /// The ally standing on board index `i`, if exactly one does.
    pub(crate) fn ally_on(&self, i: usize) -> Option<usize> {
        if self.allies_on[i] != 1 {
            return None;
        }
        self.allies.iter().position(|a| a.at == i)
    }
}
