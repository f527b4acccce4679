//! Gloomhaven-family puzzles in the position lab: the hex board painted cell by cell, the active
//! monster, its allies and the characters placed, the monster's card set in the side panel.

use super::Gloomhaven;
use super::case::{Puzzle, PuzzleAction, PuzzleEnemy, PuzzleMap, decision_text, parse};
use super::preset::{Overrides, Preset};
use super::scenario::{Condition, MonsterEffect, Stats};
use super::state::{Actor, FigureId, FoeStage, Pending, Phase, State};
use crate::LoadError;
use crate::hex::{DIRECTIONS, MAX_COORD, Terrain, qr};
use crate::rules::lab::{Answer, Brush, BrushKind, Choice, Field, Lab, Value};
use crate::rules::view::{CellInfo, FigureInfo, Gear, GridKind, Ground, Side, TableView};

type Qr = (i32, i32);

/// The table id of the active monster; allies follow it, characters start at [`CHARACTER_IDS`].
const ACTIVE_ID: u32 = 0;
const CHARACTER_IDS: u32 = 1_000;
/// How far around the board the lab offers cells to paint.
const MARGIN: i32 = 2;
/// Most hexes the lab offers around a board (the board itself may be as large as a file's).
const MAX_OFFERED: usize = 4_000;

/// The ground lists of a puzzle's map, by the brush that paints them.
const TERRAINS: [(&str, &str, Ground); 5] = [
    ("obstacle", "Obstacle", Ground::Obstacle),
    ("trap", "Trap", Ground::Trap),
    ("hazard", "Hazardous terrain", Ground::Hazard),
    ("difficult", "Difficult terrain", Ground::Difficult),
    ("icy", "Icy terrain", Ground::Icy),
];

fn terrain_list<'a>(m: &'a mut PuzzleMap, id: &str) -> Option<&'a mut Vec<Qr>> {
    Some(match id {
        "obstacle" => &mut m.obstacles,
        "trap" => &mut m.traps,
        "hazard" => &mut m.hazards,
        "difficult" => &mut m.difficult,
        "icy" => &mut m.icy,
        _ => return None,
    })
}

fn neighbour((q, r): Qr, d: usize) -> Qr {
    (q + DIRECTIONS[d].0, r + DIRECTIONS[d].1)
}

fn neighbours(a: Qr, b: Qr) -> bool {
    (0..6).any(|d| neighbour(a, d) == b)
}

/// The hexes within `radius` of `centre`.
fn spiral(centre: Qr, radius: i32) -> Vec<Qr> {
    let mut out = Vec::new();
    for dq in -radius..=radius {
        for dr in (-radius).max(-dq - radius)..=radius.min(-dq + radius) {
            out.push((centre.0 + dq, centre.1 + dr));
        }
    }
    out
}

fn off_board(p: &Puzzle, h: Qr) -> bool {
    !p.map.hexes.contains(&h)
}

/// Takes `h` out of every ground list (the board itself and its walls too when `all`).
fn clear_ground(m: &mut PuzzleMap, h: Qr, all: bool) {
    for l in [
        &mut m.obstacles,
        &mut m.traps,
        &mut m.hazards,
        &mut m.difficult,
        &mut m.icy,
    ] {
        l.retain(|x| *x != h);
    }
    m.walls.retain(|x| *x != h);
    if all {
        m.hexes.retain(|x| *x != h);
        m.thin_walls.retain(|(a, b)| *a != h && *b != h);
    }
}

/// Takes whatever figure stands on `h` off the board; false when there was none or it is the
/// active monster (a puzzle always has one).
fn take_figure(p: &mut Puzzle, h: Qr) -> Result<bool, String> {
    if p.active == h {
        return Err("the active monster stays on the board: drag it elsewhere instead".into());
    }
    let before = p.allies.len() + p.enemies.len();
    p.allies.retain(|x| *x != h);
    p.enemies.retain(|e| e.hex != h);
    Ok(before != p.allies.len() + p.enemies.len())
}

fn occupied(p: &Puzzle, h: Qr) -> bool {
    p.active == h || p.allies.contains(&h) || p.enemies.iter().any(|e| e.hex == h)
}

