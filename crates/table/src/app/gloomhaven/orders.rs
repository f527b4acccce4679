//! Turns clicks on the table into game actions: a hero's move (a reachable hex), its attack targets
//! (enemies), its heal target, and the choice of a tie option by clicking its highlighted hex. What is
//! reachable comes from the rules core's movement graph; the core still checks every action.

use crate::app::driver::{caught_up, playing};
use bevy::prelude::*;
use foehold_core::hex::{Hex, hex, qr};
pub use foehold_core::rules::gloomhaven::heroes::{attack, movement, reach};
use foehold_core::rules::gloomhaven::scenario::Effect;
use foehold_core::rules::gloomhaven::state::Pending;
use foehold_core::rules::gloomhaven::{Action, FigureId, Gloomhaven, Half, Phase, State};

use super::seats::may_command;
use super::{Act, CoreGame};
use crate::app::board::{CellMarks, Mark};
use crate::app::driver::{Pace, Seats};
use crate::app::picking::{Hovered, Picked, Target};
use crate::app::view::CellKey;
use foehold_core::rules::gloomhaven::figure_id;
use foehold_loop::SubmitAction;

/// The half of a card a hero is about to play, and what the player clicked for it so far.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct Intent {
    pub half: Option<(usize, Half, bool)>,
    pub path: Vec<Hex>,
    pub targets: Vec<Hex>,
    pub ally: Option<Hex>,
}

