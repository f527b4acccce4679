//! The picture of a Brimstone-style fight for the 3D table: square cells (walls as wall cells),
//! heroes and enemy models by side with their wounds, the acting figure, a banner and the round;
//! the odds of a roll in progress and what each action shows for a moment (aims, steps, dice).

use super::actions::{Event, Figure};
use super::attack::{self, Die};
use super::log::figure_name;
use super::placement::{Initiative, Style};
use super::scenario::{GroupSpec, HeroSpec};
use super::state::{AskKind, HeroStrike, Lurk, Stage, State};
use super::targeting::Behaviour;
use crate::modifiers::Fraction;
use crate::rules::view::{
    CellInfo, FigureInfo, Gear, GridKind, Ground, Odds, Panel, Show, Side, TableView, WholeAttack,
};
use crate::square::Square;

/// "1 die", "3 dice".
fn dice(n: u32) -> String {
    if n == 1 {
        "1 die".to_string()
    } else {
        format!("{n} dice")
    }
}

/// A hero's sheet: the dice it rolls and what they need, and the Grit it holds now.
fn hero_card(h: &HeroSpec, grit: u32) -> Vec<String> {
    let mut card = vec![
        format!("Initiative {}, move {}", h.initiative, h.move_points),
        format!("Defense {}+", h.defense),
        format!("Melee: {}, hit on {}+", dice(h.combat), h.melee_to_hit),
    ];
    if let Some(g) = &h.gun {
        card.push(format!(
            "Gun: {} shots, range {}, hit on {}+",
            g.shots, g.range, g.to_hit
        ));
    }
    if h.damage_bonus > 0 {
        card.push(format!("Damage +{} a die", h.damage_bonus));
    }
    card.push(format!("Grit {grit} of {}", h.max_grit));
    card
}

/// The behaviour keyword as a card prints it.
pub(super) fn behaviour_word(b: Behaviour) -> &'static str {
    match b {
        Behaviour::Melee => "Melee",
        Behaviour::Ranged => "Ranged",
        Behaviour::MeleeOrRanged => "Melee-or-ranged",
        Behaviour::AcidBlob => "Acid blob",
        Behaviour::Shootout => "Shootout",
        Behaviour::Support => "Support",
    }
}

/// The ambush keyword as a card prints it.
pub(super) fn style_word(s: Style) -> &'static str {
    match s {
        Style::Plain => "plain",
        Style::Shootout => "shootout",
        Style::Support => "support",
        Style::Immobile => "immobile",
    }
}

/// An enemy type's card: how it acts and the dice it rolls.
fn enemy_card(g: &GroupSpec) -> Vec<String> {
    let initiative = match g.initiative {
        Initiative::Fixed(n) => format!("Initiative {n}"),
        Initiative::Variable => "Initiative rolled each turn".to_string(),
    };
    let mut card = vec![
        format!("{initiative}, move {}", g.move_points),
        format!(
            "{} keyword, placed as {}",
            behaviour_word(g.behaviour),
            style_word(g.style)
        ),
        format!(
            "{}, hit on {}+, {} a hit",
            dice(g.combat),
            g.to_hit,
            if g.damage == 1 {
                "1 wound".to_string()
            } else {
                format!("{} wounds", g.damage)
            }
        ),
    ];
    if g.range > 0 {
        card.push(format!("Range {}", g.range));
    }
    if g.armour > 0 {
        card.push(format!("Armour {}", g.armour));
    }
    card.push(format!("{} wounds kill it; {} XP", g.wounds, g.xp));
    card
}

/// How a behaviour looks on the board.
pub(super) fn gear(b: Behaviour) -> Gear {
    match b {
        Behaviour::Melee => Gear::Blade,
        Behaviour::Ranged => Gear::Bow,
        Behaviour::MeleeOrRanged => Gear::BladeAndBow,
        Behaviour::AcidBlob => Gear::Ooze,
        Behaviour::Shootout => Gear::Guns,
        Behaviour::Support => Gear::Staff,
    }
}

/// Figure ids: heroes first, then enemy models in the order the threat cards brought them.
pub(super) fn figure_id(s: &State, f: Figure) -> u32 {
    match f {
        Figure::Hero(h) => h as u32,
        Figure::Model(m) => (s.heroes.len() + m) as u32,
    }
}

