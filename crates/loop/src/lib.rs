//! Foehold's game loop as Bevy states and systems, runnable headless with `MinimalPlugins` +
//! `StatesPlugin`.
//!
//! The core [`Game`] owns the truth; this crate only steps it and tells the world what happened.
//!
//! # Public API
//!
//! * [`GameLoopPlugin`]: add it after `MinimalPlugins` (or `DefaultPlugins`) and `StatesPlugin`.
//! * [`CoreGame`] (resource): the core game with its action log. Insert it before the first update
//!   (`app.insert_resource(CoreGame(game))`); without it the loop idles. Read `CoreGame.0.state` to draw
//!   the board. Undo/redo: call `CoreGame.0.undo()` / `redo()` and the phase follows next frame.
//! * [`LoopSettings`] (resource): `seeded_ties` lets the seeded generator break the ties the rules
//!   give to the players (headless); `autopilot_heroes` lets the autopilot play the heroes;
//!   `auto_advance` runs the rules' own steps (monster steps, reveals, round end) by themselves,
//!   one step per frame. With `auto_advance: false` a renderer asks for each step with [`StepFoe`];
//!   the autopilot's hero actions and seeded tie-breaks then wait for a step request too, so a
//!   watcher can pace a whole game.
//! * [`GamePhase`] (state): mirrors the core's phase; `OnEnter(GamePhase::FoeMovement)` etc. are
//!   the places to start animations. [`AwaitingChoice`] (resource) is true while a tie waits.
//! * Submitting an action: write a [`SubmitAction`] message (`MessageWriter<SubmitAction>`); it is
//!   applied in [`LoopSet::Input`]. A refused action comes back as an [`ActionRefused`] message.
//! * Messages out: [`FoeTargeted`], [`PathChosen`], [`CardsDrawn`], [`AttackResolved`],
//!   [`FigureDied`], [`TieToBreak`], plus [`GameEvent`] carrying every core event with its log line.
//! * System sets, ordered once in [`GameLoopPlugin::build`]: `Input → Setup → CardSelection →
//!   HeroTurn → FoeTargeting → FoeMovement → FoeAttack → RoundEnd → Sync`; each phase set runs only
//!   in its [`GamePhase`].

use bevy::prelude::*;
use foehold_core::hex::Hex;
use foehold_core::modifiers::draw::Mode;
use foehold_core::rules::Rules;
use foehold_core::rules::gloomhaven::state::Pending;
use foehold_core::rules::gloomhaven::{
    Action, Event, FigureId, FoeStage, Game, Gloomhaven, Phase, autopilot, log,
};

/// The core game, the single source of truth.
#[derive(Resource, Debug, Clone)]
pub struct CoreGame(pub Game);

/// How much the loop does by itself.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopSettings {
    /// Break the players' ties with the seeded generator (still logged as `Choose`).
    pub seeded_ties: bool,
    /// Let the autopilot pick cards and play the heroes.
    pub autopilot_heroes: bool,
    /// Run the rules' own steps without waiting for [`StepFoe`].
    pub auto_advance: bool,
}

impl Default for LoopSettings {
    /// The table plays: heroes and ties are the players', monster steps run by themselves.
    fn default() -> Self {
        LoopSettings {
            seeded_ties: false,
            autopilot_heroes: false,
            auto_advance: true,
        }
    }
}

impl LoopSettings {
    /// Everything automatic: a headless game that plays itself to the end.
    pub const HEADLESS: LoopSettings = LoopSettings {
        seeded_ties: true,
        autopilot_heroes: true,
        auto_advance: true,
    };
}

/// Steps asked for this frame with [`StepFoe`]; a rules step uses one, the rest lapse at the end of
/// the frame (one message, at most one step).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct StepRequests(pub u32);

/// Whether a tie is waiting for a `Choose` action.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AwaitingChoice(pub bool);

/// The core phase, as a Bevy state.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum GamePhase {
    /// No game loaded yet, or the scenario is set up and nothing happened.
    #[default]
    Setup,
    CardSelection,
    HeroTurn,
    FoeTargeting,
    FoeMovement,
    FoeAttack,
    RoundEnd,
    Victory,
    Defeat,
}

