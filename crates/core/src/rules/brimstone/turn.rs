//! The flow of a fight: threat cards, placement, rounds in initiative order with heroes and enemy
//! groups interleaved, and the end of the fight with catch-your-breath and loot.

use super::actions::{Actor, BreathChoice, Event, Figure};
use super::end_of_fight::{Breath, Member, settle_member};
use super::join_names;
use super::placement::{self, Fight, Group, Initiative};
use super::scenario::LurkSpec;
use super::state::{Ask, AskKind, GroupState, Lurk, ModelState, Stage, State};
use crate::rules::ActionError;

/// A D6.
pub(crate) const D6: u32 = 6;

impl State {
    /// The die the fight waits for now: its sides, or `None`.
    pub fn die(&self) -> Option<u32> {
        match &self.stage {
            Stage::Initiative { .. }
            | Stage::HeroAttack(_)
            | Stage::Attack(_)
            | Stage::Lurk { .. } => Some(D6),
            Stage::Targeting {
                model,
                retreat: None,
            } if self.needs_retreat_roll(*model) => Some(D6),
            Stage::Healing { die, .. } => Some(*die),
            _ => None,
        }
    }

    /// The threat cards not drawn yet.
    pub(crate) fn threats_left(&self) -> Vec<usize> {
        (0..self.scenario.file.threats.len())
            .filter(|c| !self.threats.contains(c))
            .collect()
    }

    /// Asks chance for the next threat card.
    pub(crate) fn ask_threat(&mut self) {
        let options = self
            .threats_left()
            .iter()
            .map(|&c| self.scenario.file.threats[c].name.clone())
            .collect();
        self.ask = Some(Ask {
            kind: AskKind::Random,
            options,
            why: String::new(),
        });
    }

    /// A threat card is drawn: its groups and models join the fight.
    pub(crate) fn draw_threat(&mut self, i: usize, ev: &mut Vec<Event>) {
        let card = self.threats_left()[i];
        self.threats.push(card);
        ev.push(Event::ThreatDrawn { card });
        for (index, g) in self.scenario.file.threats[card].groups.iter().enumerate() {
            let group = self.groups.len();
            self.groups.push(GroupState {
                card,
                index,
                rolled: None,
                targeted: Vec::new(),
            });
            for k in 1..=g.count {
                self.models.push(ModelState {
                    group,
                    name: format!("{} {k}", g.name),
                    at: None,
                    wounds: 0,
                    dead: false,
                    current_target: None,
                });
            }
        }
        if self.threats.len() < self.scenario.file.threat_draws as usize {
            self.ask_threat();
        } else {
            self.ask = None;
            self.stage = Stage::Placement;
        }
    }

    /// The placement's groups as the decision function sees them.
    pub(super) fn placement_groups(&self) -> Vec<Group> {
        (0..self.groups.len())
            .map(|g| {
                let spec = self.spec(g);
                Group {
                    name: spec.name.clone(),
                    initiative: spec.initiative,
                    style: spec.style,
                    ambushed_hero: None,
                    models: self
                        .models
                        .iter()
                        .filter(|m| m.group == g)
                        .map(|m| m.name.clone())
                        .collect(),
                }
            })
            .collect()
    }

    /// Walks the placement along the picks so far: asks the next pick or places every model.
    pub(crate) fn walk_placement(&mut self, ev: &mut Vec<Event>) -> Result<(), ActionError> {
        let heroes = self.decision_heroes();
        let groups = self.placement_groups();
        let (ambush, before_anyone_moved, during) = self.ambush_now();
        let fight = Fight {
            board: &self.scenario.board,
            heroes: &heroes,
            groups: &groups,
            fight_tile: self.scenario.fight_tile,
            ambush,
            triggered_before_anyone_moved: before_anyone_moved,
        };
        let step = placement::place_along(&fight, &self.picks)
            .map_err(|e| ActionError::Invalid(e.to_string()))?
            .ok_or_else(|| ActionError::Invalid("the picks go past the placement".into()))?;
        match step {
            placement::Step::Choice(p) => {
                self.ask = Some(Ask::from(p));
                Ok(())
            }
            placement::Step::Done { layout, trace } => {
                ev.extend(trace.into_iter().map(Event::Rule));
                if ambush {
                    ev.push(Event::Ambush {
                        ends_turn: !before_anyone_moved,
                        ended: during,
                    });
                }
                for (name, at) in layout.at {
                    if let Some(m) = self.models.iter().position(|m| m.name == name) {
                        self.models[m].at = Some(at);
                        ev.push(Event::Placed {
                            model: m,
                            at: Some(at),
                        });
                    }
                }
                for name in layout.unplaced {
                    if let Some(m) = self.models.iter().position(|m| m.name == name) {
                        ev.push(Event::Placed { model: m, at: None });
                    }
                }
                self.picks.clear();
                self.ask = None;
                self.ambush_round = ambush;
                let sprung = matches!(self.lurk, Lurk::Sprung { .. });
                self.lurk = Lurk::Off;
                if self.won() {
                    self.end_fight(ev);
                } else if sprung {
                    // The round goes on: the new groups roll initiative and the rest act.
                    self.next_initiative(0);
                } else {
                    self.start_round(ev);
                }
                Ok(())
            }
        }
    }

