//! The round of a goal-priority game: card, heroes, foes, captures, dice and the end.

use std::sync::Arc;

use super::actions::{Action, Event, Fig, Roll};
use super::scenario::Scenario;
use super::state::{AdventureState, FoeState, HeroState, Phase, Pile, State};
use crate::rules::{ActionError, TieBreaker, ToMove};

use super::Step;

/// A die shows 1 to 6.
pub(crate) const DIE: u8 = 6;
/// A hit needs the die plus the hit chance to reach this.
pub(crate) const TO_HIT: i32 = 4;

impl State {
    /// The state at the start of a scenario.
    pub fn new(scenario: Arc<Scenario>, seed: u64, ties: TieBreaker) -> State {
        let file = &scenario.file;
        let heroes = file
            .heroes
            .iter()
            .map(|h| HeroState {
                hex: h.hex,
                health: h.health,
                gold: 0,
                cards: 0,
                trapped: false,
            })
            .collect();
        let foes = file
            .foes
            .iter()
            .enumerate()
            .map(|(k, f)| FoeState {
                spec: k,
                minion: false,
                hex: f.hex,
                health: f.health,
                acted: false,
                entered_from: None,
                specials: (0..f.specials.len()).collect(),
                minion_ready: f.minion_card.is_some(),
                guarded: false,
                waiting: false,
                watch: None,
                gold: 0,
                cards: 0,
            })
            .collect();
        let loot = file
            .loot
            .iter()
            .map(|p| Pile {
                hex: p.hex,
                gold: p.gold,
                cards: p.cards,
            })
            .collect();
        State {
            seed,
            ties,
            steps: 0,
            round: 1,
            phase: Phase::Draw,
            heroes,
            foes,
            adventures: vec![AdventureState::Open; file.adventures.len()],
            loot,
            deck: (0..file.override_deck.len()).collect(),
            card: None,
            rolls: Vec::new(),
            tie: None,
            reactions: Vec::new(),
            scenario,
        }
    }

    /// Whose move it is.
    pub fn to_move(&self) -> ToMove<Step> {
        if let Phase::Over { won } = self.phase {
            return ToMove::Over { won };
        }
        if let Some((_, options)) = self.tie {
            return ToMove::Tie { options };
        }
        if !self.rolls.is_empty() {
            return ToMove::Chance {
                stage: Step::Roll,
                outcomes: usize::from(DIE),
            };
        }
        if !self.reactions.is_empty() {
            return ToMove::Rules { stage: Step::Foes };
        }
        match self.phase {
            Phase::Draw => ToMove::Chance {
                stage: Step::Draw,
                outcomes: self.deck.len(),
            },
            Phase::Hero { hero, .. } => ToMove::Heroes(vec![hero]),
            Phase::Foes => ToMove::Rules { stage: Step::Foes },
            Phase::Capture => ToMove::Rules {
                stage: Step::Capture,
            },
            Phase::Over { won } => ToMove::Over { won },
        }
    }

