//! A foe's turn in a whole game: ask the goal decision, hand ties to the table, carry it out.

use super::actions::{Event, Fig, Roll};
use super::decide;
use super::scenario::EffectSpec;
use super::scenario::Qr;
use super::situation::{GoalOption, Outcome};
use super::state::{FoeState, Phase, Reaction, State, qr_of};
use crate::decision::Decision;
use crate::hex::path::{UNREACHED, path_costs};
use crate::hex::{distance, hex};
use crate::rules::ActionError;

/// What a logged decision left: nothing to do, one outcome, or a tie the table breaks.
#[expect(
    clippy::large_enum_variant,
    reason = "returned once per decision and matched at once, never stored"
)]
enum Settled {
    /// No outcome.
    Nothing,
    /// The one outcome.
    One(Outcome),
    /// Several outcomes, offered to the table.
    Tied,
}

impl State {
    /// The next foe to act this round: the first in the game that has not acted.
    pub(crate) fn next_foe(&self) -> Option<usize> {
        (0..self.foes.len()).find(|&f| self.foe_in(f) && !self.foes[f].acted)
    }

    /// What foe `f` decides in the state as it stands: exactly [`decide`] on the situation built
    /// from it.
    pub fn decision(&self, f: usize) -> Result<Decision<Outcome>, String> {
        let (situation, _) = self.situation(f)?;
        Ok(decide(&situation))
    }

    /// The foes' step: the next foe decides; one outcome is carried out, several wait for the table.
    pub(crate) fn foe_step(&mut self, ev: &mut Vec<Event>) {
        let Some(f) = self.next_foe() else {
            self.phase = Phase::Capture;
            return;
        };
        match self.decide_logged(f, ev) {
            Settled::Nothing => {
                self.foes[f].acted = true;
                ev.push(Event::Stays { foe: f });
            }
            Settled::One(o) => self.carry_out(f, o, ev),
            Settled::Tied => {}
        }
    }

    /// The next foe's reaction to a hero's action: a Melee step strike or a reaction shot, decided
    /// by [`decide`] in that mode. One outcome is carried out, several wait for the table.
    pub(crate) fn react(&mut self, ev: &mut Vec<Event>) {
        let Some(&r) = self.reactions.first() else {
            return;
        };
        let f = r.foe();
        if !self.foe_in(f) {
            // Put out of the game by the blow it would have answered.
            self.reactions.remove(0);
            return;
        }
        match self.decide_logged(f, ev) {
            Settled::Nothing => {
                self.reactions.remove(0);
            }
            Settled::One(o) => self.reaction_out(f, o, ev),
            Settled::Tied => {}
        }
    }

    /// Foe `f` decides in the state as it stands and the walk is logged; several outcomes are
    /// offered to the table (the tie waits), one is handed back to be carried out.
    fn decide_logged(&mut self, f: usize, ev: &mut Vec<Event>) -> Settled {
        let decision = self.decision(f).unwrap_or(Decision {
            options: Vec::new(),
            trace: Vec::new(),
        });
        ev.push(Event::Decided {
            foe: f,
            trace: decision.trace,
            options: decision.options.len(),
        });
        let mut options = decision.options;
        match options.len() {
            0 => Settled::Nothing,
            1 => options.pop().map_or(Settled::Nothing, Settled::One),
            n => {
                self.tie = Some((f, n));
                ev.push(Event::TieOffered { foe: f, options });
                Settled::Tied
            }
        }
    }

    /// Carries out reaction outcome `o` of foe `f`: the strike or the shot, where it stands.
    fn reaction_out(&mut self, f: usize, o: Outcome, ev: &mut Vec<Event>) {
        let r = self.reactions.remove(0);
        ev.push(Event::Acts {
            foe: f,
            outcome: o.clone(),
        });
        let option = match r {
            Reaction::MeleeStep(_) => GoalOption::Attack(2),
            Reaction::Shot(_) => {
                self.foes[f].waiting = false;
                self.foes[f].watch = None;
                GoalOption::Attack(1)
            }
        };
        self.strike(f, option, o.target.as_deref(), o.weapon.as_deref(), ev);
    }