/// The table's picture of the fight.
pub fn table(s: &State) -> TableView {
    let board = &s.scenario.board;
    // The tile a square lies on names it for the players ("the Collapsed Gallery").
    let tile = |(x, y): (i32, i32)| {
        s.scenario
            .file
            .board
            .tiles
            .iter()
            .find(|t| x >= t.x && x < t.x + t.w && y >= t.y && y < t.y + t.h)
            .map(|t| t.name.clone())
    };
    let mut cells: Vec<CellInfo> = board
        .squares()
        .iter()
        .map(|&key| CellInfo {
            key,
            ground: Ground::Floor,
            door: false,
            place: tile(key),
        })
        .collect();
    cells.extend(s.scenario.file.board.walls.iter().map(|&key| CellInfo {
        key,
        ground: Ground::Wall,
        door: false,
        place: tile(key),
    }));
    cells.sort_by_key(|c| c.key);
    let mut figures: Vec<FigureInfo> = s
        .heroes
        .iter()
        .enumerate()
        .map(|(h, hero)| {
            let spec = &s.scenario.file.heroes[h];
            let mut conditions = Vec::new();
            if hero.markers > 0 {
                conditions.push(format!("{} shootout marker(s)", hero.markers));
            }
            if !hero.up() {
                conditions.push("knocked out".to_string());
            }
            FigureInfo {
                id: figure_id(s, Figure::Hero(h)),
                name: spec.name.clone(),
                side: Side::Hero,
                elite: false,
                hp: hero.hp as i32,
                max_hp: spec.health as i32,
                conditions,
                cell: hero.at,
                owner: Some(h as u8 + 1),
                tint: h,
                gear: Gear::Bare,
                rooted: false,
                card: hero_card(spec, hero.grit),
            }
        })
        .collect();
    for (m, model) in s.models.iter().enumerate() {
        let Some(at) = model.at else { continue };
        let spec = s.spec(model.group);
        let mut conditions = Vec::new();
        if let Some(t) = model.current_target.filter(|_| !model.dead) {
            conditions.push(format!("targets {}", s.hero_name(t)));
        }
        figures.push(FigureInfo {
            id: figure_id(s, Figure::Model(m)),
            name: model.name.clone(),
            side: Side::Foe,
            elite: false,
            hp: if model.dead {
                0
            } else {
                (spec.wounds - model.wounds) as i32
            },
            max_hp: spec.wounds as i32,
            conditions,
            cell: at,
            owner: None,
            tint: model.group,
            gear: gear(spec.behaviour),
            rooted: spec.style == Style::Immobile,
            card: enemy_card(spec),
        });
    }
    TableView {
        grid: GridKind::Square,
        cells,
        thin_walls: Vec::new(),
        figures,
        tokens: Vec::new(),
        active: s.acting.map(|f| figure_id(s, f)),
        banner: banner(s),
        round: s.round,
        panels: vec![goal_panel(s)],
        odds: odds(s),
        tie: s
            .ask
            .as_ref()
            .filter(|a| a.kind == AskKind::Players && !a.why.is_empty())
            .map(|a| a.why.clone()),
    }
}

/// The chance of every number of hits of the to-hit roll being made now, with its dice so far.
pub(super) fn odds(s: &State) -> Option<Odds> {
    match &s.stage {
        Stage::HeroAttack(strike) => {
            let declared = s.strike_roll(strike);
            let needed = attack::target_number(&declared);
            let dice = attack::dice(&declared);
            Some(Odds {
                what: format!(
                    "{} attacks {}",
                    s.hero_name(strike.hero),
                    s.models[strike.target].name
                ),
                sides: declared.die.sides(),
                needed,
                chances: attack::hit_chances(dice, declared.die, needed),
                rolled: strike.to_hit.clone(),
                whole: Some(hero_whole(s, strike, &declared)),
            })
        }
        Stage::Attack(strike) => {
            let spec = s.spec(s.models[strike.model].group);
            let hero = strike.targets.get(strike.next)?;
            Some(Odds {
                what: format!(
                    "{} attacks {}",
                    s.models[strike.model].name,
                    s.hero_name(*hero)
                ),
                sides: Die::D6.sides(),
                needed: spec.to_hit,
                chances: attack::hit_chances(spec.combat, Die::D6, spec.to_hit),
                rolled: strike.to_hit.clone(),
                whole: Some(foe_whole(s, spec, *hero)),
            })
        }
        _ => None,
    }
}

