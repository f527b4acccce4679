//! The toy's positions in the lab: a grid with the hero and the foe, the foe about to act.

use super::case::{self, MAX_SIDE, ToyTurn};
use super::{Action, Cell, Stage, State, Toy};
use crate::LoadError;
use crate::rules::lab::{
    Answer, Arrangement, Brush, BrushKind, Choice, Field, Lab, Value, write_case,
};
use crate::rules::view::{CellInfo, Ground, TableView};
use crate::rules::{Present, TieBreaker};

/// The toy's table ids: the hero is figure 0 and the foe figure 1, in the game and in the lab.
const HERO: u32 = 0;
const FOE: u32 = 1;

/// What the foe does, as its card says.
const FOE_CARD: &str = "steps towards the hero, strikes when next to it";

/// The position as a game state at the foe's move, so that the game's picture draws it.
fn as_state(p: &ToyTurn) -> State {
    State {
        width: p.width,
        height: p.height,
        round_limit: 1,
        seed: 0,
        ties: TieBreaker::Seeded,
        steps: 0,
        round: 1,
        stage: Stage::FoeMove,
        hero: p.hero,
        foe: p.foe,
        hero_hp: 1,
        foe_hp: 1,
        hero_max_hp: 1,
        foe_max_hp: 1,
        pending: None,
    }
}

/// The foe's turn in a game, when the state is before it this round and no tie is pending.
fn turn_of(s: &State) -> Result<ToyTurn, String> {
    match s.stage {
        Stage::Hero | Stage::FoeMove if s.pending.is_none() => Ok(ToyTurn {
            width: s.width,
            height: s.height,
            hero: s.hero,
            foe: s.foe,
            expect: None,
        }),
        Stage::Over { .. } => Err("the game is over".into()),
        _ => Err("the foe has moved this round already".into()),
    }
}

fn figure_on(p: &ToyTurn, cell: Cell) -> Option<u32> {
    if cell == p.hero {
        Some(HERO)
    } else if cell == p.foe {
        Some(FOE)
    } else {
        None
    }
}

fn side(v: &Value) -> Result<i32, String> {
    match v {
        Value::Number(n) => i32::try_from(*n).map_err(|_| format!("{n} is too large")),
        other => Err(format!("expected a number, found {other:?}")),
    }
}

impl Lab for Toy {
    type Position = ToyTurn;
    const MODULE: &'static str = "toy";

    fn blank() -> ToyTurn {
        // The toy scenario's yard: the foe's first step is a tie.
        ToyTurn {
            width: 4,
            height: 3,
            hero: (0, 0),
            foe: (3, 2),
            expect: None,
        }
    }

    fn cleared(p: &ToyTurn) -> ToyTurn {
        // The toy's board holds nothing but the two figures, and a case needs both.
        ToyTurn {
            expect: None,
            ..p.clone()
        }
    }

    fn read(file: &str, text: &str) -> Result<ToyTurn, LoadError> {
        case::load(file, text)
    }

    fn write(p: &ToyTurn) -> String {
        write_case("ToyTurn", p)
    }

    fn position_view(p: &ToyTurn) -> TableView {
        let mut view = Toy::view(&as_state(p));
        // One column and one row beyond the grid, which the floor brush adds.
        let beyond = (0..=p.width.min(MAX_SIDE - 1) + 1)
            .flat_map(|x| (0..=p.height.min(MAX_SIDE - 1) + 1).map(move |y| (x, y)))
            .filter(|&(x, y)| (x == p.width || y == p.height) && x < MAX_SIDE && y < MAX_SIDE);
        view.cells.extend(beyond.map(|key| CellInfo {
            key,
            ground: Ground::Outside,
            door: false,
            place: None,
        }));
        for f in &mut view.figures {
            f.card = match f.id {
                FOE => vec![FOE_CARD.into()],
                _ => Vec::new(),
            };
        }
        view.banner = "the foe is about to act".into();
        view
    }