/// A lowest initiative no character has yet, in steps of ten.
fn free_initiative(p: &Puzzle) -> u32 {
    (1..)
        .map(|i| i * 10)
        .find(|i| p.enemies.iter().all(|e| e.initiative != *i))
        .unwrap_or(0)
}

/// A board of these hexes, all plain floor (sorted, each once).
fn plain_map(mut hexes: Vec<Qr>) -> PuzzleMap {
    hexes.sort_unstable();
    hexes.dedup();
    PuzzleMap {
        hexes,
        walls: Vec::new(),
        obstacles: Vec::new(),
        traps: Vec::new(),
        hazards: Vec::new(),
        difficult: Vec::new(),
        icy: Vec::new(),
        thin_walls: Vec::new(),
    }
}

/// A character's name on the table: the puzzle knows it by its initiative alone.
fn character_name(e: &PuzzleEnemy) -> String {
    format!("Character (initiative {})", e.initiative)
}

fn card_lines(a: &PuzzleAction) -> Vec<String> {
    let mut lines = vec![format!("Move {}", a.move_points)];
    if a.targets > 0 {
        let mut attack = if a.range > 0 {
            format!("Attack, range {}", a.range)
        } else {
            "Attack, melee".to_string()
        };
        if a.targets > 1 {
            attack += &format!(", {} targets", a.targets);
        }
        lines.push(attack);
    }
    if !a.aoe.is_empty() {
        lines.push(format!("Area of {} hexes", a.aoe.len()));
    }
    for (on, word) in [
        (a.flying, "Flying"),
        (a.jumping, "Jump"),
        (a.teleport, "Teleport"),
        (a.muddled, "Muddled"),
    ] {
        if on {
            lines.push(word.into());
        }
    }
    lines
}

/// A monster ability card's action in words, with what it comes to on these statistics
/// ("Move +1 (3)", "Attack −1 (2), range 3, 2 targets, poison").
fn effect_words(e: &MonsterEffect, stats: &Stats) -> String {
    let signed = |v: i32| {
        if v < 0 {
            format!("−{}", -v)
        } else {
            format!("+{v}")
        }
    };
    let total = |base: u32, v: i32| (base as i32 + v).max(0);
    match e {
        MonsterEffect::Move(v) => format!("Move {} ({})", signed(*v), total(stats.movement, *v)),
        MonsterEffect::Jump(v) => {
            format!("Move {} ({}), jump", signed(*v), total(stats.movement, *v))
        }
        MonsterEffect::Attack {
            value,
            range,
            targets,
            aoe,
            pierce,
            conditions,
            consume,
        } => {
            let mut w = format!(
                "Attack {} ({})",
                signed(*value),
                total(stats.attack, *value)
            );
            match range.unwrap_or(stats.range) {
                0 => w += ", melee",
                r => w += &format!(", range {r}"),
            }
            if *targets > 1 {
                w += &format!(", {targets} targets");
            }
            if !aoe.is_empty() {
                w += &format!(", an area of {} hexes", aoe.len());
            }
            if *pierce > 0 {
                w += &format!(", pierce {pierce}");
            }
            for c in conditions {
                w += &format!(", {}", c.name());
            }
            if let Some(c) = consume {
                w += &format!("; consuming {}: {}", c.element.name(), signed(c.attack));
            }
            w
        }
        MonsterEffect::Heal(v) => format!("Heal {v}, self"),
        MonsterEffect::Shield(v) => format!("Shield {v}"),
        MonsterEffect::Infuse(el) => format!("Infuse {}", el.name()),
        MonsterEffect::Spawn(name) => format!("Spawn a {name}"),
        MonsterEffect::Special(n) => format!("Special {n}:"),
    }
}

/// The first action of monster `m`'s card from `from` on that is a move or an attack: where the
/// next decision of its turn starts. `None` when its type has no card this round or the card has
/// no move or attack left.
fn segment_from(s: &State, m: usize, from: usize) -> Option<usize> {
    let kind = s.monsters.get(m)?.kind;
    let card = s
        .scenario
        .monsters
        .get(kind)?
        .deck
        .get(s.kinds.get(kind)?.current?)?;
    (from..card.actions.len()).find(|&i| card.segment(i).is_some())
}

