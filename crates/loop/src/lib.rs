//! Foehold's game loop as Bevy states and systems, for any rule module, runnable headless with
//! `MinimalPlugins` + `StatesPlugin`.
//!
//! The core [`Game`] owns the truth; this crate only steps it and tells the world what happened. It
//! knows no rules: everything it does goes through the [`Rules`] interface, so the same loop plays
//! every module.
//!
//! # How foe behaviour runs as Bevy systems
//!
//! The rules of each stage of a foe's turn (placement, targeting, movement, attack, as the module has
//! them) are pure functions in the module's stage files, called from its `apply`. The loop does not
//! copy them into systems: one system, [`LoopSystems::StepRules`], applies the next automatic action
//! (a rules step, a seeded tie-break, the hero autopilot), and around it the loop builds one state
//! per module and one system set per stage the module lists in [`Rules::STAGES`]:
//!
//! * [`GamePhase::Stage`]`(stage)` is the Bevy state while the rules' next step is that stage, so
//!   `OnEnter(GamePhase::Stage(Step::FoeMovement))` is where a renderer starts a walk. Stages are
//!   the module's own enum ([`Rules::Stage`]): a misspelt one does not compile;
//! * [`InStage`]`(stage)` runs only in that state, after the step, for systems that belong to one
//!   stage.
//!
//! # Public API
//!
//! * [`GameLoopPlugin<R>`]: add it after `MinimalPlugins` (or `DefaultPlugins`) and `StatesPlugin`.
//! * [`CoreGame<R>`] (resource): the core game with its action log. Insert it before the first
//!   update; without it the loop idles. Undo/redo: call `CoreGame.0.undo()` / `redo()` and the phase
//!   follows next frame.
//! * [`LoopSettings`] (resource): `seeded_ties` lets the seeded generator break the ties the rules
//!   give to the players (headless); `autopilot_heroes` lets the autopilot play the heroes;
//!   `auto_advance` runs the rules' own steps by themselves, one step per frame. With
//!   `auto_advance: false` a renderer asks for each step with [`StepRequest`]; the autopilot's hero
//!   actions and seeded tie-breaks then wait for a request too, so a watcher can pace a whole game.
//! * [`GamePhase<S>`] (state, one per module: [`PhaseOf<R>`]): whose move it is, by stage.
//!   [`AwaitingChoice`] (resource) is true while a tie waits for the table.
//! * Submitting an action: write a [`SubmitAction<R>`] message; it is applied in
//!   [`LoopSystems::Input`]. A refused action comes back as an [`ActionRefused<R>`] message.
//! * A game held elsewhere ([`LoopSettings::held_elsewhere`], online play): the loop applies
//!   nothing, neither the submitted actions (online play reads them and proposes them to its
//!   host) nor the rules' steps (the holder's copy of the game runs them); it only follows the
//!   game's phase. The loop knows nothing of how the actions travel.
//! * Messages out: [`GameEvent<R>`], every event of the rules with its log line, in order. A
//!   renderer that shows each action at its own pace keeps the game's journal instead
//!   ([`Game::keep_journal`]): every action applied, wherever, with the state before it.
//! * System sets, ordered once: `Input → StepRules → InStage(s)… → Sync`.
//! * Several modules in one app: add a [`GameLoopPlugin<R>`] per module. Each module's systems run
//!   only while its [`CoreGame<R>`] exists; removing one game and inserting another switches the
//!   table to the other module: the phase of the one removed goes back to `Idle` and the other's
//!   follows its game.

use std::marker::PhantomData;

use bevy::prelude::*;
use foehold_core::game::Game;
use foehold_core::rules::{Present, Rules, Stage, ToMove};

/// The core game, the single source of truth.
#[derive(Resource)]
pub struct CoreGame<R: Rules>(pub Game<R>);

impl<R: Rules> std::fmt::Debug for CoreGame<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("CoreGame").field(&self.0).finish()
    }
}

/// How much the loop does by itself.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoopSettings {
    /// Break the players' ties with the seeded generator (still logged as an action).
    pub seeded_ties: bool,
    /// Let the autopilot play the heroes.
    pub autopilot_heroes: bool,
    /// Run the rules' own steps without waiting for [`StepRequest`].
    pub auto_advance: bool,
    /// The players draw the cards and roll the dice at their own table and enter each outcome
    /// (a [`SubmitAction`] of `Seat::Chance`): the loop never draws one itself.
    pub table_draws: bool,
    /// Something outside the loop holds the game and applies everything to it (online play: the
    /// session's copy of the host's game): a [`SubmitAction`] is left to it, and the loop runs no
    /// step of the rules.
    pub held_elsewhere: bool,
}

impl Default for LoopSettings {
    /// The table plays: heroes and ties are the players', the rules' steps run by themselves.
    fn default() -> Self {
        LoopSettings {
            seeded_ties: false,
            autopilot_heroes: false,
            auto_advance: true,
            table_draws: false,
            held_elsewhere: false,
        }
    }
}