/// A hero's whole attack: its hits, then a damage die per hit plus the hero's damage bonus less
/// the model's armour, up to the wounds that take the model out.
fn hero_whole(s: &State, strike: &HeroStrike, declared: &attack::Roll) -> WholeAttack {
    let m = &s.models[strike.target];
    let spec = s.spec(m.group);
    let left = spec.wounds.saturating_sub(m.wounds);
    let bonus = i64::from(s.scenario.file.heroes[strike.hero].damage_bonus);
    let armour = i64::from(spec.armour);
    let sides = Die::D6.sides();
    let mut per_hit = Vec::new();
    for roll in 1..=sides {
        let w = (i64::from(roll) + bonus - armour).max(0) as usize;
        if per_hit.len() <= w {
            per_hit.resize(w + 1, Fraction::ZERO);
        }
        per_hit[w] += Fraction::new(1, u128::from(sides));
    }
    let hits = attack::hit_chances(
        attack::dice(declared),
        declared.die,
        attack::target_number(declared),
    );
    WholeAttack {
        what: format!(
            "wounds to {}: a d6 a hit{}{}; {left} {} it out",
            m.name,
            if bonus > 0 {
                format!(" +{bonus}")
            } else {
                String::new()
            },
            if armour > 0 {
                format!(" −{armour} armour")
            } else {
                String::new()
            },
            if left == 1 { "takes" } else { "take" }
        ),
        wounds: attack::wounds_of_hits(&hits, &per_hit, left),
    }
}

/// An enemy's whole attack on one hero: its hits, then the hero's defense die for each, each hit
/// not blocked dealing the enemy's damage, up to the hero's health.
fn foe_whole(s: &State, spec: &GroupSpec, hero: usize) -> WholeAttack {
    let defense = s.scenario.file.heroes[hero].defense;
    let sides = Die::D6.sides();
    let through = u128::from(defense.saturating_sub(1).min(sides));
    let damage = spec.damage as usize;
    let mut per_hit = vec![Fraction::ZERO; damage + 1];
    per_hit[0] = Fraction::new(u128::from(sides) - through, u128::from(sides));
    per_hit[damage] += Fraction::new(through, u128::from(sides));
    let hp = s.heroes[hero].hp;
    WholeAttack {
        what: format!(
            "wounds to {}: each hit blocked on {defense}+, else {damage}; {hp} {} them out",
            s.hero_name(hero),
            if hp == 1 { "knocks" } else { "knock" }
        ),
        wounds: attack::wounds_of_hits(
            &attack::hit_chances(spec.combat, Die::D6, spec.to_hit),
            &per_hit,
            hp,
        ),
    }
}

