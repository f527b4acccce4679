//! A copy of the game with its session log: what the host and every peer hold alike.
//!
//! Only the players' decisions (a hero's action, a tie the table breaks) and undos are entries of
//! the session log. After each decision every copy runs the automatic steps itself — the rules' own
//! steps, the chance outcomes by the seeded pick of the decision's draw key ([`crate::draws`]) and
//! the step count, the ties by the seeded pick when the game breaks them so — exactly as
//! [`Game::automatic_drawn_by`] gives them, until a player must decide again. They are functions of
//! the state and the key alone, so equal states before a decision give equal states after it and
//! its steps; the host's commit carries the state hash after
//! the decision and after every step, and a copy compares each one as it goes, so the first step at
//! which two copies part is named, never patched over.

use foehold_core::game::Game;
use foehold_core::rules::{Rules, Seat, ToMove};

use std::collections::BTreeMap;

use crate::codec::{decode_action, encode_action};
use crate::draws::{commitment, key};
use crate::message::{Commit, Digest, Draws, Entry, Salt, Setup, StateHash, UndoGranted};

/// The most automatic steps one decision may bring before the next decision: the hashes of a
/// commit must fit in one message.
pub const MAX_AUTOMATIC: usize = 4096;

/// Who made a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Maker {
    /// A hero's player.
    Hero(usize),
    /// The player who breaks the table's ties.
    Table,
}

/// What a copy knows of each entry it applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Applied {
    /// The game's log position before the entry.
    start: usize,
    /// Who decided (`None` for an undo).
    maker: Option<Maker>,
    /// Whether the decision was a hidden pick.
    hidden: bool,
    /// Whether the steps after it drew a card or rolled a die.
    drew: bool,
}

/// Where a copy parted from the host's: the first diverging action, never patched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Desync {
    /// The session log entry being applied.
    pub seq: u64,
    /// The 1-based number of the diverging action in the game's log.
    pub action: usize,
    /// The action, as the module writes it.
    pub description: String,
    /// The hash the host sent for the state after it, if it sent one.
    pub expected: Option<StateHash>,
    /// The hash this copy reached, if it took the action.
    pub found: Option<StateHash>,
    /// What differs, in words.
    pub why: String,
}

impl std::fmt::Display for Desync {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "this copy parts from the host's at entry {}, action {} ({}): {}",
            self.seq, self.action, self.description, self.why
        )
    }
}

impl std::error::Error for Desync {}

/// A game, its session log, and the automatic steps run after every decision.
#[derive(Debug)]
pub struct Replica<R: Rules> {
    game: Game<R>,
    setup: Setup,
    start: StateHash,
    entries: Vec<Entry>,
    applied: Vec<Applied>,
    /// The decisions in effect (indices into `entries`), oldest first.
    effective: Vec<usize>,
    /// The host's commitments to its draw secrets, by the log length a decision is made at.
    commitments: BTreeMap<u64, Digest>,
    desync: Option<Desync>,
}

impl<R: Rules> Clone for Replica<R> {
    fn clone(&self) -> Self {
        Replica {
            game: self.game.clone(),
            setup: self.setup.clone(),
            start: self.start,
            entries: self.entries.clone(),
            applied: self.applied.clone(),
            effective: self.effective.clone(),
            commitments: self.commitments.clone(),
            desync: self.desync.clone(),
        }
    }
}

impl<R: Rules> Replica<R> {
    /// A copy of a game that no decision has reached yet; the steps that open it are run now.
    pub fn new(mut game: Game<R>, setup: Setup) -> Replica<R> {
        let seeded = setup.seeded_ties;
        for _ in 0..MAX_AUTOMATIC {
            let Some(a) = game.automatic(seeded, false) else {
                break;
            };
            if game.apply(a).is_err() {
                break;
            }
        }
        let start = StateHash::of(&game.state);
        Replica {
            game,
            setup,
            start,
            entries: Vec::new(),
            applied: Vec::new(),
            effective: Vec::new(),
            commitments: BTreeMap::new(),
            desync: None,
        }
    }