impl GamePhase {
    /// The Bevy state for a core phase.
    pub fn of(p: Phase) -> GamePhase {
        match p {
            Phase::Setup => GamePhase::Setup,
            Phase::CardSelection => GamePhase::CardSelection,
            Phase::HeroTurn { .. } => GamePhase::HeroTurn,
            Phase::FoeTurn {
                stage: FoeStage::Targeting,
                ..
            } => GamePhase::FoeTargeting,
            Phase::FoeTurn {
                stage: FoeStage::Movement,
                ..
            } => GamePhase::FoeMovement,
            Phase::FoeTurn {
                stage: FoeStage::Attack { .. },
                ..
            } => GamePhase::FoeAttack,
            Phase::RoundEnd => GamePhase::RoundEnd,
            Phase::Victory => GamePhase::Victory,
            Phase::Defeat => GamePhase::Defeat,
        }
    }
}

/// The loop's system sets, in the order they run each frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoopSet {
    /// Submitted actions and seeded tie-breaks.
    Input,
    Setup,
    CardSelection,
    HeroTurn,
    FoeTargeting,
    FoeMovement,
    FoeAttack,
    RoundEnd,
    /// Mirrors the core phase into [`GamePhase`].
    Sync,
}

/// An action for the core game, from a click, a key or a script.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct SubmitAction(pub Action);

/// Asks for the next automatic step (one foe step, a reveal, the round end) when `auto_advance` is off.
#[derive(Message, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StepFoe;

/// A submitted action the rules refused; the state did not change.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct ActionRefused {
    pub action: Action,
    pub reason: String,
}

/// Every core event, with its readable log line when it has one.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct GameEvent {
    pub event: Event,
    pub line: Option<String>,
}

/// A monster picked its focus (empty: none) and has `options` equal outcomes.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct FoeTargeted {
    pub monster: usize,
    pub focus: Vec<FigureId>,
    pub options: usize,
    pub trace: Vec<String>,
}

/// A figure moves along `path` (the hexes entered, in order).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct PathChosen {
    pub figure: FigureId,
    pub path: Vec<Hex>,
}

/// Modifier cards drawn for one attack on one target.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct CardsDrawn {
    pub attacker: FigureId,
    pub target: FigureId,
    pub mode: Mode,
    pub cards: Vec<String>,
}

/// The attack on one target is resolved.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct AttackResolved {
    pub attacker: FigureId,
    pub target: FigureId,
    pub value: i32,
    pub damage: u32,
}

/// A monster died or a hero fell.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct FigureDied {
    pub figure: FigureId,
    pub hex: Hex,
}

/// The rules left `options` equal outcomes to the players; submit `Action::Choose(i)`.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct TieToBreak {
    pub about: String,
    pub options: usize,
}

/// The game loop plugin. See the crate docs.
pub struct GameLoopPlugin;

impl Plugin for GameLoopPlugin {
    fn build(&self, app: &mut App) {
        app.init_state::<GamePhase>()
            .init_resource::<LoopSettings>()
            .init_resource::<AwaitingChoice>()
            .init_resource::<StepRequests>()
            .add_message::<SubmitAction>()
            .add_message::<StepFoe>()
            .add_message::<ActionRefused>()
            .add_message::<GameEvent>()
            .add_message::<FoeTargeted>()
            .add_message::<PathChosen>()
            .add_message::<CardsDrawn>()
            .add_message::<AttackResolved>()
            .add_message::<FigureDied>()
            .add_message::<TieToBreak>();
        // The one place where the order of the phases' systems is set.
        app.configure_sets(
            Update,
            (
                LoopSet::Input,
                LoopSet::Setup.run_if(in_state(GamePhase::Setup)),
                LoopSet::CardSelection.run_if(in_state(GamePhase::CardSelection)),
                LoopSet::HeroTurn.run_if(in_state(GamePhase::HeroTurn)),
                LoopSet::FoeTargeting.run_if(in_state(GamePhase::FoeTargeting)),
                LoopSet::FoeMovement.run_if(in_state(GamePhase::FoeMovement)),
                LoopSet::FoeAttack.run_if(in_state(GamePhase::FoeAttack)),
                LoopSet::RoundEnd.run_if(in_state(GamePhase::RoundEnd)),
                LoopSet::Sync,
            )
                .chain()
                .run_if(resource_exists::<CoreGame>),
        );
        app.add_systems(
            Update,
            (collect_steps, apply_submitted, break_ties)
                .chain()
                .in_set(LoopSet::Input),
        )
        .add_systems(Update, rules_step(GamePhase::Setup).in_set(LoopSet::Setup))
        .add_systems(Update, card_selection.in_set(LoopSet::CardSelection))
        .add_systems(Update, hero_turn.in_set(LoopSet::HeroTurn))
        .add_systems(
            Update,
            rules_step(GamePhase::FoeTargeting).in_set(LoopSet::FoeTargeting),
        )
        .add_systems(
            Update,
            rules_step(GamePhase::FoeMovement).in_set(LoopSet::FoeMovement),
        )
        .add_systems(
            Update,
            rules_step(GamePhase::FoeAttack).in_set(LoopSet::FoeAttack),
        )
        .add_systems(Update, round_end.in_set(LoopSet::RoundEnd))
        .add_systems(Update, sync_phase.in_set(LoopSet::Sync));
    }
}