/// Whether monster `m` will decide a move or attack on its turn: alive, not stunned, with a move or
/// attack on its card.
fn decides(s: &State, m: usize) -> Option<usize> {
    let x = s.monsters.get(m)?;
    if !x.alive || s.has(FigureId::Monster(m), Condition::Stun) {
        return None;
    }
    segment_from(s, m, 0)
}

/// The next monster to decide after the monster now acting (or after the hero or summon whose turn
/// it is): the rest of the acting type's queue when `queue`, then the types later in the turn order,
/// each monster in the order it acts. Monsters spawned this round do not act in it.
fn next_monster(s: &State, queue: bool) -> Result<(usize, usize), String> {
    let queued = s.queue.iter().copied().filter(|_| queue);
    let later = s
        .order
        .iter()
        .skip(s.turn.saturating_add(1))
        .filter_map(|a| match a {
            Actor::Monsters(k) => Some(*k),
            Actor::Hero(_) | Actor::Ally(_) => None,
        })
        .flat_map(|k| {
            s.monsters
                .iter()
                .enumerate()
                .filter(move |(_, x)| x.kind == k && x.arrived < s.round)
                .map(|(m, _)| m)
        });
    queued
        .chain(later)
        .find_map(|m| decides(s, m).map(|step| (m, step)))
        .ok_or_else(|| "no monster decides a move or attack again this round".into())
}

/// The monster a game's moment opens and the card action its decision starts at: the monster whose
/// turn it is (at its first move or attack, or at the one it is carrying out; once it attacks, its
/// card's next move or attack), else the next monster to decide this round.
pub(super) fn moment_monster(s: &State) -> Result<(usize, usize), String> {
    if s.phase.is_over() {
        return Err("the scenario is over: no monster decides any more".into());
    }
    if let Some(Pending::TurnOrder { .. }) = s.pending {
        return Err(
            "the players settle who acts first on an equal initiative: the turn order is not known"
                .into(),
        );
    }
    match s.phase {
        Phase::FoeTurn {
            monster,
            stage: FoeStage::Targeting,
        } => match decides(s, monster) {
            Some(step) => Ok((monster, step)),
            None => next_monster(s, true),
        },
        // The plan is made but not walked yet: the monster still stands where it decided.
        Phase::FoeTurn {
            monster,
            stage: FoeStage::Movement,
        } => Ok((monster, s.card_step)),
        Phase::FoeTurn {
            monster,
            stage: FoeStage::Attack { .. },
        } => {
            let after = s.segment(monster).map_or(s.card_step, |g| g.next);
            match segment_from(s, monster, after).filter(|_| s.monsters[monster].alive) {
                Some(step) => Ok((monster, step)),
                None => next_monster(s, true),
            }
        }
        Phase::HeroTurn { .. } | Phase::SummonTurn { .. } => next_monster(s, false),
        Phase::Setup | Phase::CardSelection | Phase::RoundEnd => Err(
            "the monsters' ability cards of the round are not revealed yet: their moves are unknown"
                .into(),
        ),
        Phase::Victory | Phase::Defeat => {
            Err("the scenario is over: no monster decides any more".into())
        }
    }
}