impl LoopSettings {
    /// Everything automatic: a headless game that plays itself to the end.
    pub const HEADLESS: LoopSettings = LoopSettings {
        seeded_ties: true,
        autopilot_heroes: true,
        auto_advance: true,
        table_draws: false,
        held_elsewhere: false,
    };
}

/// Steps asked for this frame with [`StepRequest`]; an automatic action uses one, the rest lapse at
/// the end of the frame (one message, at most one step).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct StepRequests(pub u32);

/// Whether a tie is waiting for the table's choice.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AwaitingChoice(pub bool);

/// Whose move it is in one module's game, as a Bevy state (one per module).
///
/// One variant per kind of [`ToMove`], the rules' own steps by the module's stages `S`
/// ([`Rules::Stage`]). The phase of a module whose game is not on the table is `Idle`.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum GamePhase<S: Stage> {
    /// No game of this module is on the table.
    #[default]
    Idle,
    /// The rules' next step is this stage.
    Stage(S),
    /// Heroes may act.
    Heroes,
    /// A tie waits for the players.
    Tie,
    /// The game is over.
    Over {
        /// Whether the heroes won.
        won: bool,
    },
}

/// The phase state of module `R`.
pub type PhaseOf<R> = GamePhase<<R as Rules>::Stage>;

impl<S: Stage> GamePhase<S> {
    /// The Bevy state for whose move it is.
    pub fn of(to_move: &ToMove<S>) -> GamePhase<S> {
        match to_move {
            ToMove::Rules { stage } | ToMove::Chance { stage, .. } => GamePhase::Stage(*stage),
            ToMove::Heroes(_) => GamePhase::Heroes,
            ToMove::Tie { .. } => GamePhase::Tie,
            ToMove::Over { won } => GamePhase::Over { won: *won },
        }
    }

    /// The state of a game now.
    pub fn of_game<R: Rules<Stage = S>>(game: &Game<R>) -> GamePhase<S> {
        GamePhase::of(&game.to_move())
    }
}

/// The loop's system sets, in the order they run each frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoopSystems {
    /// Step requests and submitted actions.
    Input,
    /// The one system that steps the rules: the next automatic action, if any.
    StepRules,
    /// Mirrors whose move it is into each module's [`GamePhase`].
    Sync,
}

/// Systems of one stage of a module: they run only in [`GamePhase::Stage`] of that stage, after
/// [`LoopSystems::StepRules`] and before [`LoopSystems::Sync`].
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InStage<S: Stage>(pub S);

/// An action for the core game, from a click, a key or a script.
#[derive(Message)]
pub struct SubmitAction<R: Rules>(pub R::Action);

/// Asks for the next automatic step (a foe step, a reveal, the round end, an autopilot action, a
/// seeded tie-break) when `auto_advance` is off.
#[derive(Message, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StepRequest;

/// A submitted action the rules refused; the state did not change.
#[derive(Message)]
pub struct ActionRefused<R: Rules> {
    /// The action refused.
    pub action: R::Action,
    /// Why, in words.
    pub reason: String,
}

/// An event of the rules, with its readable log line when it has one.
#[derive(Message)]
pub struct GameEvent<R: Rules> {
    /// The event.
    pub event: R::Event,
    /// Its log line, written from the state just after the action.
    pub line: Option<String>,
}

impl<R: Rules> Clone for GameEvent<R> {
    fn clone(&self) -> Self {
        GameEvent {
            event: self.event.clone(),
            line: self.line.clone(),
        }
    }
}

impl<R: Rules> std::fmt::Debug for GameEvent<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameEvent")
            .field("event", &self.event)
            .field("line", &self.line)
            .finish()
    }
}

/// The game loop plugin of one rule module. See the crate docs.
///
/// Several can be added to one app, one per module: each module's systems run only while its
/// [`CoreGame<R>`] exists, so the table switches modules by removing one game and inserting another.
pub struct GameLoopPlugin<R>(PhantomData<fn() -> R>);

impl<R> Default for GameLoopPlugin<R> {
    fn default() -> Self {
        GameLoopPlugin(PhantomData)
    }
}

/// What every module's loop shares: the phase, the settings, the step requests and the order of
/// the sets. Added once, by the first [`GameLoopPlugin`].
struct LoopCorePlugin;

impl Plugin for LoopCorePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LoopSettings>()
            .init_resource::<AwaitingChoice>()
            .init_resource::<StepRequests>()
            .add_message::<StepRequest>();
        // The one place where the order of the loop's sets is set. No set has a run condition of
        // one module: a condition on a shared set would hold it for every module.
        app.configure_sets(
            Update,
            (
                LoopSystems::Input,
                LoopSystems::StepRules,
                LoopSystems::Sync,
            )
                .chain(),
        );
        app.add_systems(Update, collect_steps.in_set(LoopSystems::Input))
            .add_systems(Update, lapse_steps.after(LoopSystems::Sync));
    }
}