impl Intent {
    /// The action these clicks make.
    pub fn action(&self) -> Option<Action> {
        let (card, half, basic) = self.half?;
        Some(Action::Play {
            card,
            half,
            basic,
            path: self.path.clone(),
            targets: self.targets.clone(),
            ally: self.ally,
        })
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Intent>().add_systems(
        Update,
        (on_pick, mark_intent, mark_tie)
            .chain()
            .run_if(playing::<Gloomhaven>())
            .run_if(caught_up::<Gloomhaven>),
    );
}

fn key_hex(k: CellKey) -> Hex {
    hex(k.0, k.1)
}

fn on_pick(
    mut picks: MessageReader<Picked>,
    game: Res<CoreGame>,
    seats: Res<Seats>,
    mut intent: ResMut<Intent>,
    mut pace: ResMut<Pace>,
    mut acts: MessageWriter<Act>,
) {
    let s = &game.0.state;
    for Picked(target) in picks.read() {
        // A tie waits: clicking a highlighted hex picks the option ending (or attacking) there.
        if let Some(Pending::FoeOption { options, .. } | Pending::SummonOption { options, .. }) =
            &s.pending
        {
            let cell = match *target {
                Target::Cell(c) => key_hex(c),
                Target::Figure(id) => s.hex_of(figure_id(id)),
            };
            let hits: Vec<usize> = (0..options.len())
                .filter(|&i| options[i].end == cell || options[i].targets.contains(&cell))
                .collect();
            match hits.as_slice() {
                [i] => {
                    acts.write(SubmitAction(Action::Choose(*i)));
                }
                [] => pace.say(
                    "click one of the highlighted options (or press R to let the dice choose)",
                ),
                _ => pace.say("several options share that hex: pick one in the panel"),
            }
            continue;
        }
        let Phase::HeroTurn { hero, .. } = s.phase else {
            if let Target::Figure(id) = *target
                && let FigureId::Hero(h) = figure_id(id)
            {
                pace.say(format!("it is not {}'s turn", s.scenario.heroes[h].name));
            }
            continue;
        };
        if let Target::Figure(id) = *target
            && let FigureId::Hero(h) = figure_id(id)
            && h != hero
        {
            // Another hero is a heal's target when the chosen half heals at range; else a refusal.
            let heals = intent.half.is_some_and(|(card, half, basic)| {
                heals_at_range(&s.half_effects(hero, card, half, basic))
            });
            if heals {
                let at = s.heroes[h].hex;
                intent.ally = if intent.ally == Some(at) {
                    None
                } else {
                    Some(at)
                };
            } else if let Err(why) = may_command(&seats, s, h) {
                pace.say(why);
            }
            continue;
        }
        let Some((card, half, basic)) = intent.half else {
            pace.say("pick a card half in the panel first");
            continue;
        };
        let effects = s.half_effects(hero, card, half, basic);
        let here = intent.path.last().copied().unwrap_or(s.heroes[hero].hex);
        match *target {
            Target::Cell(c) => {
                let h = key_hex(c);
                if let Some(FigureId::Monster(_)) = s.figure_at(h) {
                    toggle_target(s, &mut intent, &effects, h, &mut pace);
                } else if summons(&effects) && foehold_core::hex::distance(h, here) == 1 {
                    // Where the summon goes: an empty hex next to the hero, after its move.
                    intent.ally = if intent.ally == Some(h) {
                        None
                    } else {
                        Some(h)
                    };
                } else if let Some((points, jump)) = movement(&effects) {
                    match reach(s, hero, points, jump)
                        .into_iter()
                        .find(|(e, _)| *e == h)
                    {
                        Some((_, path)) => intent.path = path,
                        None if h == s.heroes[hero].hex => intent.path.clear(),
                        None => pace.say(format!("out of reach (move {points})")),
                    }
                } else {
                    pace.say("this half has no move");
                }
            }
            Target::Figure(id) => match figure_id(id) {
                FigureId::Monster(m) => {
                    toggle_target(s, &mut intent, &effects, s.monsters[m].hex, &mut pace);
                }
                FigureId::Hero(_) => {
                    // Clicking one's own hero: heal oneself, or stay put.
                    intent.ally = None;
                    let _ = here;
                }
                FigureId::Summon(_) => {
                    pace.say("a summon acts on its own, just before its summoner");
                }
            },
        }
    }
}

/// Whether a half summons, so clicking an empty hex next to the hero places the summon.
pub fn summons(effects: &[Effect]) -> bool {
    effects.iter().any(|e| matches!(e, Effect::Summon(_)))
}

/// Whether a half heals at range, so clicking another hero picks the heal's target.
pub fn heals_at_range(effects: &[Effect]) -> bool {
    effects
        .iter()
        .any(|e| matches!(e, Effect::Heal { range, .. } if *range > 0))
}

fn toggle_target(s: &State, intent: &mut Intent, effects: &[Effect], h: Hex, pace: &mut Pace) {
    let Some((_, n)) = attack(effects) else {
        pace.say("this half has no attack");
        return;
    };
    if let Some(i) = intent.targets.iter().position(|t| *t == h) {
        intent.targets.remove(i);
    } else if intent.targets.len() < n as usize {
        // Only a foe the rules let this half attack from where its move ends is chosen (the
        // violet ones): another is refused with the rules' reason and not counted.
        let mut trial = intent.clone();
        trial.targets.push(h);
        if let Some(play) = trial.action()
            && let Err(e) = s.clone().apply(play)
        {
            pace.say(format!("cannot attack that foe: {e}"));
            return;
        }
        intent.targets.push(h);
    } else {
        pace.say(format!("at most {n} target(s)"));
    }
}

/// The foes the chosen half can attack, and the game position and clicks they were found for.
#[derive(Default)]
struct Attackable {
    at: Option<(usize, Intent)>,
    foes: Vec<Hex>,
}

/// The foes the chosen half can attack from where its move ends: each tried as the only target of
/// the play on a copy of the state, so the rules (range, sight, targets) decide, not the table.
fn attackable(s: &State, intent: &Intent) -> Vec<Hex> {
    let Some(Action::Play {
        card,
        half,
        basic,
        path,
        ally,
        ..
    }) = intent.action()
    else {
        return Vec::new();
    };
    s.monsters
        .iter()
        .filter(|m| m.hp > 0)
        .map(|m| m.hex)
        .filter(|&h| {
            let play = Action::Play {
                card,
                half,
                basic,
                path: path.clone(),
                targets: vec![h],
                ally,
            };
            s.clone().apply(play).is_ok()
        })
        .collect()
}

fn mark_intent(
    game: Res<CoreGame>,
    intent: Res<Intent>,
    hovered: Res<Hovered>,
    mut marks: ResMut<CellMarks>,
    mut targets: Local<Attackable>,
) {
    if !intent.is_changed() && !game.is_changed() && !hovered.is_changed() {
        return;
    }
    let s = &game.0.state;
    let (Phase::HeroTurn { hero, .. }, Some((card, half, basic))) = (s.phase, intent.half) else {
        marks.clear("intent");
        return;
    };
    let effects = s.half_effects(hero, card, half, basic);
    let mut cells: Vec<(CellKey, Mark)> = Vec::new();
    let mut preview: &[Hex] = &intent.path;
    let reachable = movement(&effects).map(|(points, jump)| reach(s, hero, points, jump));
    if let Some(reachable) = &reachable {
        cells.extend(reachable.iter().map(|(h, _)| (qr(*h), Mark::Reach)));
        // Before the click, the path to the hex under the pointer.
        if let Some(Target::Cell(c)) = hovered.0
            && let Some((_, path)) = reachable.iter().find(|(h, _)| qr(*h) == c)
        {
            preview = path;
        }
    }
    cells.extend(preview.iter().map(|h| (qr(*h), Mark::Path)));
    if attack(&effects).is_some() {
        // Worked out again only when the game or the clicks change, not as the pointer moves.
        let key = Some((game.0.cursor, intent.clone()));
        if targets.at != key {
            targets.foes = attackable(s, &intent);
            targets.at = key;
        }
        cells.extend(targets.foes.iter().map(|h| (qr(*h), Mark::Target)));
    }
    cells.extend(intent.ally.iter().map(|h| (qr(*h), Mark::Focus)));
    cells.extend(intent.targets.iter().map(|h| (qr(*h), Mark::Focus)));
    marks.set("intent", cells);
}

fn mark_tie(game: Res<CoreGame>, mut marks: ResMut<CellMarks>) {
    if !game.is_changed() {
        return;
    }
    match &game.0.state.pending {
        Some(Pending::FoeOption { options, .. } | Pending::SummonOption { options, .. }) => {
            let mut cells: Vec<(CellKey, Mark)> = Vec::new();
            for o in options {
                cells.extend(o.path.iter().map(|h| (qr(*h), Mark::Path)));
                cells.extend(o.aoe.iter().map(|h| (qr(*h), Mark::AoE)));
                cells.push((qr(o.end), Mark::Tie));
                cells.extend(o.targets.iter().map(|h| (qr(*h), Mark::Tie)));
            }
            marks.set("tie", cells);
        }
        _ => marks.clear("tie"),
    }
}