/// The puzzle of monster `m` deciding the move and attack of its card from action `step`.
///
/// It holds the board as it stands now (sprung traps gone), the other monsters as allies, the
/// characters and their summons as enemies, and the scenario's rules.
///
/// What the puzzle format cannot hold is left out or folded in, as the game's own decision does:
/// the card's move and attack come after conditions (immobilized: no move; disarmed: no attack;
/// muddled is kept) and consumed elements (which change only the attack's strength); invisible
/// figures are left out, as the monster cannot focus on them. Summons are enemies with their
/// summoner's initiative; the game puts them just before their summoner and settles two characters'
/// equal initiatives by their second cards, which the format cannot say, so where that order alone
/// decides, the puzzle leaves a tie among outcomes the game tells apart.
pub fn puzzle_of(s: &State, m: usize, step: usize) -> Result<Puzzle, String> {
    let x = s
        .monsters
        .get(m)
        .filter(|x| x.alive)
        .ok_or_else(|| format!("monster {m} is not on the board"))?;
    if segment_from(s, m, step) != Some(step) {
        return Err(format!(
            "{} has no move or attack at action {} of its card",
            s.name(FigureId::Monster(m)),
            step + 1
        ));
    }
    let board = &s.map.0;
    let mut map = PuzzleMap {
        thin_walls: board
            .thin_walls()
            .into_iter()
            .map(|(a, b)| (qr(a), qr(b)))
            .collect(),
        ..plain_map(Vec::new())
    };
    // The board lists its hexes in ascending (q, r): every list comes out sorted.
    for (i, &h) in board.hexes().iter().enumerate() {
        let list = match board.terrain_at(i) {
            Terrain::Wall => {
                map.walls.push(qr(h));
                continue;
            }
            Terrain::Floor => None,
            Terrain::Obstacle => Some(&mut map.obstacles),
            Terrain::Trap => Some(&mut map.traps),
            Terrain::Hazard => Some(&mut map.hazards),
            Terrain::Difficult => Some(&mut map.difficult),
            Terrain::Icy => Some(&mut map.icy),
        };
        if let Some(list) = list {
            list.push(qr(h));
        }
        map.hexes.push(qr(h));
    }
    let seen = |f: FigureId| !s.has(f, Condition::Invisible);
    let mut enemies: Vec<PuzzleEnemy> = s
        .active_heroes()
        .filter(|&h| seen(FigureId::Hero(h)))
        .map(|h| PuzzleEnemy {
            hex: qr(s.heroes[h].hex),
            initiative: s.heroes[h].initiative,
        })
        .chain(
            s.living_summons()
                .filter(|&i| seen(FigureId::Summon(i)))
                .map(|i| PuzzleEnemy {
                    hex: qr(s.summons[i].hex),
                    initiative: match s.summons[i].leader() {
                        Some(h) => s.heroes.get(h).map_or(0, |h| h.initiative),
                        None => s.ally_initiative(i),
                    },
                }),
        )
        .collect();
    enemies.sort_by_key(|e| e.hex);
    let mut allies: Vec<Qr> = s
        .living_monsters()
        .filter(|&i| i != m)
        .map(|i| qr(s.monsters[i].hex))
        .collect();
    allies.sort_unstable();
    let (a, _) = s.monster_action_at(m, step);
    Ok(Puzzle {
        id: format!(
            "{}, round {}: {}",
            s.scenario.name,
            s.round,
            s.name(FigureId::Monster(m))
        ),
        rules: s.scenario.preset,
        switches: s.scenario.switches,
        map,
        active: qr(x.hex),
        allies,
        enemies,
        action: PuzzleAction {
            move_points: a.move_points,
            range: a.range,
            targets: a.targets,
            aoe: a.aoe.iter().map(|h| qr(*h)).collect(),
            aoe_melee: a.aoe_melee,
            flying: a.flying,
            jumping: a.jumping,
            teleport: a.teleport,
            muddled: a.muddled,
        },
        expect_focus: None,
        expect: None,
    })
}

impl Lab for Gloomhaven {
    type Position = Puzzle;
    const MODULE: &'static str = "gloomhaven";

    fn blank() -> Puzzle {
        // A room of three hexes' radius, the monster two hexes from a character: one clear answer.
        let mut hexes = spiral((0, 0), 3);
        hexes.sort_unstable();
        Puzzle {
            id: "lab".into(),
            rules: Preset::default(),
            switches: Overrides::default(),
            map: plain_map(hexes),
            active: (-1, 1),
            allies: Vec::new(),
            enemies: vec![PuzzleEnemy {
                hex: (1, -1),
                initiative: 10,
            }],
            action: PuzzleAction {
                move_points: 2,
                range: 0,
                targets: 1,
                aoe: Vec::new(),
                aoe_melee: false,
                flying: false,
                jumping: false,
                teleport: false,
                muddled: false,
            },
            expect_focus: None,
            expect: None,
        }
    }

    fn cleared(p: &Puzzle) -> Puzzle {
        Puzzle {
            // Every cell of the board stays, as plain floor.
            map: plain_map(
                [
                    &p.map.hexes,
                    &p.map.walls,
                    &p.map.obstacles,
                    &p.map.traps,
                    &p.map.hazards,
                    &p.map.difficult,
                    &p.map.icy,
                ]
                .into_iter()
                .flatten()
                .copied()
                .collect(),
            ),
            allies: Vec::new(),
            enemies: Vec::new(),
            expect_focus: None,
            expect: None,
            ..p.clone()
        }
    }