impl<R: Present> Plugin for GameLoopPlugin<R> {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<LoopCorePlugin>() {
            app.add_plugins(LoopCorePlugin);
        }
        app.init_state::<PhaseOf<R>>()
            .add_message::<SubmitAction<R>>()
            .add_message::<ActionRefused<R>>()
            .add_message::<GameEvent<R>>();
        for &stage in R::STAGES {
            app.configure_sets(
                Update,
                InStage(stage)
                    .after(LoopSystems::StepRules)
                    .before(LoopSystems::Sync)
                    .run_if(in_state(GamePhase::Stage(stage))),
            );
        }
        let has_game = resource_exists::<CoreGame<R>>;
        app.add_systems(
            Update,
            (
                apply_submitted::<R>
                    .after(collect_steps)
                    .in_set(LoopSystems::Input),
                // One module's game is on the table at a time: its systems never meet another's.
                step_rules::<R>
                    .in_set(LoopSystems::StepRules)
                    .ambiguous_with(LoopSystems::StepRules),
                sync_phase::<R>
                    .in_set(LoopSystems::Sync)
                    .ambiguous_with(LoopSystems::Sync),
            )
                .distributive_run_if(has_game),
        )
        // A game taken off the table leaves its module's phase idle.
        .add_systems(
            Update,
            idle::<R>
                .run_if(resource_removed::<CoreGame<R>>)
                .in_set(LoopSystems::Input),
        );
    }
}

/// Applies an action to the core game and sends its events, or the refusal. A draw or roll
/// `submitted` from outside the loop is one the players made at their own table.
fn apply<R: Present>(game: &mut Game<R>, action: R::Action, submitted: bool, out: &mut Out<R>) {
    let done = if submitted && matches!(game.to_move(), ToMove::Chance { .. }) {
        game.enter(action.clone())
    } else {
        game.apply(action.clone())
    };
    let Out { events, refused } = out;
    match done {
        Ok(done) => {
            for event in done {
                let line = R::describe(&game.state, &event);
                events.write(GameEvent { event, line });
            }
        }
        Err(e) => {
            refused.write(ActionRefused {
                action,
                reason: e.to_string(),
            });
        }
    }
}

fn collect_steps(mut inbox: MessageReader<StepRequest>, mut steps: ResMut<StepRequests>) {
    let asked = u32::try_from(inbox.read().count()).unwrap_or(u32::MAX);
    steps.0 = steps.0.saturating_add(asked);
}

/// What applying an action sends.
#[derive(bevy::ecs::system::SystemParam)]
struct Out<'w, R: Rules> {
    events: MessageWriter<'w, GameEvent<R>>,
    refused: MessageWriter<'w, ActionRefused<R>>,
}

fn apply_submitted<R: Present>(
    mut game: ResMut<CoreGame<R>>,
    settings: Res<LoopSettings>,
    mut inbox: MessageReader<SubmitAction<R>>,
    mut out: Out<R>,
) {
    // Held elsewhere, the submitted actions are the holder's to read; they stay unread here.
    if settings.held_elsewhere {
        inbox.clear();
        return;
    }
    for SubmitAction(a) in inbox.read() {
        apply(&mut game.0, a.clone(), true, &mut out);
    }
}

/// The one system that steps the rules: applies the next automatic action, every frame with
/// `auto_advance`, else once per [`StepRequest`].
fn step_rules<R: Present>(
    mut game: ResMut<CoreGame<R>>,
    settings: Res<LoopSettings>,
    mut steps: ResMut<StepRequests>,
    mut awaiting: ResMut<AwaitingChoice>,
    mut out: Out<R>,
) {
    // Draws the players make at their own table; a game held elsewhere steps there.
    let entered = settings.table_draws && matches!(game.0.to_move(), ToMove::Chance { .. });
    if !entered
        && !settings.held_elsewhere
        && let Some(action) = game
            .0
            .automatic(settings.seeded_ties, settings.autopilot_heroes)
        && (settings.auto_advance || take_step(&mut steps))
    {
        apply(&mut game.0, action, false, &mut out);
    }
    let tie = matches!(game.0.to_move(), ToMove::Tie { .. });
    awaiting.set_if_neq(AwaitingChoice(tie));
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

fn sync_phase<R: Rules>(
    game: Res<CoreGame<R>>,
    state: Res<State<PhaseOf<R>>>,
    mut next: ResMut<NextState<PhaseOf<R>>>,
) {
    let want = GamePhase::of_game(&game.0);
    if *state.get() != want {
        next.set(want);
    }
}

/// Step requests not used this frame lapse: one request, at most one step.
fn lapse_steps(mut steps: ResMut<StepRequests>) {
    steps.0 = 0;
}

/// No game of this module is on the table any more.
fn idle<R: Rules>(mut next: ResMut<NextState<PhaseOf<R>>>) {
    next.set(GamePhase::Idle);
}