    /// Whether the placement is an ambush, whether it was triggered before anyone moved, and the
    /// hero whose turn it springs in.
    pub(super) fn ambush_now(&self) -> (bool, bool, Option<usize>) {
        match (self.lurk, self.scenario.file.ambush) {
            (Lurk::Sprung { during }, _) => (true, during.is_none(), during),
            (_, Some(a)) => (true, a.triggered_before_anyone_moved, None),
            (_, None) => (false, false, None),
        }
    }

    /// Every enemy model that came onto the board is dead (never while a threat lurks).
    pub fn won(&self) -> bool {
        self.lurk == Lurk::Off && self.models.iter().all(|m| !m.active())
    }

    /// The lurking threat's D6 shows `roll`: the ambush springs on the scenario's number or less.
    pub(crate) fn lurk_roll(&mut self, during: Option<usize>, roll: u32, ev: &mut Vec<Event>) {
        let spec = self.scenario.file.lurk.unwrap_or(LurkSpec {
            start_of_round: 0,
            after_move: 0,
            latest_round: u32::MAX,
        });
        let springs_on = if during.is_some() {
            spec.after_move
        } else {
            spec.start_of_round
        };
        ev.push(Event::Rolled {
            what: "lurk",
            roll,
            needed: 1,
        });
        if roll <= springs_on {
            self.spring(during, ev);
            return;
        }
        ev.push(Event::Lurking);
        self.stage = match during {
            Some(hero) => Stage::Hero {
                hero,
                moved: true,
                attacked: false,
                free_attacks: 0,
            },
            None => Stage::NextActor,
        };
    }

    /// The ambush springs: in `during`'s turn (which ends at once) or before anyone moved. The
    /// threat is drawn, then placed as an ambush.
    pub(crate) fn spring(&mut self, during: Option<usize>, ev: &mut Vec<Event>) {
        ev.push(Event::Rule(match during {
            Some(h) => format!(
                "the ambush springs in {}'s turn: the turn ends at once",
                self.hero_name(h)
            ),
            None => "the ambush springs before anyone moved: no turn is cut short".into(),
        }));
        if let Some(h) = during {
            ev.push(Event::TurnEnded(h));
        }
        // Catching your breath asks who got a turn during the fight: exploring turns do not count.
        for h in &mut self.heroes {
            h.got_turn = false;
        }
        self.acting = None;
        self.lurk = Lurk::Sprung { during };
        self.stage = Stage::Threat;
        self.ask_threat();
    }

    /// Every hero is knocked out.
    pub fn lost(&self) -> bool {
        self.heroes.iter().all(|h| !h.up())
    }

    /// A new round: variable initiative is rolled, then the first actor is found.
    pub(crate) fn start_round(&mut self, ev: &mut Vec<Event>) {
        if self.round >= self.scenario.file.round_limit {
            self.over(
                false,
                "the round limit passed: the enemies hold the field",
                ev,
            );
            return;
        }
        if self.round >= 1 {
            self.ambush_round = false;
        }
        self.round += 1;
        ev.push(Event::Round(self.round));
        self.acted.clear();
        self.acting = None;
        for g in &mut self.groups {
            g.rolled = None;
            g.targeted.clear();
        }
        if self.lurk == Lurk::Hidden {
            let latest = self.scenario.file.lurk.map_or(1, |l| l.latest_round);
            if self.round >= latest {
                self.spring(None, ev);
            } else {
                self.stage = Stage::Lurk { hero: None };
            }
            return;
        }
        self.next_initiative(0);
    }