    fn read(file: &str, text: &str) -> Result<Puzzle, LoadError> {
        parse(file, text).map(|(p, _)| p)
    }

    fn write(p: &Puzzle) -> String {
        crate::rules::lab::write_case("Puzzle", p)
    }

    fn position_view(p: &Puzzle) -> TableView {
        let m = &p.map;
        // Each hex's terrain, looked up once per list rather than once per hex and list.
        let mut terrain: std::collections::BTreeMap<Qr, Ground> = std::collections::BTreeMap::new();
        for (list, g) in [
            (&m.obstacles, Ground::Obstacle),
            (&m.traps, Ground::Trap),
            (&m.hazards, Ground::Hazard),
            (&m.difficult, Ground::Difficult),
            (&m.icy, Ground::Icy),
        ] {
            for &h in list {
                terrain.entry(h).or_insert(g);
            }
        }
        let ground = |h: Qr| terrain.get(&h).copied().unwrap_or(Ground::Floor);
        let mut cells: Vec<CellInfo> = m
            .hexes
            .iter()
            .map(|&h| CellInfo {
                key: h,
                ground: ground(h),
                door: false,
                place: None,
            })
            .chain(m.walls.iter().map(|&h| CellInfo {
                key: h,
                ground: Ground::Wall,
                door: false,
                place: None,
            }))
            .collect();
        let on_board: std::collections::BTreeSet<Qr> = cells.iter().map(|c| c.key).collect();
        let mut outside: std::collections::BTreeSet<Qr> = std::collections::BTreeSet::new();
        for c in &cells {
            for h in spiral(c.key, MARGIN) {
                if outside.len() < MAX_OFFERED
                    && h.0.abs() <= MAX_COORD
                    && h.1.abs() <= MAX_COORD
                    && !on_board.contains(&h)
                {
                    outside.insert(h);
                }
            }
        }
        cells.extend(outside.into_iter().map(|h| CellInfo {
            key: h,
            ground: Ground::Outside,
            door: false,
            place: None,
        }));
        let mut figures = vec![FigureInfo {
            id: ACTIVE_ID,
            name: "Active monster".into(),
            side: Side::Foe,
            elite: false,
            hp: 1,
            max_hp: 0,
            conditions: Vec::new(),
            cell: p.active,
            owner: None,
            tint: 0,
            gear: if p.action.range > 0 {
                Gear::Bow
            } else {
                Gear::Blade
            },
            rooted: false,
            card: card_lines(&p.action),
        }];
        for (i, &h) in p.allies.iter().enumerate() {
            figures.push(FigureInfo {
                id: ACTIVE_ID + 1 + i as u32,
                name: format!("Monster {}", i + 1),
                side: Side::Foe,
                elite: false,
                hp: 1,
                max_hp: 0,
                conditions: Vec::new(),
                cell: h,
                owner: None,
                tint: 1,
                gear: Gear::Bare,
                rooted: false,
                card: Vec::new(),
            });
        }
        for (i, e) in p.enemies.iter().enumerate() {
            figures.push(FigureInfo {
                id: CHARACTER_IDS + i as u32,
                name: character_name(e),
                side: Side::Hero,
                elite: false,
                hp: 1,
                max_hp: 0,
                conditions: Vec::new(),
                cell: e.hex,
                owner: None,
                tint: i,
                gear: Gear::Bare,
                rooted: false,
                card: vec![format!("Initiative {}", e.initiative)],
            });
        }
        TableView {
            grid: GridKind::Hex,
            cells,
            thin_walls: m.thin_walls.clone(),
            figures,
            tokens: Vec::new(),
            active: Some(ACTIVE_ID),
            banner: format!("Position lab · {}", p.rules.name()),
            round: 0,
            panels: Vec::new(),
            odds: None,
            tie: None,
        }
    }