    /// A copy of a game already under way (one played at a table before it went online): its
    /// decisions are replayed from the start as the first entries of the session log, each with
    /// the steps after it, so that a peer builds its copy from the log as from any other. Refused,
    /// naming the action, when the game holds a step every copy would not run itself the same way
    /// (a draw or roll entered at the table) or an action that is nobody's decision there. The copy may be ahead of `game` by the rules' steps after
    /// its last decision, which the table shows at its own pace.
    pub fn from_game(game: &Game<R>, setup: Setup) -> Result<Replica<R>, String> {
        let mut fresh = Game::new(
            game.scenario.clone(),
            game.scenario_path.clone(),
            game.seed,
            game.tie_breaker,
        )
        .map_err(|e| format!("the game cannot be started again: {e}"))?;
        fresh.scenario_hash = game.scenario_hash.clone();
        let mut replica = Replica::new(fresh, setup);
        let done = game.actions();
        loop {
            let ran = replica.game.actions();
            let at = ran.len();
            let n = at.min(done.len());
            if let Some(i) = (0..n).find(|&i| ran[i] != done[i]) {
                return Err(format!(
                    "action {} of the game ({:?}) is not the one every copy would run there ({:?}): \
                     a draw entered at the table",
                    i + 1,
                    done[i],
                    ran[i]
                ));
            }
            let Some(next) = done.get(at) else {
                return Ok(replica);
            };
            let Some(maker) = replica.maker(next) else {
                return Err(format!(
                    "action {} of the game ({next:?}) is no player's decision there",
                    at + 1
                ));
            };
            replica
                .decide(next.clone(), maker, None, None, None)
                .map_err(|e| format!("action {}: {e}", at + 1))?;
        }
    }

    /// The game.
    pub fn game(&self) -> &Game<R> {
        &self.game
    }

    /// Swaps this copy's game with `game`: a program that keeps the one game elsewhere between
    /// polls (the table's) swaps it in before it polls or proposes and out again after, so that
    /// each decision is applied once on the machine. Between the swaps the copy holds whatever it
    /// was given and must not be polled.
    pub fn swap_game(&mut self, game: &mut Game<R>) {
        std::mem::swap(&mut self.game, game);
    }

    /// The game's setup.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Gives the table's ties to player `n` (a host that continues the game takes them).
    pub fn set_table_player(&mut self, n: u32) {
        self.setup.table_player = n;
    }

    /// The state hash after the opening steps.
    pub fn start(&self) -> StateHash {
        self.start
    }