    /// The first variable-initiative group from `from` with a model on the board rolls next.
    pub(crate) fn next_initiative(&mut self, from: usize) {
        let next = (from..self.groups.len())
            .find(|&g| self.spec(g).initiative == Initiative::Variable && self.group_active(g));
        self.stage = match next {
            Some(group) => Stage::Initiative { group },
            None => Stage::NextActor,
        };
    }

    /// Actors who have not acted this round.
    fn waiting(&self) -> Vec<Actor> {
        let heroes = (0..self.heroes.len())
            .filter(|&h| self.heroes[h].up())
            .map(Actor::Hero);
        let groups = (0..self.groups.len())
            .filter(|&g| self.group_active(g))
            .map(Actor::Group);
        heroes
            .chain(groups)
            .filter(|a| !self.acted.contains(a))
            .collect()
    }

    /// The actors who may act next: the highest initiative; on an equal number heroes go before
    /// enemies. Several left are a tie the players break.
    pub(crate) fn next_tied(&self) -> Vec<Actor> {
        let waiting = self.waiting();
        let Some(best) = waiting.iter().map(|&a| self.initiative(a)).max() else {
            return Vec::new();
        };
        let top: Vec<Actor> = waiting
            .into_iter()
            .filter(|&a| self.initiative(a) == best)
            .collect();
        let heroes: Vec<Actor> = top
            .iter()
            .copied()
            .filter(|a| matches!(a, Actor::Hero(_)))
            .collect();
        if heroes.is_empty() { top } else { heroes }
    }

    /// An actor's name.
    pub fn actor_name(&self, a: Actor) -> String {
        match a {
            Actor::Hero(h) => self.hero_name(h).to_string(),
            Actor::Group(g) => self.spec(g).name.clone(),
        }
    }

    /// Finds the next actor (or ends the round), asking the table when several tie.
    pub(crate) fn next_actor(&mut self, ev: &mut Vec<Event>) {
        let tied = self.next_tied();
        match tied.as_slice() {
            // Round 0 is a lurking fight before its first round.
            _ if self.round == 0 => self.start_round(ev),
            [] => self.start_round(ev),
            [one] => self.begin(*one, ev),
            _ => {
                let options: Vec<String> = tied.iter().map(|&a| self.actor_name(a)).collect();
                self.ask = Some(Ask {
                    kind: AskKind::Players,
                    why: format!(
                        "{} act on the same initiative: the players choose who goes first",
                        join_names(&options)
                    ),
                    options,
                });
            }
        }
    }

    /// An actor's turn begins.
    pub fn begin(&mut self, actor: Actor, ev: &mut Vec<Event>) {
        self.ask = None;
        self.acted.push(actor);
        ev.push(Event::Turn(actor));
        match actor {
            Actor::Hero(hero) => {
                self.heroes[hero].got_turn = true;
                self.acting = Some(Figure::Hero(hero));
                self.stage = Stage::Hero {
                    hero,
                    moved: false,
                    attacked: false,
                    free_attacks: 0,
                };
            }
            Actor::Group(g) => self.activate_from(g, 0),
        }
    }

    /// The group's first model on the board from model index `from` activates, or the turn passes.
    pub(crate) fn activate_from(&mut self, group: usize, from: usize) {
        let next = (from..self.models.len())
            .find(|&m| self.models[m].group == group && self.models[m].active());
        match next {
            Some(model) => {
                self.acting = Some(Figure::Model(model));
                self.stage = Stage::Targeting {
                    model,
                    retreat: None,
                };
            }
            None => {
                self.acting = None;
                self.stage = Stage::NextActor;
            }
        }
    }

    /// The fight is over.
    pub fn over(&mut self, won: bool, why: &'static str, ev: &mut Vec<Event>) {
        self.ask = None;
        self.acting = None;
        self.stage = Stage::Over { won };
        ev.push(Event::Over { won, why });
    }

    /// Every enemy is down: the heroes catch their breath and draw loot, one after the other.
    pub(crate) fn end_fight(&mut self, ev: &mut Vec<Event>) {
        self.acting = None;
        self.breath_for(0, ev);
    }