    fn brushes() -> Vec<Brush> {
        let mut out = vec![
            Brush {
                id: "floor",
                label: "Floor",
                kind: BrushKind::Ground,
            },
            Brush {
                id: "wall",
                label: "Wall",
                kind: BrushKind::Ground,
            },
        ];
        out.extend(TERRAINS.iter().map(|&(id, label, _)| Brush {
            id,
            label,
            kind: BrushKind::Ground,
        }));
        out.extend([
            Brush {
                id: "thin-wall",
                label: "Thin wall",
                kind: BrushKind::Edge,
            },
            Brush {
                id: "room",
                label: "Room (radius 2)",
                kind: BrushKind::Stamp,
            },
            Brush {
                id: "active",
                label: "Active monster",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "ally",
                label: "Monster",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "character",
                label: "Character",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "area",
                label: "Area hex",
                kind: BrushKind::Mark,
            },
            Brush {
                id: "remove",
                label: "Remove figure",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "erase",
                label: "Erase",
                kind: BrushKind::Erase,
            },
        ]);
        out
    }

    fn paint(p: &mut Puzzle, brush: &str, cell: Qr, other: Option<Qr>) -> Result<(), String> {
        match brush {
            "floor" => {
                let m = &mut p.map;
                clear_ground(m, cell, false);
                if !m.hexes.contains(&cell) {
                    m.hexes.push(cell);
                    m.hexes.sort_unstable();
                }
            }
            "wall" => {
                if occupied(p, cell) {
                    return Err("a figure stands there: move it before walling the hex".into());
                }
                let m = &mut p.map;
                clear_ground(m, cell, true);
                m.walls.push(cell);
                m.walls.sort_unstable();
            }
            "obstacle" | "trap" | "hazard" | "difficult" | "icy" => {
                if off_board(p, cell) {
                    Self::paint(p, "floor", cell, None)?;
                }
                let m = &mut p.map;
                let had = terrain_list(m, brush).is_some_and(|l| l.contains(&cell));
                clear_ground(m, cell, false);
                // The same brush again takes the terrain off.
                if !had && let Some(l) = terrain_list(m, brush) {
                    l.push(cell);
                    l.sort_unstable();
                }
            }
            "thin-wall" => {
                let Some(b) = other else {
                    return Err("a thin wall runs between two hexes: click its second hex".into());
                };
                if !neighbours(cell, b) {
                    return Err("a thin wall runs between two neighbouring hexes".into());
                }
                let m = &mut p.map;
                let pair = if cell < b { (cell, b) } else { (b, cell) };
                if let Some(i) = m
                    .thin_walls
                    .iter()
                    .position(|&(x, y)| (x, y) == pair || (y, x) == pair)
                {
                    m.thin_walls.remove(i);
                } else {
                    m.thin_walls.push(pair);
                }
            }
            "room" => {
                let m = &mut p.map;
                for h in spiral(cell, 2) {
                    if !m.hexes.contains(&h) && !m.walls.contains(&h) {
                        m.hexes.push(h);
                    }
                }
                m.hexes.sort_unstable();
            }
            "active" => {
                if occupied(p, cell) && p.active != cell {
                    take_figure(p, cell)?;
                }
                p.active = cell;
            }
            "ally" | "character" => {
                if occupied(p, cell) {
                    take_figure(p, cell)?;
                }
                if brush == "ally" {
                    p.allies.push(cell);
                    p.allies.sort_unstable();
                } else {
                    let initiative = free_initiative(p);
                    p.enemies.push(PuzzleEnemy {
                        hex: cell,
                        initiative,
                    });
                    p.enemies.sort_by_key(|e| e.hex);
                }
            }
            "remove" => {
                if !take_figure(p, cell)? {
                    return Err("no figure stands there".into());
                }
            }
            "area" => {
                // The area is painted relative to the active monster's hex, as its card prints it.
                let offset = (cell.0 - p.active.0, cell.1 - p.active.1);
                if offset == (0, 0) {
                    return Err("the area's hexes lie around the monster, not on it".into());
                }
                let a = &mut p.action.aoe;
                if let Some(i) = a.iter().position(|x| *x == offset) {
                    a.remove(i);
                } else {
                    a.push(offset);
                    a.sort_unstable();
                }
            }
            "erase" => {
                if p.active == cell {
                    return Err("the active monster stands there: drag it elsewhere first".into());
                }
                take_figure(p, cell)?;
                clear_ground(&mut p.map, cell, true);
            }
            _ => return Err(format!("no brush `{brush}` for Gloomhaven-family puzzles")),
        }
        Ok(())
    }