/// Writers for every outgoing message.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Outbox<'w> {
    events: MessageWriter<'w, GameEvent>,
    targeted: MessageWriter<'w, FoeTargeted>,
    paths: MessageWriter<'w, PathChosen>,
    drawn: MessageWriter<'w, CardsDrawn>,
    resolved: MessageWriter<'w, AttackResolved>,
    died: MessageWriter<'w, FigureDied>,
    ties: MessageWriter<'w, TieToBreak>,
    refused: MessageWriter<'w, ActionRefused>,
}

impl Outbox<'_> {
    /// Applies an action to the core game and sends what happened.
    fn apply(&mut self, game: &mut Game, action: Action) {
        match game.apply(action.clone()) {
            Ok(events) => self.send(game, events),
            Err(e) => {
                self.refused.write(ActionRefused {
                    action,
                    reason: e.to_string(),
                });
            }
        }
    }

    fn send(&mut self, game: &Game, events: Vec<Event>) {
        for e in events {
            match &e {
                Event::FoeTargeted {
                    monster,
                    focus,
                    options,
                    trace,
                } => {
                    self.targeted.write(FoeTargeted {
                        monster: *monster,
                        focus: focus.clone(),
                        options: *options,
                        trace: trace.clone(),
                    });
                }
                Event::PathChosen { figure, path } => {
                    self.paths.write(PathChosen {
                        figure: *figure,
                        path: path.clone(),
                    });
                }
                Event::CardsDrawn {
                    attacker,
                    target,
                    mode,
                    cards,
                } => {
                    self.drawn.write(CardsDrawn {
                        attacker: *attacker,
                        target: *target,
                        mode: *mode,
                        cards: cards.clone(),
                    });
                }
                Event::AttackResolved {
                    attacker,
                    target,
                    value,
                    damage,
                    ..
                } => {
                    self.resolved.write(AttackResolved {
                        attacker: *attacker,
                        target: *target,
                        value: *value,
                        damage: *damage,
                    });
                }
                Event::FigureDied { figure, hex } => {
                    self.died.write(FigureDied {
                        figure: *figure,
                        hex: *hex,
                    });
                }
                Event::TieToBreak { about, options } => {
                    self.ties.write(TieToBreak {
                        about: about.clone(),
                        options: *options,
                    });
                }
                _ => {}
            }
            let line = log::describe(&game.state, &e);
            self.events.write(GameEvent { event: e, line });
        }
    }
}

fn collect_steps(mut inbox: MessageReader<StepFoe>, mut steps: ResMut<StepRequests>) {
    steps.0 += inbox.read().count() as u32;
}

/// Uses one step request, if any.
fn take_step(steps: &mut StepRequests) -> bool {
    if steps.0 > 0 {
        steps.0 -= 1;
        true
    } else {
        false
    }
}

fn apply_submitted(
    mut game: ResMut<CoreGame>,
    mut inbox: MessageReader<SubmitAction>,
    mut out: Outbox,
) {
    for SubmitAction(a) in inbox.read() {
        out.apply(&mut game.0, a.clone());
    }
}

/// Headless: the seeded pick breaks a waiting tie (logged as a `Choose` like any other); without
/// `auto_advance` it waits for a step request, so a watcher sees the tie first.
fn break_ties(
    mut game: ResMut<CoreGame>,
    settings: Res<LoopSettings>,
    mut steps: ResMut<StepRequests>,
    mut awaiting: ResMut<AwaitingChoice>,
    mut out: Outbox,
) {
    if settings.seeded_ties
        && game.0.state.pending.is_some()
        && (settings.auto_advance || take_step(&mut steps))
    {
        let pick = game.0.state.seeded_pick(game.0.state.pending_options());
        out.apply(&mut game.0, Action::Choose(pick));
    }
    awaiting.set_if_neq(AwaitingChoice(game.0.state.pending.is_some()));
}

