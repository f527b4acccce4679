//! Readable log lines: "Round 3 · Bog Crawler 2 focuses Mara, moves 3, draws +1 and x2 with
//! advantage → 6 damage". Events carry ids; this module names them from the state.

use super::actions::{Action, Cause, Event};
use super::state::{Actor, FigureId, Half, Pending, Phase, State};
use crate::hex::qr;
use crate::modifiers::draw::Mode;

fn hexes(path: &[crate::hex::Hex]) -> String {
    path.iter()
        .map(|h| format!("({}, {})", h.x, h.y))
        .collect::<Vec<_>>()
        .join(" ")
}

fn and_list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// One line per event, or `None` for events too small to print on their own.
pub fn describe(s: &State, e: &Event) -> Option<String> {
    let name = |f: FigureId| s.name(f);
    let hero = |h: usize| s.scenario.heroes[h].name.clone();
    let body = match e {
        Event::Arranged {
            moved,
            taken_off,
            cells,
        } => crate::rules::lab::arranged_line(*moved, taken_off, *cells, "hex"),
        Event::SetUp { level, characters } => match level {
            Some(l) => {
                let t = super::scenario::LevelTable::of(*l);
                format!(
                    "Set up for {characters} characters at scenario level {l}: traps deal {} damage, hazardous terrain {}, a money token is worth {} gold, bonus experience {}",
                    t.trap, t.hazard, t.coin, t.bonus_experience
                )
            }
            None => format!("Set up for {characters} characters"),
        },
        Event::DoorOpened { door, hero: h } => match h {
            Some(h) => format!("{} opens {}", hero(*h), s.door_name(*door)),
            None => format!("{} opens", s.door_name(*door)),
        },
        Event::DoorClosed { door, locked } => format!(
            "{} closes{}",
            s.door_name(*door),
            if *locked { " and locks" } else { "" }
        ),
        Event::DoorHeld { door } => {
            format!("{} stays open: a figure stands in it", s.door_name(*door))
        }
        Event::SpecialRule { rule, by } => {
            let r = &s.scenario.special_rules[*rule];
            let by = by.map_or_else(String::new, |f| format!(" ({})", name(f)));
            format!(
                "special rule \"{}\" fires {}{by}",
                r.name,
                r.when.words(r.every)
            )
        }
        Event::RuleSpawned { monster, hex, .. } => format!(
            "{} appears on {}",
            name(FigureId::Monster(*monster)),
            hexes(&[*hex])
        ),
        Event::TerrainChanged { hexes: at, terrain } => {
            format!(
                "{} become{} {}",
                hexes(at),
                if at.len() == 1 { "s" } else { "" },
                terrain_name(*terrain)
            )
        }
        Event::BossSpecial { monster, special } => format!(
            "{} performs its special {special}",
            name(FigureId::Monster(*monster))
        ),
        Event::Told { text } => format!("“{text}”"),
        Event::GoalChanged { goal } => format!("the goal is now: {}", goal.goal()),
        Event::RoomRevealed {
            name: room,
            monsters,
            ..
        } => {
            let names: Vec<String> = monsters
                .iter()
                .map(|&m| name(FigureId::Monster(m)))
                .collect();
            if names.is_empty() {
                format!("{room} is revealed: nobody is there")
            } else {
                format!("{room} is revealed: {}", and_list(&names))
            }
        }
        Event::RoundStarted { round } => return Some(format!("— Round {round} —")),
        Event::CardsSelected {
            hero: h,
            leading,
            other,
            initiative,
        } => {
            let c = &s.scenario.heroes[*h].cards;
            format!(
                "{} picks {} and {} (initiative {initiative})",
                hero(*h),
                c[*leading].name,
                c[*other].name
            )
        }
        Event::LongRestDeclared { hero: h } => {
            format!("{} declares a long rest (initiative 99)", hero(*h))
        }
        Event::AbilityRevealed {
            kind,
            card,
            initiative,
        } => {
            let t = &s.scenario.monsters[*kind];
            format!(
                "{} reveals {} (initiative {initiative})",
                t.name, t.deck[*card].name
            )
        }
        Event::TurnOrder { order } => {
            let names: Vec<String> = order
                .iter()
                .map(|a| match a {
                    Actor::Hero(h) => hero(*h),
                    Actor::Monsters(k) => s.scenario.monsters[*k].name.clone(),
                    Actor::Ally(i) => s.summons[*i].spec.name.clone(),
                })
                .collect();
            format!("turn order: {}", names.join(" → "))
        }
        Event::TurnStarted { .. } | Event::TurnEnded { .. } => return None,
        Event::Suffered {
            figure,
            amount,
            cause,
        } => {
            let why = match cause {
                Cause::Wound => "its wound".to_string(),
                Cause::Trap => "a trap".to_string(),
                Cause::Hazard => "hazardous terrain".to_string(),
                Cause::Treasure => "a trapped treasure".to_string(),
                Cause::Retaliate(by) => format!("{}'s retaliation", name(*by)),
                Cause::Special(r) => {
                    format!("the special rule \"{}\"", s.scenario.special_rules[*r].name)
                }
            };
            format!("{} suffers {amount} damage from {why}", name(*figure))
        }
        Event::Stunned { figure } => format!("{} is stunned and loses its turn", name(*figure)),
        Event::ElementConsumed { element, by } => {
            format!("{} consumes {}", name(*by), element.name())
        }
        Event::ElementInfused { element, by } => {
            format!("{} infuses {}", name(*by), element.name())
        }
        Event::FoeTargeted {
            monster: who,
            focus,
            options,
            trace,
        }
        | Event::SummonTargeted {
            summon: who,
            focus,
            options,
            trace,
        } => {
            let who = name(match e {
                Event::SummonTargeted { .. } => FigureId::Summon(*who),
                _ => FigureId::Monster(*who),
            });
            // The rule steps that narrowed the focus, e.g. "shortest path (3)".
            let why: Vec<&str> = trace
                .iter()
                .filter_map(|t| t.strip_prefix("Focus by "))
                .map(|r| r.split(':').next().unwrap_or(r).trim())
                .collect();
            let f: Vec<String> = focus.iter().map(|f| name(*f)).collect();
            let mut line = if f.is_empty() {
                format!("{who} finds no focus")
            } else {
                format!("{who} focuses {}", f.join(" or "))
            };
            if !why.is_empty() {
                line.push_str(&format!(" ({})", why.join(", ")));
            }
            if *options > 1 {
                line.push_str(&format!(", {options} equal outcomes"));
            }
            line
        }
        Event::TieToBreak { about, options } => {
            format!("tie to break — {about} ({options} options)")
        }
        Event::TieBroken { index, seeded } => {
            format!(
                "option {} is chosen{}",
                index + 1,
                if *seeded {
                    " by the dice (the seeded tie-breaker)"
                } else {
                    " by the table"
                }
            )
        }
        Event::CardShuffledIn { deck, curse } => {
            let card = if *curse { "a curse" } else { "a bless" };
            match deck {
                FigureId::Hero(h) => {
                    format!("{card} is shuffled into {}'s modifier deck", hero(*h))
                }
                FigureId::Monster(_) => {
                    format!("{card} is shuffled into the monsters' modifier deck")
                }
                FigureId::Summon(i) => match s.summons[*i].leader() {
                    Some(h) => format!("{card} is shuffled into {}'s modifier deck", hero(h)),
                    None => format!("{card} is shuffled into the monsters' modifier deck"),
                },
            }
        }
        Event::ChoiceOffered {
            hero: h,
            about,
            options,
        } => format!("{} chooses {about} ({options} options)", hero(*h)),
        Event::ChoiceMade { hero: h, index } => {
            format!("{} takes option {}", hero(*h), index + 1)
        }
        Event::PathChosen { figure, path } => {
            format!("{} moves {} ({})", name(*figure), path.len(), hexes(path))
        }
        Event::CardsDrawn {
            attacker,
            target,
            mode,
            cards,
        } => {
            format!(
                "{} draws {}{} against {}",
                name(*attacker),
                and_list(cards),
                mode_words(*mode),
                name(*target)
            )
        }
        Event::AttackResolved {
            attacker,
            target,
            value,
            damage,
            ..
        } => {
            format!(
                "{} attacks {} → {value} → {damage} damage",
                name(*attacker),
                name(*target)
            )
        }
        Event::ConditionGained { figure, condition } => {
            format!("{} is now {}", name(*figure), past(condition.name()))
        }
        Event::Healed { figure, amount } => format!("{} heals {amount}", name(*figure)),
        Event::ShieldGained { figure, amount } => {
            format!("{} gains shield {amount}", name(*figure))
        }
        Event::FigureDied {
            figure: f @ (FigureId::Monster(_) | FigureId::Summon(_)),
            ..
        } => format!("{} dies", name(*f)),
        Event::FigureDied { figure, .. } => format!("{} falls", name(*figure)),
        Event::HeroExhausted { hero: h, reason } => format!("{} is exhausted ({reason})", hero(*h)),
        Event::MoneyDropped { figure, hex } => {
            format!(
                "{} leaves a money token on {}",
                name(*figure),
                hexes(&[*hex])
            )
        }
        Event::MoneyLooted {
            hero: h,
            hexes: taken,
        } => format!(
            "{} loots {} money token{} ({})",
            hero(*h),
            taken.len(),
            if taken.len() == 1 { "" } else { "s" },
            hexes(taken)
        ),
        Event::TreasureLooted { hero: h, treasure } => {
            let tile = &s.treasures[*treasure];
            let give = s
                .scenario
                .treasures
                .get(&tile.letter)
                .map_or_else(|| "nothing".into(), super::scenario::Treasure::describe);
            format!(
                "{} loots the treasure on {}: {give}",
                hero(*h),
                hexes(&[tile.hex])
            )
        }
        Event::HeroEscaped { hero: h, hex } => {
            format!(
                "{} escapes through the exit on {}",
                hero(*h),
                hexes(&[*hex])
            )
        }
        Event::Reckoned { tally } => {
            let each: Vec<String> = tally
                .iter()
                .enumerate()
                .map(|(h, t)| {
                    let mut line = format!(
                        "{} {} gold ({} token{}), {} experience",
                        hero(h),
                        t.gold,
                        t.tokens,
                        if t.tokens == 1 { "" } else { "s" },
                        t.experience
                    );
                    if t.bonus > 0 {
                        line.push_str(&format!(" ({} bonus)", t.bonus));
                    }
                    for i in &t.items {
                        line.push_str(&format!(", {i}"));
                    }
                    line
                })
                .collect();
            return Some(format!(
                "Round {} · what each takes away: {}",
                s.round,
                each.join("; ")
            ));
        }
        Event::CardPlayed {
            hero: h,
            card,
            half,
            basic,
        } => {
            let c = &s.scenario.heroes[*h].cards[*card];
            let which = half_name(*half);
            if *basic {
                format!(
                    "{} plays the {which} of {} as a basic {}",
                    hero(*h),
                    c.name,
                    if *half == Half::Top {
                        "attack 2"
                    } else {
                        "move 2"
                    }
                )
            } else {
                format!("{} plays the {which} of {}", hero(*h), c.name)
            }
        }
        Event::Rested {
            hero: h,
            long,
            lost,
            healed,
        } => {
            let c = &s.scenario.heroes[*h].cards[*lost];
            if *long {
                format!("{} long rests: loses {}, heals {healed}", hero(*h), c.name)
            } else {
                format!("{} short rests and loses {}", hero(*h), c.name)
            }
        }
        Event::Summoned {
            summon,
            hero: h,
            hex,
        } => format!(
            "{} summons {} on {}",
            hero(*h),
            name(FigureId::Summon(*summon)),
            hexes(&[*hex])
        ),
        Event::SummonsDismissed { hero: h, summons } => {
            let names: Vec<String> = summons.iter().map(|i| name(FigureId::Summon(*i))).collect();
            format!(
                "{} leave{} the board with {}",
                and_list(&names),
                if names.len() == 1 { "s" } else { "" },
                hero(*h)
            )
        }
        Event::Spawned { monster, by, hex } => format!(
            "{} spawns {} on {}",
            name(*by),
            name(FigureId::Monster(*monster)),
            hexes(&[*hex])
        ),
        Event::RoundEnded { round } => return Some(format!("Round {round} · the round ends")),
        Event::Victory => {
            return Some(format!(
                "Round {} · VICTORY: {}",
                s.round,
                s.victory().won()
            ));
        }
        Event::Defeat { reason } => return Some(format!("Round {} · DEFEAT: {reason}", s.round)),
    };
    Some(format!("Round {} · {body}", s.round))
}

