//! The picture of a Brimstone-style fight for the 3D table: square cells (walls as wall cells),
//! heroes and enemy models by side with their wounds, the acting figure, a banner and the round.

use super::actions::Figure;
use super::state::{AskKind, Stage, State};
use crate::rules::view::{CellInfo, FigureInfo, GridKind, Ground, Side, TableView};

/// Figure ids: heroes first, then enemy models in the order the threat cards brought them.
fn figure_id(s: &State, f: Figure) -> u32 {
    match f {
        Figure::Hero(h) => h as u32,
        Figure::Model(m) => (s.heroes.len() + m) as u32,
    }
}

/// The table's picture of the fight.
pub fn table(s: &State) -> TableView {
    let board = &s.scenario.board;
    let mut cells: Vec<CellInfo> = board
        .squares()
        .iter()
        .map(|&key| CellInfo {
            key,
            ground: Ground::Floor,
            door: false,
        })
        .collect();
    cells.extend(s.scenario.file.board.walls.iter().map(|&key| CellInfo {
        key,
        ground: Ground::Wall,
        door: false,
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
            AskKind::Players => {
                format!("{what}: the table picks one of {}", ask.options.join(" / "))
            }
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
        Stage::Over { won: true } => "victory!".into(),
        Stage::Over { won: false } => "defeat".into(),
    }
}