/// What the events of one action show for a moment: who aims at whom, the squares walked, the
/// dice landing, a random pick among its options, wounds over the figures.
pub fn shows(before: &State, after: &State, events: &[Event]) -> Vec<Show> {
    let mut out: Vec<Show> = events
        .iter()
        .flat_map(|e| {
            match e {
                Event::Attacks { by, on, .. } => vec![
                    Show::Aim {
                        by: figure_id(after, *by),
                        at: on.iter().map(|f| figure_id(after, *f)).collect(),
                    },
                    Show::Roll {
                        what: format!(
                            "{} attacks {}",
                            figure_name(after, *by),
                            on.iter()
                                .map(|f| figure_name(after, *f))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    },
                ],
                // A walk is shown square by square.
                Event::Moved { figure, from, to } => walked(before, *from, *to)
                    .windows(2)
                    .map(|w| Show::Step {
                        figure: figure_id(after, *figure),
                        from: w[0],
                        to: w[1],
                    })
                    .collect(),
                // A die of no attack is a roll of its own.
                Event::Rolled { what, .. }
                    if !matches!(*what, "to hit" | "damage" | "splash damage" | "defense") =>
                {
                    vec![Show::Roll {
                        what: (*what).to_string(),
                    }]
                }
                _ => Vec::new(),
            }
            .into_iter()
            .chain(show_of(before, after, e))
        })
        .collect();
    // An enemy attacking several heroes rolls against each in turn: a fresh tray for the next.
    if let (Stage::Attack(was), Stage::Attack(now)) = (&before.stage, &after.stage)
        && was.next != now.next
        && let Some(odds) = odds(after)
    {
        out.push(Show::Roll { what: odds.what });
    }
    out
}

/// The squares a figure walked from `from` to `to` (both included): a shortest walk through the
/// squares no other figure held, as every move of these rules goes; just the two ends when none is
/// found.
fn walked(before: &State, from: Square, to: Square) -> Vec<Square> {
    let board = &before.scenario.board;
    let (Some(s), Some(e)) = (board.index_of(from), board.index_of(to)) else {
        return vec![from, to];
    };
    board
        .path_to(s, e, |i| !before.occupied(board.square(i)))
        .map_or_else(
            || vec![from, to],
            |p| p.into_iter().map(|i| board.square(i)).collect(),
        )
}

/// What one event shows, besides the start of a roll.
fn show_of(before: &State, after: &State, e: &Event) -> Option<Show> {
    match e {
        Event::Rolled { what, roll, needed } => Some(Show::Die {
            what: (*what).to_string(),
            sides: before.die().unwrap_or(6),
            roll: *roll,
            needed: *needed,
        }),
        Event::Drew { option } => {
            let among = before.ask.as_ref()?.options.clone();
            let chosen = among.iter().position(|o| o == option)?;
            Some(Show::Pick { among, chosen })
        }
        Event::Wounded { figure, amount, .. } => Some(Show::Over {
            figure: figure_id(after, *figure),
            text: format!("-{amount}"),
            harm: true,
        }),
        Event::Killed { model, .. } => Some(Show::Over {
            figure: figure_id(after, Figure::Model(*model)),
            text: "slain".into(),
            harm: true,
        }),
        Event::KnockedOut(h) => Some(Show::Over {
            figure: figure_id(after, Figure::Hero(*h)),
            text: "knocked out".into(),
            harm: true,
        }),
        Event::Healed { hero, amount } => Some(Show::Over {
            figure: figure_id(after, Figure::Hero(*hero)),
            text: format!("+{amount}"),
            harm: false,
        }),
        _ => None,
    }
}

/// The fight's goal and how it stands: what wins, what loses, the threats in play.
fn goal_panel(s: &State) -> Panel {
    let file = &s.scenario.file;
    let standing = s.models.iter().filter(|m| m.active()).count();
    let placed = s.models.iter().filter(|m| m.at.is_some()).count();
    let mut lines = vec!["The heroes win when no enemy stands on the board.".to_string()];
    lines.push(match (placed, s.lurk) {
        (_, Lurk::Hidden) => "No enemy yet: a threat lurks.".to_string(),
        (0, _) => "The enemies are not placed yet.".to_string(),
        _ => format!("Enemies standing: {standing} of {placed}."),
    });
    if let (Lurk::Hidden, Some(l)) = (s.lurk, file.lurk) {
        lines.push(format!(
            "It springs on a D6 of {} or less at a round's start, {} or less after a hero \
             moves, and at round {} at the latest.",
            l.start_of_round, l.after_move, l.latest_round
        ));
    }
    let up = s.heroes.iter().filter(|h| h.up()).count();
    lines.push(format!(
        "The heroes lose when all are knocked out ({up} of {} up).",
        s.heroes.len()
    ));
    lines.push(format!(
        "The enemies hold the field when round {} ends.",
        file.round_limit
    ));
    if !s.threats.is_empty() {
        let names: Vec<&str> = s
            .threats
            .iter()
            .filter_map(|&t| file.threats.get(t))
            .map(|t| t.name.as_str())
            .collect();
        lines.push(format!("Threats in play: {}.", names.join(", ")));
    }
    Panel {
        title: "The goal".into(),
        lines,
    }
}

/// A few words about where the fight stands.
fn banner(s: &State) -> String {
    if let Some(ask) = &s.ask {
        let what = match s.stage {
            Stage::Threat => "a threat card is drawn",
            Stage::Placement => "the enemies are placed",
            Stage::NextActor => "who acts next",
            Stage::Loot { .. } => "loot is drawn",
            _ => "an enemy chooses",
        };
        return match ask.kind {
            AskKind::Random => format!("{what}: a random pick among {}", ask.options.len()),
            // The options are listed where the players pick; the banner stays one line.
            AskKind::Players => format!("{what}: the players pick one of {}", ask.options.len()),
        };
    }
    match &s.stage {
        Stage::Threat => "the threat is drawn".into(),
        Stage::Placement => "the enemies are placed".into(),
        Stage::Initiative { group } => format!("{} roll initiative", s.spec(*group).name),
        Stage::NextActor => "the next in initiative order".into(),
        Stage::Hero { hero, .. } => format!("{}'s turn", s.hero_name(*hero)),
        Stage::HeroAttack(strike) => format!("{} attacks", s.hero_name(strike.hero)),
        Stage::Targeting { model, .. } | Stage::Movement { model, .. } => {
            format!("{} acts", s.models[*model].name)
        }
        Stage::Attack(strike) => format!("{} attacks", s.models[strike.model].name),
        Stage::Breath { hero } | Stage::Healing { hero, .. } => {
            format!("{} catches their breath", s.hero_name(*hero))
        }
        Stage::Loot { hero, .. } => format!("{} draws loot", s.hero_name(*hero)),
        Stage::Lurk { hero: None } => {
            "something lurks in the dark: a D6 at the round's start".into()
        }
        Stage::Lurk { hero: Some(h) } => {
            format!(
                "something lurks in the dark: a D6 after {}'s move",
                s.hero_name(*h)
            )
        }
        Stage::Over { won: true } => "victory!".into(),
        Stage::Over { won: false } => "defeat".into(),
    }
}