fn terrain_name(t: crate::hex::Terrain) -> &'static str {
    use crate::hex::Terrain;
    match t {
        Terrain::Floor => "floor",
        Terrain::Obstacle => "an obstacle",
        Terrain::Trap => "a trap",
        Terrain::Hazard => "hazardous terrain",
        Terrain::Difficult => "difficult terrain",
        Terrain::Icy => "icy terrain",
        Terrain::Wall => "a wall",
    }
}

fn past(c: &str) -> String {
    match c {
        "poison" => "poisoned".into(),
        "wound" => "wounded".into(),
        "stun" => "stunned".into(),
        "immobilize" => "immobilized".into(),
        "disarm" => "disarmed".into(),
        "muddle" => "muddled".into(),
        "strengthen" => "strengthened".into(),
        other => other.into(),
    }
}

/// How cards were drawn, after the cards: " with advantage", " with disadvantage" or nothing.
pub(crate) fn mode_words(mode: Mode) -> &'static str {
    match mode {
        Mode::Normal => "",
        Mode::Advantage => " with advantage",
        Mode::Disadvantage => " with disadvantage",
    }
}

/// The lines of a batch of events, in order.
pub fn lines(s: &State, events: &[Event]) -> Vec<String> {
    events.iter().filter_map(|e| describe(s, e)).collect()
}