    fn brushes() -> Vec<Brush> {
        vec![
            Brush {
                id: "floor",
                label: "Floor (widens the grid)",
                kind: BrushKind::Ground,
            },
            Brush {
                id: "hero",
                label: "Hero",
                kind: BrushKind::Figure,
            },
            Brush {
                id: "foe",
                label: "Foe",
                kind: BrushKind::Figure,
            },
        ]
    }

    fn paint(p: &mut ToyTurn, brush: &str, cell: Cell, _other: Option<Cell>) -> Result<(), String> {
        let (x, y) = cell;
        match brush {
            "floor" => {
                if x < 0 || y < 0 {
                    return Err("the grid grows rightwards and downwards".into());
                }
                p.width = p.width.max(x + 1);
                p.height = p.height.max(y + 1);
            }
            "hero" | "foe" => {
                let mover = if brush == "hero" { HERO } else { FOE };
                match figure_on(p, cell) {
                    Some(id) if id != mover => {
                        return Err("the other figure stands there".into());
                    }
                    _ => {}
                }
                match mover {
                    HERO => p.hero = cell,
                    _ => p.foe = cell,
                }
            }
            _ => return Err(format!("no brush `{brush}` for toy cases")),
        }
        Ok(())
    }

    fn drag(p: &mut ToyTurn, from: Cell, to: Cell) -> Result<(), String> {
        if from == to {
            return Ok(());
        }
        match (figure_on(p, from), figure_on(p, to)) {
            (None, _) => Err("no figure stands there".into()),
            (Some(_), Some(_)) => Err("another figure stands there".into()),
            (Some(HERO), None) => {
                p.hero = to;
                Ok(())
            }
            (Some(_), None) => {
                p.foe = to;
                Ok(())
            }
        }
    }

    fn fields(p: &ToyTurn, _selected: Option<Cell>) -> Vec<Field> {
        let sides = (1, i64::from(MAX_SIDE));
        vec![
            Field::number("width", "Columns", i64::from(p.width), sides),
            Field::number("height", "Rows", i64::from(p.height), sides),
        ]
    }

    fn set(
        p: &mut ToyTurn,
        _selected: Option<Cell>,
        field: &str,
        value: Value,
    ) -> Result<(), String> {
        match field {
            "width" => p.width = side(&value)?,
            "height" => p.height = side(&value)?,
            _ => return Err(format!("no field `{field}` for toy cases")),
        }
        Ok(())
    }

    fn answer(p: &ToyTurn) -> Answer {
        let outcomes = case::decide(p);
        let choices: Vec<Choice> = outcomes
            .iter()
            .map(|o| Choice {
                label: case::outcome_words(o),
                from: Some(p.foe),
                end: Some(o.end),
                path: if o.end == p.foe {
                    Vec::new()
                } else {
                    vec![o.end]
                },
                targets: if o.strike { vec![p.hero] } else { Vec::new() },
                area: Vec::new(),
                focus: vec![p.hero],
            })
            .collect();
        let summary = match choices.as_slice() {
            [one] => format!("The foe {}.", one.label),
            many => format!(
                "The foe: {} outcomes are equal under the rules: the players choose.",
                many.len()
            ),
        };
        Answer {
            summary,
            choices,
            why: vec![
                "the foe steps to a cell nearest the hero, then strikes when next to it".into(),
            ],
            text: case::decision_text(p, &outcomes),
        }
    }

    fn moment(state: &State) -> Result<ToyTurn, String> {
        turn_of(state)
    }

    fn foe_moment(state: &State, figure: u32) -> Result<ToyTurn, String> {
        match figure {
            FOE => turn_of(state),
            _ => Err("only the foe plays by the rules".into()),
        }
    }

    fn foe_card(_state: &State, figure: u32) -> Vec<String> {
        match figure {
            FOE => vec!["Foe".into(), FOE_CARD.into()],
            _ => Vec::new(),
        }
    }

    fn arrange(state: &State, change: &Arrangement) -> Result<Action, String> {
        crate::rules::lab::tried::<Toy>(state, Action::Arrange(change.clone()))
    }
}