    /// The table picks outcome `i` of the pending tie.
    pub(crate) fn choose(&mut self, i: usize, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        let Some((f, n)) = self.tie else {
            return Err(ActionError::NoChoicePending);
        };
        if i >= n {
            return Err(ActionError::Invalid(format!(
                "outcome {i} does not exist: {n} outcomes tie"
            )));
        }
        // The decision is a function of the state, which has not changed since the tie was offered.
        let options = self.decision(f).map_err(ActionError::Invalid)?.options;
        let Some(o) = options.into_iter().nth(i) else {
            return Err(ActionError::Invalid("the tie changed".into()));
        };
        self.tie = None;
        if self.reactions.first().is_some_and(|r| r.foe() == f) {
            self.reaction_out(f, o, ev);
        } else {
            self.carry_out(f, o, ev);
        }
        self.check_end(ev);
        Ok(())
    }

    /// The hex a foe moving from `from` entered `end` from: a neighbour of `end` on a cheapest path
    /// there (foes pass foes, never heroes), one no other figure holds when there is one; `from`
    /// when there is none. An invader pushed back goes there.
    pub fn entered_from(&self, f: usize, from: Qr, end: Qr) -> Qr {
        let path = self.walked(f, from, end);
        match path.len() {
            0 | 1 => from,
            n => path[n - 2],
        }
    }

    /// The hexes foe `f` walks from `from` to `end`, both included, on a cheapest path (foes pass
    /// foes, never heroes): the path the table shows. Where several tie, each step back from `end`
    /// takes the first hex in (q, r) order, the last one preferring a hex no other figure holds,
    /// as [`State::entered_from`] reads it. Just `[from, end]` when no path is found.
    pub fn walked(&self, f: usize, from: Qr, end: Qr) -> Vec<Qr> {
        let free = |p: &Qr| {
            self.hero_at(*p).is_none()
                && !(0..self.foes.len()).any(|g| g != f && self.foe_in(g) && self.foes[g].hex == *p)
        };
        self.cheapest_path(from, end, |p| self.hero_at(p).is_some(), free)
    }

    /// The hexes a hero walks from `from` to `end` on a cheapest path (heroes pass heroes, never
    /// foes), as [`State::walked`] finds a foe's.
    pub(crate) fn hero_walked(&self, from: Qr, end: Qr) -> Vec<Qr> {
        self.cheapest_path(from, end, |p| self.foe_at(p).is_some(), |_| true)
    }

    /// A cheapest path from `from` to `end` through hexes not `blocked`, both ends included; the
    /// step into `end` prefers a hex that is `free_last`, the others the first in (q, r) order.
    fn cheapest_path(
        &self,
        from: Qr,
        end: Qr,
        blocked: impl Fn(Qr) -> bool,
        free_last: impl Fn(&Qr) -> bool,
    ) -> Vec<Qr> {
        let straight = vec![from, end];
        let Ok(board) = self.board() else {
            return straight;
        };
        let (Some(s), Some(e)) = (
            board.index(hex(from.0, from.1)),
            board.index(hex(end.0, end.1)),
        ) else {
            return straight;
        };
        if s == e {
            return vec![from];
        }
        let cost = path_costs(board.map(), &[s], u32::MAX, |_, to| {
            if blocked(qr_of(board.hex(to))) {
                return None;
            }
            board.enter_cost(to)
        });
        if cost[e] == UNREACHED {
            return straight;
        }
        let mut path = vec![end];
        let mut at = e;
        // Costs fall strictly along a cheapest path, so this walk back ends at the start.
        while at != s {
            let Some(step) = board.enter_cost(at) else {
                return straight;
            };
            let mut before: Vec<(Qr, usize)> = board
                .neighbours(at)
                .filter(|&n| cost[n] != UNREACHED && cost[n].saturating_add(step) == cost[at])
                .map(|n| (qr_of(board.hex(n)), n))
                .collect();
            before.sort_unstable();
            let pick = if at == e {
                before.iter().find(|(p, _)| free_last(p)).or(before.first())
            } else {
                before.first()
            };
            let Some(&(p, n)) = pick else {
                return straight;
            };
            path.push(p);
            at = n;
        }
        path.reverse();
        path
    }