    /// Applies one action to this state (the caller keeps a copy to undo a refusal).
    pub(crate) fn run(&mut self, action: Action, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        if let Phase::Over { .. } = self.phase {
            return Err(ActionError::GameOver);
        }
        if self.tie.is_some() {
            let Action::Choose(i) = action else {
                return Err(ActionError::PendingChoice);
            };
            return self.choose(i, ev);
        }
        if let Action::Choose(_) = action {
            return Err(ActionError::NoChoicePending);
        }
        if !self.rolls.is_empty() {
            let Action::Roll(die) = action else {
                return Err(ActionError::WrongPhase("a die is to be rolled"));
            };
            if !(1..=DIE).contains(&die) {
                return Err(ActionError::Invalid(format!(
                    "a die shows 1 to {DIE}, not {die}"
                )));
            }
            self.resolve(die, ev);
            self.check_end(ev);
            return Ok(());
        }
        if !self.reactions.is_empty() {
            let Action::Advance = action else {
                return Err(ActionError::WrongPhase("a foe reacts"));
            };
            self.react(ev);
            self.check_end(ev);
            return Ok(());
        }
        match (self.phase, action) {
            (_, Action::Arrange(a)) => self.arrange(&a, ev),
            (Phase::Draw, Action::Draw(card)) => {
                let Some(k) = self.deck.iter().position(|&c| c == card) else {
                    return Err(ActionError::Invalid(format!(
                        "override card {card} is not left in the deck"
                    )));
                };
                self.deck.remove(k);
                self.card = Some(card);
                ev.push(Event::CardDrawn {
                    card,
                    left: self.deck.len(),
                });
                self.phase = self.next_hero(0);
                Ok(())
            }
            (Phase::Hero { hero, moved }, a) => {
                self.hero_action(hero, moved, a, ev)?;
                self.check_end(ev);
                Ok(())
            }
            (Phase::Foes, Action::Advance) => {
                self.foe_step(ev);
                self.check_end(ev);
                Ok(())
            }
            (Phase::Capture, Action::Advance) => {
                self.capture(ev);
                Ok(())
            }
            (Phase::Draw, _) => Err(ActionError::WrongPhase("the override card is drawn")),
            (Phase::Foes | Phase::Capture, _) => Err(ActionError::WrongPhase("the foes act")),
            (Phase::Over { .. }, _) => Err(ActionError::GameOver),
        }
    }

    /// The turn of the first hero from `from` on still in the game, else the foes'.
    pub(crate) fn next_hero(&self, from: usize) -> Phase {
        match (from..self.heroes.len()).find(|&h| self.hero_in(h)) {
            Some(hero) => Phase::Hero { hero, moved: false },
            None => Phase::Foes,
        }
    }

    /// The least die that makes `roll` succeed; `DIE + 1` when none does. A 6 always hits and
    /// wounds and a 1 never does, whatever the numbers; an Explore roll has no such edge.
    pub fn needed(&self, roll: &Roll) -> u8 {
        let sure = |n: i32| n.clamp(2, i32::from(DIE)) as u8;
        match *roll {
            Roll::Hit { chance, .. } => sure(TO_HIT.saturating_sub(chance)),
            Roll::Wound { defender } => sure(self.armor(defender).saturating_add(1)),
            Roll::Explore {
                hero,
                adventure,
                bonus,
            } => {
                let n = self.file().adventures[adventure]
                    .difficulty
                    .saturating_sub(self.file().heroes[hero].wits)
                    .saturating_sub(bonus);
                n.clamp(1, i32::from(DIE) + 1) as u8
            }
        }
    }

    /// Resolves the first pending roll with `die`.
    fn resolve(&mut self, die: u8, ev: &mut Vec<Event>) {
        let roll = self.rolls.remove(0);
        let success = die >= self.needed(&roll);
        ev.push(Event::Rolled { roll, die, success });
        if !success {
            return;
        }
        match roll {
            Roll::Hit { defender, .. } => self.rolls.insert(0, Roll::Wound { defender }),
            Roll::Wound { defender } => self.wound(defender, ev),
            Roll::Explore { adventure, .. } => {
                if self.adventures[adventure] == AdventureState::Open {
                    self.adventures[adventure] = AdventureState::Explored;
                    ev.push(Event::Explored { adventure });
                }
            }
        }
    }

    /// One wound: a figure with none left is out and drops what it carries.
    pub(crate) fn wound(&mut self, fig: Fig, ev: &mut Vec<Event>) {
        let (health, hex, gold, cards) = match fig {
            Fig::Hero(h) => {
                let x = &mut self.heroes[h];
                x.health = x.health.saturating_sub(1);
                (x.health, x.hex, x.gold, x.cards)
            }
            Fig::Foe(f) => {
                let x = &mut self.foes[f];
                x.health = x.health.saturating_sub(1);
                (x.health, x.hex, x.gold, x.cards)
            }
        };
        ev.push(Event::Wounded { fig, left: health });
        if health > 0 {
            return;
        }
        ev.push(Event::Out { fig });
        self.rolls.retain(|r| match *r {
            Roll::Hit {
                attacker, defender, ..
            } => attacker != fig && defender != fig,
            Roll::Wound { defender } => defender != fig,
            Roll::Explore { hero, .. } => fig != Fig::Hero(hero),
        });
        match fig {
            Fig::Hero(h) => {
                self.heroes[h].gold = 0;
                self.heroes[h].cards = 0;
            }
            Fig::Foe(f) => {
                self.foes[f].gold = 0;
                self.foes[f].cards = 0;
                // An invader pushed back nowhere stays where it is: its host is gone.
                for x in &mut self.foes {
                    if x.hex == hex {
                        x.entered_from = None;
                    }
                }
            }
        }
        if gold + cards > 0 {
            self.drop_loot(hex, gold, cards);
            ev.push(Event::Dropped { hex, gold, cards });
        }
    }