    /// The session log's length: the position the next decision is proposed at.
    pub fn len(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Whether no entry is in the session log yet.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The session log.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The state hash now.
    pub fn hash(&self) -> StateHash {
        StateHash::of(&self.game.state)
    }

    /// Where this copy parted from the host's, once it has.
    pub fn desync(&self) -> Option<&Desync> {
        self.desync.as_ref()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        matches!(self.game.to_move(), ToMove::Over { .. })
    }

    /// Who may make `action` now: the hero to move whose legal actions list it, or the table when
    /// the rules leave a tie to it. `None` when no player may (the rules' own step, a die, or an
    /// action no seat to move has).
    pub fn maker(&self, action: &R::Action) -> Option<Maker> {
        match self.game.to_move() {
            ToMove::Heroes(heroes) => heroes
                .into_iter()
                .find(|&h| self.game.legal_actions(Seat::Hero(h)).contains(action))
                .map(Maker::Hero),
            ToMove::Tie { .. } if !self.setup.seeded_ties => self
                .game
                .legal_actions(Seat::Table)
                .contains(action)
                .then_some(Maker::Table),
            _ => None,
        }
    }

    /// The player who makes a maker's decisions: the hero's player, or the table's tie-breaker.
    pub fn player_of(&self, maker: Maker) -> u32 {
        match maker {
            Maker::Hero(h) => self.setup.players.get(h).copied().unwrap_or(0),
            Maker::Table => self.setup.table_player,
        }
    }

    /// Whether a maker's decisions are `player`'s by the seat table: the hero's player's, or the
    /// table's tie-breaker's.
    pub fn is_players(&self, maker: Maker, player: u32) -> bool {
        match maker {
            Maker::Hero(h) => self.setup.players.get(h) == Some(&player),
            Maker::Table => self.setup.table_player == player,
        }
    }

    /// Whether `player` may have made a maker's decision: a hero's is its player's alone. A tie's
    /// is any seated player's, since the tie-breaker changes with the host and a copy that joined
    /// later knows only the last one (the tie-breaker's own copy still refuses a tie it never
    /// broke).
    fn may_decide(&self, maker: Maker, player: u32) -> bool {
        match maker {
            Maker::Hero(_) => self.is_players(maker, player),
            Maker::Table => (1..=self.setup.seats).contains(&player),
        }
    }

    /// Applies a decision its maker may make (see [`Replica::maker`]), runs the steps after it and
    /// appends the commit, which it returns.
    ///
    /// `draws` keys the draws of the steps after it (`None`: the game's seed, for a decision made
    /// before the game went online); `next` is the host's commitment for the decisions made at
    /// the log's next length.
    pub fn decide(
        &mut self,
        action: R::Action,
        maker: Maker,
        salt: Option<Salt>,
        draws: Option<Draws>,
        next: Option<Digest>,
    ) -> Result<Commit, String> {
        let seq = self.len();
        let start = self.game.cursor;
        self.game
            .apply(action.clone())
            .map_err(|e| format!("the rules refuse it: {e}"))?;
        let mut hashes = vec![self.hash()];
        let by = self.draw_key(seq, draws.as_ref(), salt.is_some());
        let mut drew = false;
        for _ in 0..MAX_AUTOMATIC {
            let Some(a) = self
                .game
                .automatic_drawn_by(self.setup.seeded_ties, false, by)
            else {
                break;
            };
            drew |= matches!(self.game.to_move(), ToMove::Chance { .. });
            if self.game.apply(a).is_err() {
                break;
            }
            hashes.push(self.hash());
        }
        let commit = Commit {
            seq,
            action: encode_action(&action),
            by: self.player_of(maker),
            hashes,
            salt,
            draws,
            next,
        };
        self.push(Entry::Commit(commit.clone()), start, Some(maker), drew);
        Ok(commit)
    }

    /// The seed of the draws after the decision at `seq`: its draw key, or the game's seed.
    ///
    /// A hidden pick's draws are keyed by the salts of every pick of its round revealed so far,
    /// its own last: the round's last pick (whose steps draw) mixes every player's salt, so a
    /// host that picks too cannot choose its own salt to steer them (it committed to its salt
    /// before it learnt the others').
    fn draw_key(&self, seq: u64, draws: Option<&Draws>, hidden: bool) -> u64 {
        let Some(d) = draws else {
            return R::seed(&self.game.state);
        };
        let mut round = Vec::new();
        if hidden {
            for e in self.entries.iter().rev() {
                match e {
                    Entry::Commit(c)
                        if c.salt.is_some() && c.draws.is_some_and(|p| p.at == d.at) =>
                    {
                        round.extend(c.salt);
                    }
                    _ => break,
                }
            }
            round.reverse();
        }
        key(seq, d, &round)
    }

    /// Notes the host's commitment for the decisions made at log length `at` (from its welcome).
    pub fn expect_draws(&mut self, at: u64, digest: Digest) {
        self.commitments.insert(at, digest);
    }

    /// The host's commitment for the decisions made at log length `at`, if this copy has it.
    pub fn commitment_at(&self, at: u64) -> Option<Digest> {
        self.commitments.get(&at).copied()
    }

    fn push(&mut self, entry: Entry, start: usize, maker: Option<Maker>, drew: bool) {
        let hidden = matches!(&entry, Entry::Commit(c) if c.salt.is_some());
        let next = match &entry {
            Entry::Commit(c) => c.next,
            Entry::Undo(u) => u.next,
        };
        if let Some(next) = next {
            // A welcome's commitment for the same length is newer: a host that continued the
            // game committed to it after the entries a catch-up brings.
            self.commitments.entry(entry.seq() + 1).or_insert(next);
        }
        if maker.is_some() {
            self.effective.push(self.entries.len());
        }
        self.entries.push(entry);
        self.applied.push(Applied {
            start,
            maker,
            hidden,
            drew,
        });
    }

    /// Applies the host's next entry (its `seq` must be [`Replica::len`]) and checks every hash it
    /// carries. At the first difference the copy stops: the desync is kept and returned, and no
    /// further entry is applied.
    pub fn receive(&mut self, entry: &Entry) -> Result<(), Desync> {
        self.receive_entry(entry, true)
    }

    /// [`Replica::receive`] for an entry of a catch-up: its draw secret is not checked against
    /// this copy's commitments, which may be an earlier host's for the same place (the copies
    /// that received it as it was made checked it).
    pub fn receive_caught_up(&mut self, entry: &Entry) -> Result<(), Desync> {
        self.receive_entry(entry, false)
    }

    fn receive_entry(&mut self, entry: &Entry, live: bool) -> Result<(), Desync> {
        if let Some(d) = &self.desync {
            return Err(d.clone());
        }
        let result = match entry {
            Entry::Commit(c) => self.receive_commit(c, live),
            Entry::Undo(u) => self.receive_undo(u),
        };
        if let Err(d) = &result {
            self.desync = Some(d.clone());
        }
        result
    }

    /// Stops this copy at entry `seq`, which it refuses for `why` (a check made outside the
    /// replica: a hidden pick's commitment, a decision in this player's name it never made).
    pub(crate) fn refuse(&mut self, seq: u64, why: String) {
        self.desync = Some(parted(
            seq,
            self.game.cursor + 1,
            "the next entry".into(),
            why,
        ));
    }

    fn receive_commit(&mut self, c: &Commit, live: bool) -> Result<(), Desync> {
        let number = self.game.cursor + 1;
        let action: R::Action = decode_action(&c.action).map_err(|e| {
            parted(
                c.seq,
                number,
                "an action that does not decode".into(),
                e.to_string(),
            )
        })?;
        let description = format!("{action:?}");
        let Some(maker) = self.maker(&action) else {
            return Err(parted(
                c.seq,
                number,
                description,
                "no seat to move here may take it".into(),
            ));
        };
        if !self.may_decide(maker, c.by) {
            return Err(parted(
                c.seq,
                number,
                description,
                format!(
                    "the host says player {} made it, and it is player {}'s to make",
                    c.by,
                    self.player_of(maker)
                ),
            ));
        }
        let at = c.draws.map_or(c.seq, |d| d.at);
        let promised = self.commitments.get(&at).filter(|_| live);
        match (&c.draws, promised) {
            (Some(d), Some(p)) if commitment(&d.secret) != *p => {
                return Err(parted(
                    c.seq,
                    number,
                    description,
                    format!(
                        "the host's draw secret for entry {} is not the one it committed to",
                        d.at
                    ),
                ));
            }
            (None, Some(_)) => {
                return Err(parted(
                    c.seq,
                    number,
                    description,
                    "the host committed to a draw secret here and reveals none: its draws would \
                     be the seed's, which everyone can compute ahead"
                        .into(),
                ));
            }
            _ => {}
        }
        let by = self.draw_key(c.seq, c.draws.as_ref(), c.salt.is_some());
        let mut drew = false;
        let start = self.game.cursor;
        if let Err(e) = self.game.apply(action) {
            return Err(parted(
                c.seq,
                number,
                description,
                format!("the rules refuse it here: {e}"),
            ));
        }
        let mut step = 0;
        let mut description = description;
        loop {
            let found = self.hash();
            let expected = c.hashes.get(step).copied();
            if expected != Some(found) {
                return Err(Desync {
                    seq: c.seq,
                    action: self.game.cursor,
                    description,
                    expected,
                    found: Some(found),
                    why: match expected {
                        Some(e) => format!("state hash {found} instead of {e}"),
                        None => "the host ran no such step".into(),
                    },
                });
            }
            step += 1;
            let next = if step <= MAX_AUTOMATIC {
                self.game
                    .automatic_drawn_by(self.setup.seeded_ties, false, by)
            } else {
                None
            };
            let Some(a) = next else { break };
            drew |= matches!(self.game.to_move(), ToMove::Chance { .. });
            description = format!("{a:?}");
            if let Err(e) = self.game.apply(a) {
                return Err(parted(
                    c.seq,
                    self.game.cursor + 1,
                    description,
                    format!("the rules refuse their own step: {e}"),
                ));
            }
        }
        if step < c.hashes.len() {
            return Err(Desync {
                seq: c.seq,
                action: self.game.cursor + 1,
                description: "the step after the last one this copy runs".into(),
                expected: c.hashes.get(step).copied(),
                found: None,
                why: format!(
                    "the host ran {} steps after the decision, this copy {}",
                    c.hashes.len() - 1,
                    step - 1
                ),
            });
        }
        self.push(Entry::Commit(c.clone()), start, Some(maker), drew);
        Ok(())
    }

    fn receive_undo(&mut self, u: &UndoGranted) -> Result<(), Desync> {
        let start = self.game.cursor;
        let to = usize::try_from(u.to).unwrap_or(usize::MAX);
        // The undo policy, checked as the host checks it: the last decision in effect is the
        // asker's, no other seat decided since, and it goes back to where that decision began.
        match self.undoable(|m| self.may_decide(m, u.by)) {
            Ok(back) if back == to => {}
            Ok(back) => {
                return Err(parted(
                    u.seq,
                    start,
                    format!("an undo to action {to}"),
                    format!("player {}'s last decision began at action {back}", u.by),
                ));
            }
            Err(why) => {
                return Err(parted(
                    u.seq,
                    start,
                    format!("an undo asked by player {}", u.by),
                    format!("the undo policy refuses it: {why}"),
                ));
            }
        }
        if to > start {
            return Err(parted(
                u.seq,
                start,
                format!("an undo to action {to}"),
                format!("the game is at action {start}: an undo goes back"),
            ));
        }
        self.go_back(to);
        let found = self.hash();
        if found != u.hash {
            return Err(Desync {
                seq: u.seq,
                action: to,
                description: format!("the undo back to action {to}"),
                expected: Some(u.hash),
                found: Some(found),
                why: format!("state hash {found} instead of {}", u.hash),
            });
        }
        self.push(Entry::Undo(u.clone()), start, None, false);
        Ok(())
    }

    fn go_back(&mut self, to: usize) {
        self.game.go_to(to);
        while let Some(&i) = self.effective.last() {
            if self.applied[i].start < to {
                break;
            }
            self.effective.pop();
        }
    }

    /// Where an undo of the last decision in effect goes, when `mine` says its maker is the
    /// asker's: it is not a hidden pick, and no other seat has decided since. Otherwise why not.
    pub fn undoable(&self, mine: impl Fn(Maker) -> bool) -> Result<usize, String> {
        let Some(&i) = self.effective.last() else {
            return Err("there is no decision to undo".into());
        };
        let a = self.applied[i];
        if a.hidden {
            return Err(
                "a hidden pick is not undone: its player would pick again knowing the others'"
                    .into(),
            );
        }
        if !a.maker.is_some_and(&mine) {
            return Err("the last decision is not yours".into());
        }
        if self.applied[i + 1..]
            .iter()
            .any(|b| b.maker.is_some_and(|m| !mine(m)))
        {
            return Err("another seat has decided since".into());
        }
        if a.drew {
            return Err(
                "a card was drawn or a die rolled after it: undone, the draw would come again \
                 differently"
                    .into(),
            );
        }
        Ok(a.start)
    }

    /// Goes back to the game's log position `to` (from [`Replica::undoable`]) and appends the undo,
    /// which it returns; `next` is the host's commitment for the decisions made at the log's next length.
    pub fn undo(&mut self, to: usize, next: Option<Digest>) -> UndoGranted {
        let start = self.game.cursor;
        let by = self
            .effective
            .last()
            .and_then(|&i| self.applied[i].maker)
            .map_or(0, |m| self.player_of(m));
        self.go_back(to.min(start));
        let u = UndoGranted {
            seq: self.len(),
            by,
            to: self.game.cursor as u64,
            hash: self.hash(),
            next,
        };
        self.push(Entry::Undo(u.clone()), start, None, false);
        u
    }

    /// The copy after its first `len` entries only: what a copy ahead of a new host keeps.
    pub fn truncated(&self, len: u64) -> Replica<R> {
        let mut game = self.game.clone();
        game.go_to(0);
        let mut copy = Replica::new(game, self.setup.clone());
        for e in self
            .entries
            .iter()
            .take(usize::try_from(len).unwrap_or(usize::MAX))
        {
            // These entries were applied once from the same start, so they apply again.
            let _ = copy.receive_caught_up(e);
        }
        copy
    }
}

/// A desync at an action whose state this copy did not reach.
fn parted(seq: u64, action: usize, description: String, why: String) -> Desync {
    Desync {
        seq,
        action,
        description,
        expected: None,
        found: None,
        why,
    }
}

/// What a seat's automatic player does next ([`Replica::auto_move`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AutoMove<A> {
    /// Propose this decision.
    Propose(A),
    /// Commit to this hidden pick for this hero.
    Secret(usize, A),
}

impl<R: foehold_core::rules::Present> Replica<R> {
    /// The next move of a seat played by the hero autopilot: `mine` says which makers are the
    /// seat's, `committed` which of its heroes have committed to a hidden pick already. A tie the
    /// table breaks is broken by the seeded pick.
    pub fn auto_move(
        &self,
        mine: impl Fn(Maker) -> bool,
        committed: impl Fn(usize) -> bool,
    ) -> Option<AutoMove<R::Action>> {
        let state = &self.game.state;
        let secret = crate::secret::choosing_in_secret::<R>(state);
        if !secret.is_empty() {
            let h = secret
                .into_iter()
                .find(|&h| mine(Maker::Hero(h)) && !committed(h))?;
            return R::autopilot(state, h).map(|a| AutoMove::Secret(h, a));
        }
        match self.game.to_move() {
            ToMove::Heroes(heroes) => {
                let h = heroes.into_iter().find(|&h| mine(Maker::Hero(h)))?;
                R::autopilot(state, h).map(AutoMove::Propose)
            }
            ToMove::Tie { .. } if mine(Maker::Table) => {
                self.game.automatic(true, false).map(AutoMove::Propose)
            }
            _ => None,
        }
    }
}