    /// What an ambush for hero `h` watches: the open adventures with a space the hero could end a
    /// Move on, or stands on.
    fn watch_for(&self, h: usize) -> super::state::Watch {
        let mut spaces = vec![self.heroes[h].hex];
        if let Ok(board) = self.board() {
            spaces.extend(self.hero_moves(h, &board).into_iter().map(|(p, _)| p));
        }
        let mut adventures: Vec<usize> = spaces
            .into_iter()
            .filter_map(|p| self.adventure_at(p))
            .filter(|&a| self.adventures[a] == super::state::AdventureState::Open)
            .collect();
        adventures.sort_unstable();
        adventures.dedup();
        super::state::Watch {
            hero: h,
            adventures,
        }
    }

    /// Carries out outcome `o` of foe `f`.
    pub(crate) fn carry_out(&mut self, f: usize, o: Outcome, ev: &mut Vec<Event>) {
        let start = self.foes[f].hex;
        ev.push(Event::Acts {
            foe: f,
            outcome: o.clone(),
        });
        self.foes[f].acted = true;
        self.foes[f].waiting = o.option == GoalOption::Attack(4);
        // An ambush watches its hero and the adventures the hero could reach before it moved.
        self.foes[f].watch = if self.foes[f].waiting {
            o.target
                .as_deref()
                .and_then(|n| self.hero_named(n))
                .map(|h| self.watch_for(h))
        } else {
            None
        };
        // A Surprise card's strike, looked up before the card is spent.
        let surprise = o.used.iter().find_map(|name| {
            let spec = &self.file().foes[self.foes[f].spec];
            spec.specials.iter().find_map(|s| match s.effect {
                EffectSpec::Lurk { strike, .. } if &s.name == name => Some((name.clone(), strike)),
                _ => None,
            })
        });
        for name in &o.used {
            self.use_special(f, name, start, ev);
        }
        if o.option == GoalOption::Unleash {
            if let Some(m) = &o.minion {
                let end = qr_of(m.end);
                let host = (0..self.foes.len())
                    .any(|g| self.foe_in(g) && !self.foes[g].acted && self.foes[g].hex == end);
                let spec = self.foes[f].spec;
                let came = host.then(|| self.entered_from(f, start, end));
                self.foes[f].minion_ready = false;
                self.foes.push(FoeState {
                    spec,
                    minion: true,
                    hex: end,
                    health: 1,
                    acted: true,
                    entered_from: came,
                    specials: Vec::new(),
                    minion_ready: false,
                    guarded: false,
                    waiting: false,
                    watch: None,
                    gold: 0,
                    cards: 0,
                });
                let minion = self.foes.len() - 1;
                ev.push(Event::Unleashed { foe: f, minion });
                self.strike(minion, m.option, m.target.as_deref(), None, ev);
            }
            return;
        }
        // After a Slip Away the foe shifts from the hex of the hero it switched with.
        let mut from = start;
        if let Some(h) = o.swap.as_deref().and_then(|n| self.hero_named(n)) {
            from = self.heroes[h].hex;
            self.heroes[h].hex = start;
        }
        if o.stacked_on.is_some() {
            self.foes[f].entered_from = Some(self.entered_from(f, from, qr_of(o.end)));
        }
        self.foes[f].hex = qr_of(o.end);
        if let Some((name, to)) = &o.unstack
            && let Some(g) = self.foe_named(name).filter(|&g| g != f)
        {
            self.foes[g].hex = qr_of(*to);
            self.foes[g].entered_from = None;
            ev.push(Event::PushedBack {
                foe: g,
                to: qr_of(*to),
            });
        }
        if o.option == GoalOption::Special(3) {
            let end = qr_of(o.end);
            if let Some(k) = self.loot.iter().position(|p| p.hex == end) {
                let p = self.loot.remove(k);
                self.foes[f].gold += p.gold;
                self.foes[f].cards += p.cards;
                ev.push(Event::Took {
                    foe: f,
                    gold: p.gold,
                    cards: p.cards,
                });
            }
        }
        if let (Some((card, bonus)), Some(h)) = (
            surprise,
            o.target.as_deref().and_then(|n| self.hero_named(n)),
        ) {
            // The foe strikes from where it lurks: a shot with Aim + the card's strike.
            let aim = self.file().foes[self.foes[f].spec].aim;
            let chance =
                aim + bonus - self.defence(Fig::Hero(h), true) + self.aura_bonus(Fig::Foe(f));
            ev.push(Event::Attacks {
                attacker: Fig::Foe(f),
                defender: Fig::Hero(h),
                ranged: Some(card),
                chance,
            });
            self.rolls.push(Roll::Hit {
                attacker: Fig::Foe(f),
                defender: Fig::Hero(h),
                chance,
            });
            return;
        }
        self.strike(f, o.option, o.target.as_deref(), o.weapon.as_deref(), ev);
    }