    fn drag(p: &mut Puzzle, from: Qr, to: Qr) -> Result<(), String> {
        if from == to {
            return Ok(());
        }
        if occupied(p, to) {
            return Err("another figure stands there".into());
        }
        if p.active == from {
            p.active = to;
        } else if let Some(a) = p.allies.iter_mut().find(|a| **a == from) {
            *a = to;
            p.allies.sort_unstable();
        } else if let Some(e) = p.enemies.iter_mut().find(|e| e.hex == from) {
            e.hex = to;
            p.enemies.sort_by_key(|e| e.hex);
        } else {
            return Err("no figure stands there".into());
        }
        Ok(())
    }

    fn fields(p: &Puzzle, selected: Option<Qr>) -> Vec<Field> {
        let a = &p.action;
        let reach = (0, i64::from(super::case::MAX_REACH));
        let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
        let mut out = vec![
            Field::choice("rules", "Rules", p.rules.name(), &presets),
            Field::number("move", "Move", a.move_points.into(), reach),
            Field::number("range", "Range (0: melee)", a.range.into(), reach),
            Field::number(
                "targets",
                "Targets (0: no attack)",
                a.targets.into(),
                (0, i64::from(super::case::MAX_TARGETS)),
            ),
            Field::flag("aoe_melee", "Melee area", a.aoe_melee),
            Field::flag("flying", "Flying", a.flying),
            Field::flag("jumping", "Jump", a.jumping),
            Field::flag("teleport", "Teleport", a.teleport),
            Field::flag("muddled", "Muddled", a.muddled),
        ];
        if let Some(e) = selected.and_then(|h| p.enemies.iter().find(|e| e.hex == h)) {
            out.push(Field::number(
                "initiative",
                "Character's initiative",
                e.initiative.into(),
                (0, i64::from(super::case::MAX_INITIATIVE)),
            ));
        }
        out
    }

    fn set(p: &mut Puzzle, selected: Option<Qr>, field: &str, value: Value) -> Result<(), String> {
        let fields = Self::fields(p, selected);
        let Some(f) = fields.iter().find(|f| f.id == field) else {
            return Err(format!("no field `{field}` here"));
        };
        let number = |v: &Value| match v {
            Value::Number(n) if (f.bounds.0..=f.bounds.1).contains(n) => {
                u32::try_from(*n).map_err(|_| "expected a whole number".to_string())
            }
            Value::Number(n) => Err(format!(
                "{n}: expected a number from {} to {}",
                f.bounds.0, f.bounds.1
            )),
            _ => Err("expected a number".into()),
        };
        let flag = |v: &Value| match v {
            Value::Flag(b) => Ok(*b),
            _ => Err("expected yes or no".to_string()),
        };
        let a = &mut p.action;
        match field {
            "rules" => {
                let Value::Choice(name) = &value else {
                    return Err("expected a preset's name".into());
                };
                p.rules = Preset::parse(name).ok_or_else(|| format!("no preset `{name}`"))?;
            }
            "move" => a.move_points = number(&value)?,
            "range" => a.range = number(&value)?,
            "targets" => a.targets = number(&value)?,
            "aoe_melee" => a.aoe_melee = flag(&value)?,
            "flying" => a.flying = flag(&value)?,
            "jumping" => a.jumping = flag(&value)?,
            "teleport" => a.teleport = flag(&value)?,
            "muddled" => a.muddled = flag(&value)?,
            "initiative" => {
                let n = number(&value)?;
                if let Some(e) = p.enemies.iter_mut().find(|e| Some(e.hex) == selected) {
                    e.initiative = n;
                }
            }
            _ => return Err(format!("no field `{field}` here")),
        }
        Ok(())
    }

    /// The monster whose turn it is, else the next to decide this round, as the puzzle of
    /// [`puzzle_of`].
    fn moment(state: &State) -> Result<Puzzle, String> {
        let (m, step) = moment_monster(state)?;
        puzzle_of(state, m, step)
    }