/// A system that runs one of the rules' own steps (`Advance`) in `phase`: every frame with
/// `auto_advance`, else once per [`StepFoe`] message.
fn rules_step(
    phase: GamePhase,
) -> impl FnMut(ResMut<CoreGame>, Res<LoopSettings>, ResMut<StepRequests>, Outbox) {
    move |mut game, settings, mut steps, mut out| {
        let s = &game.0.state;
        // The core phase is the truth; the Bevy state may lag by a frame after an action.
        if GamePhase::of(s.phase) != phase
            || s.pending.is_some()
            || !(settings.auto_advance || take_step(&mut steps))
        {
            return;
        }
        out.apply(&mut game.0, Action::Advance);
    }
}

/// Round end: the autopilot may short rest first; a table game ends the round by itself only when
/// no hero could short rest (else it waits for a step request or a submitted `Advance`).
fn round_end(
    mut game: ResMut<CoreGame>,
    settings: Res<LoopSettings>,
    mut steps: ResMut<StepRequests>,
    mut out: Outbox,
) {
    let s = &game.0.state;
    if GamePhase::of(s.phase) != GamePhase::RoundEnd || s.pending.is_some() {
        return;
    }
    let action = if settings.autopilot_heroes {
        (settings.auto_advance || take_step(&mut steps))
            .then(|| autopilot::next_action(s))
            .flatten()
    } else {
        let could_rest = s.active_heroes().any(|h| s.may_short_rest(h));
        ((settings.auto_advance && !could_rest) || take_step(&mut steps)).then_some(Action::Advance)
    };
    if let Some(a) = action {
        out.apply(&mut game.0, a);
    }
}

fn card_selection(
    mut game: ResMut<CoreGame>,
    settings: Res<LoopSettings>,
    mut steps: ResMut<StepRequests>,
    mut out: Outbox,
) {
    let s = &game.0.state;
    // A tie in the turn order waits for the players (or the seeded pick) after the reveal.
    if GamePhase::of(s.phase) != GamePhase::CardSelection || s.pending.is_some() {
        return;
    }
    let all_chosen = s
        .active_heroes()
        .all(|h| s.heroes[h].selected.is_some() || s.heroes[h].long_rest.is_some());
    let action = if all_chosen {
        // The reveal is a rules step.
        (settings.auto_advance || take_step(&mut steps)).then_some(Action::Advance)
    } else if settings.autopilot_heroes && (settings.auto_advance || take_step(&mut steps)) {
        autopilot::next_action(s)
    } else {
        None
    };
    if let Some(a) = action {
        out.apply(&mut game.0, a);
    }
}

/// Hero turns the loop plays itself: a long-resting hero's turn (the rest is a rules step) and, with
/// the autopilot, every hero's; every frame with `auto_advance`, else one action per step request.
fn hero_turn(
    mut game: ResMut<CoreGame>,
    settings: Res<LoopSettings>,
    mut steps: ResMut<StepRequests>,
    mut out: Outbox,
) {
    let s = &game.0.state;
    let Phase::HeroTurn { hero, .. } = s.phase else {
        return;
    };
    let resting = s.heroes[hero].long_rest.is_some();
    // How the hero's own modifier cards count is its player's choice, so the autopilot makes it.
    let own_choice = matches!(s.pending, Some(Pending::HeroModifier { .. }));
    if !(settings.autopilot_heroes || resting)
        || (s.pending.is_some() && !own_choice)
        || !(settings.auto_advance || take_step(&mut steps))
    {
        return;
    }
    let action = if resting {
        Some(Action::Advance)
    } else {
        <Gloomhaven as Rules>::autopilot(s, hero)
    };
    if let Some(a) = action {
        out.apply(&mut game.0, a);
    }
}

fn sync_phase(
    game: Res<CoreGame>,
    state: Res<State<GamePhase>>,
    mut next: ResMut<NextState<GamePhase>>,
    mut steps: ResMut<StepRequests>,
) {
    steps.0 = 0;
    let want = GamePhase::of(game.0.state.phase);
    if *state.get() != want {
        next.set(want);
    }
}