    /// The attack an option makes on its target: Attack 1 shoots, Attack 2 strikes, Attack 3 traps.
    fn strike(
        &mut self,
        f: usize,
        option: GoalOption,
        target: Option<&str>,
        weapon: Option<&str>,
        ev: &mut Vec<Event>,
    ) {
        let Some(h) = target.and_then(|n| self.hero_named(n)) else {
            return;
        };
        let (rating, ranged) = match option {
            GoalOption::Attack(1) => {
                let x = &self.foes[f];
                let spec = &self.file().foes[x.spec];
                let hit = spec
                    .weapons
                    .iter()
                    .find(|w| Some(w.name.as_str()) == weapon)
                    .map_or(0, |w| w.hit);
                (spec.aim + hit, true)
            }
            GoalOption::Attack(2) => {
                let x = &self.foes[f];
                let spec = &self.file().foes[x.spec];
                let melee = match (&spec.minion_card, x.minion) {
                    (Some(m), true) => m.melee,
                    _ => spec.melee,
                };
                (melee, false)
            }
            GoalOption::Attack(3) => {
                self.heroes[h].trapped = true;
                ev.push(Event::Trapped { hero: h });
                return;
            }
            _ => return,
        };
        let chance = rating - self.defence(Fig::Hero(h), ranged) + self.aura_bonus(Fig::Foe(f));
        ev.push(Event::Attacks {
            attacker: Fig::Foe(f),
            defender: Fig::Hero(h),
            ranged: ranged.then(|| weapon.unwrap_or_default().to_string()),
            chance,
        });
        self.rolls.push(Roll::Hit {
            attacker: Fig::Foe(f),
            defender: Fig::Hero(h),
            chance,
        });
    }

    /// Spends special `name` of foe `f`, which stood on `at` when it used it.
    fn use_special(&mut self, f: usize, name: &str, at: (i32, i32), ev: &mut Vec<Event>) {
        let spec = self.foes[f].spec;
        let Some(k) = self.foes[f]
            .specials
            .iter()
            .position(|&k| self.file().foes[spec].specials[k].name == name)
        else {
            return;
        };
        let item = self.foes[f].specials.remove(k);
        ev.push(Event::Used {
            foe: f,
            special: name.to_string(),
        });
        let from = hex(at.0, at.1);
        let near = |p: (i32, i32), r: u32| (1..=r).contains(&distance(from, hex(p.0, p.1)));
        match self.file().foes[spec].specials[item].effect {
            EffectSpec::Lurk { .. } => {}
            EffectSpec::Guard => self.foes[f].guarded = true,
            EffectSpec::Burst { radius, affects } => match affects {
                super::scenario::AffectsSpec::Enemies => {
                    for h in 0..self.heroes.len() {
                        let p = self.heroes[h].hex;
                        if self.hero_in(h) && !self.is_dome(p) && near(p, radius) {
                            self.rolls.push(Roll::Wound {
                                defender: Fig::Hero(h),
                            });
                        }
                    }
                }
                super::scenario::AffectsSpec::Allies => {
                    for g in 0..self.foes.len() {
                        let x = &self.foes[g];
                        let max = if x.minion {
                            1
                        } else {
                            self.file().foes[x.spec].health
                        };
                        if g != f && self.foe_in(g) && near(x.hex, radius) && x.health < max {
                            self.foes[g].health += 1;
                            ev.push(Event::Healed { foe: g });
                        }
                    }
                }
            },
        }
    }
}