    /// What the end-of-fight rules give hero `h`.
    fn settlement(&self, h: usize) -> super::end_of_fight::Settlement {
        let spec = &self.scenario.file.heroes[h];
        let hero = &self.heroes[h];
        settle_member(
            &Member {
                name: spec.name.clone(),
                ally: false,
                got_turn: hero.got_turn,
                wounds: spec.health - hero.hp,
                sanity_damage: 0,
                grit: hero.grit,
                max_grit: spec.max_grit,
            },
            self.threats.len() as u32,
        )
    }

    /// Hero `h` catches its breath (or, past the last hero, the fight is won).
    fn breath_for(&mut self, h: usize, ev: &mut Vec<Event>) {
        if h >= self.heroes.len() {
            self.over(true, "every enemy is down", ev);
            return;
        }
        let settled = self.settlement(h);
        ev.extend(settled.catch_breath.trace.into_iter().map(Event::Rule));
        let options = &settled.catch_breath.options;
        self.stage = if options.len() > 1 {
            Stage::Breath { hero: h }
        } else {
            let die = match options.first().map(|o| &o.option) {
                Some(Breath::Heal { die, .. }) => *die,
                _ => 3,
            };
            Stage::Healing { hero: h, die }
        };
    }

    /// A hero who got no turn chooses how to catch its breath.
    pub(crate) fn choose_breath(&mut self, hero: usize, choice: BreathChoice, ev: &mut Vec<Event>) {
        let settled = self.settlement(hero);
        let offered = settled.catch_breath.options.iter().any(|o| {
            matches!(
                (&o.option, choice),
                (Breath::Grit { .. }, BreathChoice::Grit)
                    | (Breath::Heal { .. }, BreathChoice::Heal)
            )
        });
        if !offered {
            return;
        }
        match choice {
            BreathChoice::Grit => {
                self.heroes[hero].grit += 1;
                ev.push(Event::GritGained(hero));
                self.loot_for(hero, settled.loot, ev);
            }
            BreathChoice::Heal => {
                let die = settled
                    .catch_breath
                    .options
                    .iter()
                    .find_map(|o| match o.option {
                        Breath::Heal { die, .. } => Some(die),
                        Breath::Grit { .. } => None,
                    })
                    .unwrap_or(6);
                self.stage = Stage::Healing { hero, die };
            }
        }
    }

    /// The healing die shows `roll`: healed up to the damage taken, then loot.
    pub fn heal(&mut self, hero: usize, roll: u32, ev: &mut Vec<Event>) {
        ev.push(Event::Rolled {
            what: "healing",
            roll,
            needed: 1,
        });
        let health = self.scenario.file.heroes[hero].health;
        let amount = roll.min(health - self.heroes[hero].hp);
        self.heroes[hero].hp += amount;
        ev.push(Event::Healed { hero, amount });
        let loot = self.settlement(hero).loot;
        self.loot_for(hero, loot, ev);
    }

    /// Hero `hero` draws `left` loot cards (while the deck lasts), then the next hero catches breath.
    pub(crate) fn loot_for(&mut self, hero: usize, left: u32, ev: &mut Vec<Event>) {
        if left == 0 || self.loot_deck.is_empty() {
            self.ask = None;
            self.breath_for(hero + 1, ev);
            return;
        }
        self.stage = Stage::Loot { hero, left };
        let options = self
            .loot_deck
            .iter()
            .map(|&c| self.scenario.file.loot[c].clone())
            .collect();
        self.ask = Some(Ask {
            kind: AskKind::Random,
            options,
            why: String::new(),
        });
    }

    /// Chance drew loot card `i` of the deck for `hero`.
    pub(crate) fn draw_loot(&mut self, hero: usize, left: u32, i: usize, ev: &mut Vec<Event>) {
        let card = self.loot_deck.remove(i);
        self.heroes[hero].loot.push(card);
        ev.push(Event::Looted { hero, card });
        self.loot_for(hero, left - 1, ev);
    }
}

impl From<super::choices::Pending> for Ask {
    fn from(p: super::choices::Pending) -> Ask {
        Ask {
            kind: match p.kind {
                super::choices::Kind::Random => AskKind::Random,
                super::choices::Kind::Players => AskKind::Players,
            },
            options: p.options,
            why: p.why,
        }
    }
}