/// "top" or "bottom".
pub fn half_name(half: Half) -> &'static str {
    match half {
        Half::Top => "top",
        Half::Bottom => "bottom",
    }
}

/// An action as the history lists it, from the state just before it: who did what, with which card.
pub(crate) fn action_words(s: &State, a: &Action) -> String {
    let hero = |h: usize| s.scenario.heroes[h].name.as_str();
    match a {
        Action::Arrange(change) => change.label(),
        Action::Setup(p) => format!(
            "set up for {} characters at level {}",
            p.heroes.len(),
            p.level
        ),
        Action::Advance => match s.phase {
            Phase::Setup => "set up the scenario".into(),
            Phase::CardSelection => "reveal the cards".into(),
            Phase::HeroTurn { hero: h, .. } => format!("{} ends the turn", hero(h)),
            Phase::FoeTurn { monster, .. } => {
                format!("{} acts", s.name(FigureId::Monster(monster)))
            }
            Phase::SummonTurn { summon, .. } => {
                format!("{} acts", s.name(FigureId::Summon(summon)))
            }
            Phase::RoundEnd => "end the round".into(),
            Phase::Victory | Phase::Defeat => "the end".into(),
        },
        // The pick itself stays secret in the history too: it shows after the reveal in the log.
        Action::SelectCards { hero: h, .. } => format!("{} picks two cards", hero(*h)),
        Action::LongRest { hero: h, .. } => format!("{} long rests", hero(*h)),
        Action::Play {
            card, half, basic, ..
        } => {
            let who = match s.phase {
                Phase::HeroTurn { hero: h, .. } => hero(h).to_string(),
                _ => "a hero".into(),
            };
            let name = match s.phase {
                Phase::HeroTurn { hero: h, .. } => s.scenario.heroes[h]
                    .cards
                    .get(*card)
                    .map_or("?", |c| c.name.as_str()),
                _ => "?",
            };
            let basic = if *basic { " as a basic action" } else { "" };
            format!("{who} plays the {} of {name}{basic}", half_name(*half))
        }
        Action::ShortRest { hero: h } => format!("{} short rests", hero(*h)),
        Action::Choose(i) => match &s.pending {
            // A tie of a plan: where the option ends and whom it attacks, in names.
            Some(Pending::FoeOption { options, .. } | Pending::SummonOption { options, .. }) => {
                match options.get(*i) {
                    Some(o) => {
                        let view = <super::Gloomhaven as crate::rules::Present>::view(s);
                        let mut w = format!(
                            "option {}: ends on {}",
                            i + 1,
                            crate::rules::names::place_words(&view, qr(o.end))
                        );
                        let targets = s.names_at(&o.targets);
                        if !targets.is_empty() {
                            w += &format!(", attacks {}", targets.join(", "));
                        }
                        w
                    }
                    None => format!("option {}", i + 1),
                }
            }
            _ => format!("option {}", i + 1),
        },
        Action::ChooseByDice => "to roll for it".into(),
        Action::Draw(i) => match s.drawing.as_ref().and_then(|d| d.want.options.get(*i)) {
            Some(card) => format!("draws {card}"),
            None => format!("draws card {}", i + 1),
        },
    }
}