    /// Monster `figure` at its card's first move or attack (or where its turn stands, when it is
    /// the monster whose turn it is), as if it acted now.
    fn foe_moment(state: &State, figure: u32) -> Result<Puzzle, String> {
        let FigureId::Monster(m) = super::figure_id(figure) else {
            return Err("not a monster: the players move it".into());
        };
        let x = state
            .monsters
            .get(m)
            .filter(|x| x.alive)
            .ok_or_else(|| "it is not on the board".to_string())?;
        if state.phase.is_over() {
            return Err("the scenario is over: no monster decides any more".into());
        }
        if state.kinds.get(x.kind).and_then(|k| k.current).is_none() {
            return Err("its type's ability card is not revealed yet".into());
        }
        if let Ok((now, step)) = moment_monster(state)
            && now == m
        {
            return puzzle_of(state, m, step);
        }
        if state.has(FigureId::Monster(m), Condition::Stun) {
            return Err("it is stunned: it loses its next turn".into());
        }
        let step = segment_from(state, m, 0)
            .ok_or_else(|| "its ability card has no move or attack".to_string())?;
        puzzle_of(state, m, step)
    }

    /// The type's ability card revealed this round, each action with the value it comes to for
    /// this monster, and whether its type has acted.
    fn foe_card(state: &State, figure: u32) -> Vec<String> {
        let FigureId::Monster(m) = super::figure_id(figure) else {
            return Vec::new();
        };
        let Some(x) = state.monsters.get(m) else {
            return Vec::new();
        };
        let kind = &state.scenario.monsters[x.kind];
        let Some(card) = state
            .kinds
            .get(x.kind)
            .and_then(|k| k.current)
            .and_then(|c| kind.deck.get(c))
        else {
            return Vec::new();
        };
        let stats = if x.elite { &kind.elite } else { &kind.normal };
        let mut lines = vec![format!(
            "{} · initiative {}{}",
            card.name,
            card.initiative,
            if card.shuffle { " · shuffle" } else { "" }
        )];
        lines.extend(card.actions.iter().map(|a| effect_words(a, stats)));
        let at = state
            .order
            .iter()
            .position(|a| *a == Actor::Monsters(x.kind));
        match at {
            Some(i) if i < state.turn => lines.push("Its type has acted this round".into()),
            Some(i) if i == state.turn && !state.phase.is_over() => {
                lines.push("Its type is acting now".into());
            }
            _ => {}
        }
        lines
    }

    fn arrange(
        state: &State,
        change: &crate::rules::lab::Arrangement,
    ) -> Result<super::Action, String> {
        crate::rules::lab::tried::<Gloomhaven>(state, super::Action::Arrange(change.clone()))
    }

    fn answer(p: &Puzzle) -> Answer {
        let text = Self::write(p);
        let pos = match parse("the lab", &text) {
            Ok((_, pos)) => pos,
            Err(e) => {
                return Answer {
                    summary: e.message.clone(),
                    text: e.message,
                    ..Answer::default()
                };
            }
        };
        let d = pos.decide();
        let choices: Vec<Choice> = d
            .options
            .iter()
            .map(|o| {
                let mut label = format!("ends on ({}, {})", o.end.x, o.end.y);
                label += &if o.targets.is_empty() {
                    ", attacks no one".to_string()
                } else {
                    format!(
                        ", attacks {}",
                        o.targets
                            .iter()
                            .map(|t| format!("({}, {})", t.x, t.y))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                Choice {
                    label,
                    from: Some(p.active),
                    end: Some(qr(o.end)),
                    path: o.path.iter().map(|h| qr(*h)).collect(),
                    targets: o.targets.iter().map(|h| qr(*h)).collect(),
                    area: o.aoe.iter().map(|h| qr(*h)).collect(),
                    focus: o.focus.iter().map(|h| qr(*h)).collect(),
                }
            })
            .collect();
        let summary = match choices.len() {
            0 => "The monster does nothing.".to_string(),
            1 => format!("The monster {}.", choices[0].label),
            n => format!("{n} outcomes are equal under the rules: the players choose."),
        };
        Answer {
            summary,
            choices,
            why: d.trace.clone(),
            text: decision_text(&d),
        }
    }
}