    /// Adds loot to the pile on a hex (one pile a hex).
    pub(crate) fn drop_loot(&mut self, hex: (i32, i32), gold: u32, cards: u32) {
        match self.loot.iter_mut().find(|p| p.hex == hex) {
            Some(p) => {
                p.gold += gold;
                p.cards += cards;
            }
            None => self.loot.push(Pile { hex, gold, cards }),
        }
    }

    /// The foes capture every open adventure they stand on with no hero on it; the round ends.
    fn capture(&mut self, ev: &mut Vec<Event>) {
        for a in 0..self.adventures.len() {
            if self.adventures[a] != AdventureState::Open || !self.file().adventures[a].foes_use {
                continue;
            }
            let spaces = &self.scenario.layout.adventures[a];
            let on = |p: (i32, i32)| spaces.iter().any(|h| (h.x, h.y) == p);
            let foe = (0..self.foes.len()).any(|f| self.foe_in(f) && on(self.foes[f].hex));
            let hero = (0..self.heroes.len()).any(|h| self.hero_in(h) && on(self.heroes[h].hex));
            if foe && !hero {
                self.adventures[a] = AdventureState::Captured;
                ev.push(Event::Captured { adventure: a });
            }
        }
        self.check_end(ev);
        if let Phase::Over { .. } = self.phase {
            return;
        }
        if self.round >= self.file().round_limit {
            self.over(false, "the round limit passed".into(), ev);
            return;
        }
        self.round += 1;
        for h in &mut self.heroes {
            h.trapped = false;
        }
        for f in &mut self.foes {
            f.acted = false;
            f.entered_from = None;
            f.guarded = false;
            // A foe lying in wait keeps waiting into the heroes' next turns, until its own turn.
        }
        if self.deck.is_empty() {
            self.deck = (0..self.file().override_deck.len()).collect();
        }
        self.card = None;
        self.phase = Phase::Draw;
        ev.push(Event::RoundBegins { round: self.round });
    }

    /// Ends the game when a side has won.
    pub(crate) fn check_end(&mut self, ev: &mut Vec<Event>) {
        if let Phase::Over { .. } = self.phase {
            return;
        }
        let count = |s: AdventureState| self.adventures.iter().filter(|a| **a == s).count();
        let file = self.file();
        let result = if count(AdventureState::Explored) >= file.explore_to_win as usize {
            Some((
                true,
                format!("the heroes explored {} adventures", file.explore_to_win),
            ))
        } else if count(AdventureState::Captured) >= file.captures_to_lose as usize {
            Some((
                false,
                format!("the foes captured {} adventures", file.captures_to_lose),
            ))
        } else if !(0..self.heroes.len()).any(|h| self.hero_in(h) && !file.heroes[h].minion) {
            Some((false, "every hero is out".into()))
        } else if !(0..self.foes.len()).any(|f| self.foe_in(f)) {
            Some((true, "every foe is out".into()))
        } else {
            None
        };
        if let Some((won, why)) = result {
            self.over(won, why, ev);
        }
    }

    fn over(&mut self, won: bool, why: String, ev: &mut Vec<Event>) {
        self.phase = Phase::Over { won };
        self.rolls.clear();
        self.tie = None;
        ev.push(Event::Over { won, why });
    }
}
