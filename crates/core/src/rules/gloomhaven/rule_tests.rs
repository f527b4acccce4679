//! Rule tests on hand-made scenarios and stacked decks: turn order, focus, elements, money, card order.

use std::sync::Arc;

use super::actions::{Action, Event};
use super::log;
use super::scenario::{Scenario, map_hex};
use super::state::{Actor, FigureId, Half, Pending, Phase, State};
use crate::hex::{Hex, hex};
use crate::modifiers::card::Card;
use crate::modifiers::deck::ModifierDeck;
use crate::rules::{ActionError, TieBreaker};

/// A hero card with `initiative`: attack 1 on top, move 2 below.
fn card(name: &str, initiative: u32) -> String {
    format!(
        "(name: \"{name}\", initiative: {initiative}, top: (effects: [Attack(value: 1)]), bottom: (effects: [Move(2)]))"
    )
}

/// A hero with the given card initiatives.
fn hero(name: &str, hp: u32, initiatives: &[u32]) -> String {
    let cards: Vec<String> = initiatives
        .iter()
        .enumerate()
        .map(|(i, n)| card(&format!("{name} {i}"), *n))
        .collect();
    format!(
        "(name: \"{name}\", hp: {hp}, cards: [{}])",
        cards.join(", ")
    )
}

/// A monster type with `hp` hit points, move 2, attack 2, and the given ability cards.
fn monster(name: &str, hp: u32, cards: &[&str]) -> String {
    format!(
        "(name: \"{name}\", normal: (hp: {hp}, move: 2, attack: 2), elite: (hp: {hp}, move: 2, attack: 2), deck: [{}])",
        cards.join(", ")
    )
}

/// A scenario from its map, legend entries, heroes and monsters.
fn scenario(map: &[&str], legend: &str, heroes: &[String], monsters: &[String]) -> Arc<Scenario> {
    scenario_with(map, legend, heroes, monsters, "")
}

/// A scenario with `extra` fields (`round_limit: 2, `…).
fn scenario_with(
    map: &[&str],
    legend: &str,
    heroes: &[String],
    monsters: &[String],
    extra: &str,
) -> Arc<Scenario> {
    let rows: Vec<String> = map.iter().map(|r| format!("\"{r}\"")).collect();
    let text = format!(
        "Scenario(rules: Gloomhaven, name: \"test\", grid: Hex, map: [{}], legend: {{ {legend} }}, heroes: [{}], monsters: [{}], {extra} victory: AllFoesDead)",
        rows.join(", "),
        heroes.join(", "),
        monsters.join(", ")
    );
    Arc::new(Scenario::parse("test.ron", &text).unwrap_or_else(|e| panic!("{e}")))
}

/// Stacked decks are drawn from the top: a test applies an action and enters outcome 0 for every
/// card it draws, returning the events of both.
trait DrawTop {
    fn apply_top(&mut self, action: Action) -> Result<Vec<Event>, ActionError>;
}

impl DrawTop for State {
    fn apply_top(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let mut events = self.apply(action)?;
        while self.drawing.is_some() {
            events.extend(self.apply(Action::Draw(0))?);
        }
        Ok(events)
    }
}

fn setup(s: Arc<Scenario>) -> State {
    let mut st = State::new(s, 7, TieBreaker::Table).unwrap();
    st.apply_top(Action::Advance).unwrap();
    st
}

fn stack(cards: &[&str]) -> ModifierDeck {
    // The top of the pile is its last card.
    ModifierDeck::stacked(
        cards
            .iter()
            .rev()
            .map(|c| Card::parse(c).unwrap())
            .collect(),
    )
}

fn select(st: &mut State, hero: usize, leading: usize, other: usize) {
    st.apply_top(Action::SelectCards {
        hero,
        leading,
        other,
    })
    .unwrap();
}

/// Applies `Advance` until `stop` holds (or a tie is pending), returning every event.
fn advance_until(st: &mut State, stop: impl Fn(&State) -> bool) -> Vec<Event> {
    let mut all = Vec::new();
    for _ in 0..200 {
        if stop(st) || st.pending.is_some() || st.phase.is_over() {
            return all;
        }
        all.extend(st.apply_top(Action::Advance).unwrap());
    }
    panic!("the state never got there");
}

fn focus_of(events: &[Event], monster: usize) -> Vec<FigureId> {
    events
        .iter()
        .find_map(|e| match e {
            Event::FoeTargeted {
                monster: m, focus, ..
            } if *m == monster => Some(focus.clone()),
            _ => None,
        })
        .expect("the monster chose a focus")
}

/// Ann and Bob stand two hexes from the rat, on either side.
fn ann_and_bob(ann: &[u32], bob: &[u32], rat: &[&str]) -> State {
    setup(scenario(
        &["1.a.2"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, ann), hero("Bob", 10, bob)],
        &[monster("Rat", 5, rat)],
    ))
}

#[test]
fn the_focus_settles_a_tied_initiative_by_the_other_card() {
    let mut st = ann_and_bob(
        &[20, 30],
        &[20, 25],
        &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
    );
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::FoeTurn { .. }));
    assert!(ev.contains(&Event::TurnOrder {
        order: vec![Actor::Hero(1), Actor::Hero(0), Actor::Monsters(0)]
    }));
    let ev = advance_until(&mut st, |s| s.plan.is_some());
    assert_eq!(focus_of(&ev, 0), vec![FigureId::Hero(1)]);
}

#[test]
fn the_focus_leaves_heroes_tied_on_both_cards_to_the_players() {
    let mut st = ann_and_bob(
        &[20, 30],
        &[20, 30],
        &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
    );
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    advance_until(&mut st, |_| false);
    // The turn order tie first, then the focus tie.
    assert!(matches!(st.pending, Some(Pending::TurnOrder { .. })));
    st.apply_top(Action::Choose(0)).unwrap();
    let ev = advance_until(&mut st, |_| false);
    assert_eq!(focus_of(&ev, 0), vec![FigureId::Hero(0), FigureId::Hero(1)]);
}

#[test]
fn a_long_resting_hero_acts_after_a_monster_at_initiative_99() {
    let mut st = ann_and_bob(
        &[20, 30, 40],
        &[20, 25, 40],
        &["(name: \"Doze\", initiative: 99, actions: [Move(0), Attack(value: 0)])"],
    );
    st.heroes[0].hand = vec![2];
    st.heroes[0].discard = vec![0, 1];
    st.apply_top(Action::LongRest { hero: 0, lose: 0 }).unwrap();
    select(&mut st, 1, 0, 1);
    let ev = st.apply_top(Action::Advance).unwrap();
    assert!(ev.contains(&Event::TurnOrder {
        order: vec![Actor::Hero(1), Actor::Monsters(0), Actor::Hero(0)]
    }));
}

#[test]
fn heroes_still_act_before_monsters_of_the_same_initiative() {
    let mut st = ann_and_bob(
        &[40, 30],
        &[20, 25],
        &["(name: \"Bite\", initiative: 40, actions: [Move(0), Attack(value: 0)])"],
    );
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    let ev = st.apply_top(Action::Advance).unwrap();
    assert!(st.pending.is_none());
    assert!(ev.contains(&Event::TurnOrder {
        order: vec![Actor::Hero(1), Actor::Hero(0), Actor::Monsters(0)]
    }));
}

#[test]
fn heroes_tied_on_both_cards_are_ordered_by_the_players() {
    let mut st = ann_and_bob(
        &[20, 30],
        &[20, 30],
        &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
    );
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    let ev = st.apply_top(Action::Advance).unwrap();
    assert_eq!(st.pending, Some(Pending::TurnOrder { start: 0, len: 2 }));
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.contains("Ann, Bob: same initiative"))
    );
    let ev = st.apply_top(Action::Choose(1)).unwrap();
    assert!(ev.contains(&Event::TurnOrder {
        order: vec![Actor::Hero(1), Actor::Hero(0), Actor::Monsters(0)]
    }));
    assert_eq!(
        st.phase,
        Phase::HeroTurn {
            hero: 1,
            played: None
        }
    );
}

#[test]
fn two_resting_heroes_are_ordered_by_the_players() {
    let mut st = ann_and_bob(
        &[20, 30, 40],
        &[20, 25, 40],
        &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
    );
    for h in 0..2 {
        st.heroes[h].hand = vec![2];
        st.heroes[h].discard = vec![0, 1];
        st.apply_top(Action::LongRest { hero: h, lose: 0 }).unwrap();
    }
    st.apply_top(Action::Advance).unwrap();
    assert_eq!(st.pending, Some(Pending::TurnOrder { start: 1, len: 2 }));
    let ev = st.apply_top(Action::Choose(1)).unwrap();
    assert!(ev.contains(&Event::TurnOrder {
        order: vec![Actor::Monsters(0), Actor::Hero(1), Actor::Hero(0)]
    }));
}

#[test]
fn monster_types_on_the_same_initiative_are_ordered_by_the_players() {
    let mut st = setup(scenario(
        &["1.a.b"],
        "'a': (monster: \"Rat\"), 'b': (monster: \"Newt\")",
        &[hero("Ann", 10, &[20, 30])],
        &[
            monster(
                "Rat",
                5,
                &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
            ),
            monster(
                "Newt",
                5,
                &["(name: \"Lick\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
            ),
        ],
    ));
    select(&mut st, 0, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    assert_eq!(st.pending, Some(Pending::TurnOrder { start: 1, len: 2 }));
    let ev = st.apply_top(Action::Choose(1)).unwrap();
    assert!(ev.contains(&Event::TurnOrder {
        order: vec![Actor::Hero(0), Actor::Monsters(1), Actor::Monsters(0)]
    }));
}

#[test]
fn a_tie_the_table_leaves_to_the_dice_is_logged_as_the_dice_choice() {
    let mut st = ann_and_bob(
        &[20, 30],
        &[20, 30],
        &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
    );
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    use crate::rules::{Rules, Seat};
    type G = super::Gloomhaven;
    let n = st.pending_options();
    assert_eq!(n, 2, "Ann and Bob tie on both cards");
    let mut table: Vec<Action> = (0..n).map(Action::Choose).collect();
    table.push(Action::ChooseByDice);
    assert_eq!(G::legal_actions(&st, Seat::Table), table);
    let pick = st.seeded_pick(n);
    let mut clicked = st.clone();
    let by_click = clicked.apply_top(Action::Choose(pick)).unwrap();
    let ev = st.apply_top(Action::ChooseByDice).unwrap();
    assert!(ev.contains(&Event::TieBroken {
        index: pick,
        seeded: true
    }));
    assert!(by_click.contains(&Event::TieBroken {
        index: pick,
        seeded: false
    }));
    // The same option either way; only who chose it differs.
    assert_eq!(st.pending, clicked.pending);
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.contains("by the dice"))
    );
    assert!(
        log::lines(&clicked, &by_click)
            .iter()
            .any(|l| l.contains("by the table"))
    );
}

#[test]
fn the_seeded_tie_breaker_orders_ties_headless() {
    let mut st = ann_and_bob(
        &[20, 30],
        &[20, 30],
        &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
    );
    st.tie_breaker = TieBreaker::Seeded;
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    let pick = super::autopilot::next_action(&st);
    assert!(matches!(pick, Some(Action::Choose(i)) if i < 2));
}

#[test]
fn the_first_monster_of_a_type_infuses_for_the_whole_type() {
    let mut st = setup(scenario(
        &["1..aa"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[20, 30])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Spark\", initiative: 50, actions: [Infuse(Fire)])"],
        )],
    ));
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    let infused: Vec<FigureId> = ev
        .iter()
        .filter_map(|e| match e {
            Event::ElementInfused { by, .. } => Some(*by),
            _ => None,
        })
        .collect();
    assert_eq!(infused, vec![FigureId::Monster(0)]);
    assert_eq!(st.elements[0], Level::Strong);
}

/// Ann next to a rat with 1 hit point, a second rat further on.
fn ann_and_two_rats() -> State {
    let mut st = setup(scenario(
        &["1a.a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[20, 30])],
        &[monster(
            "Rat",
            1,
            &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
        )],
    ));
    st.heroes[0].deck = stack(&["+0", "+0", "+0"]);
    select(&mut st, 0, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    st
}

fn play(st: &mut State, card: usize, half: Half, path: &[Hex], targets: &[Hex]) -> Vec<Event> {
    st.apply_top(Action::Play {
        card,
        half,
        basic: false,
        path: path.to_vec(),
        targets: targets.to_vec(),
        ally: None,
    })
    .unwrap()
}

#[test]
fn a_dead_monster_leaves_a_logged_money_token_that_a_hero_loots_at_the_end_of_its_turn() {
    let mut st = ann_and_two_rats();
    let rat = hex(1, 0);
    let ev = play(&mut st, 0, Half::Top, &[], &[rat]);
    assert!(ev.contains(&Event::MoneyDropped {
        figure: FigureId::Monster(0),
        hex: rat
    }));
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.contains("Rat 1 leaves a money token on (1, 0)"))
    );
    assert_eq!(st.money, vec![rat]);
    let view = <super::Gloomhaven as crate::rules::Present>::view(&st);
    assert_eq!(view.tokens.len(), 1);
    assert_eq!(view.tokens[0].cell, (1, 0));
    // Ending the turn on the token's hex picks it up.
    let ev = play(&mut st, 1, Half::Bottom, &[rat], &[]);
    assert!(ev.contains(&Event::MoneyLooted {
        hero: 0,
        hexes: vec![rat]
    }));
    assert!(st.money.is_empty());
    assert_eq!(st.heroes[0].money, 1);
}

#[test]
fn a_loot_action_picks_up_the_tokens_in_range() {
    let loot = "(name: \"Grab\", initiative: 20, top: (effects: [Attack(value: 1)]), bottom: (effects: [Loot(1)]))";
    let mut st = setup(scenario(
        &["1..a"],
        "'a': (monster: \"Rat\")",
        &[format!(
            "(name: \"Ann\", hp: 10, cards: [{loot}, {}])",
            card("Other", 30)
        )],
        &[monster(
            "Rat",
            1,
            &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
        )],
    ));
    // One token next to Ann, one two hexes away.
    st.money = vec![hex(1, 0), hex(2, -1)];
    select(&mut st, 0, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    let ev = play(&mut st, 0, Half::Bottom, &[], &[]);
    assert!(ev.contains(&Event::MoneyLooted {
        hero: 0,
        hexes: vec![hex(1, 0)]
    }));
    assert_eq!(st.money, vec![hex(2, -1)]);
}

#[test]
fn the_money_and_experience_are_counted_when_the_scenario_ends() {
    let mut st = setup(scenario(
        &["1a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[20, 30])],
        &[monster(
            "Rat",
            1,
            &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
        )],
    ));
    st.heroes[0].deck = stack(&["+0"]);
    st.heroes[0].money = 2;
    select(&mut st, 0, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    let ev = play(&mut st, 0, Half::Top, &[], &[hex(1, 0)]);
    assert!(ev.contains(&Event::Victory));
    // The scenario names no level: the one Ann's level 1 recommends, 1, where a token is worth 2
    // gold and a victory 6 experience.
    assert!(ev.contains(&Event::Reckoned {
        tally: vec![super::actions::Tally {
            tokens: 2,
            gold: 4,
            experience: 6,
            bonus: 6,
            items: vec![],
        }]
    }));
    assert!(log::lines(&st, &ev).iter().any(|l| {
        l.ends_with("what each takes away: Ann 4 gold (2 tokens), 6 experience (6 bonus)")
    }));
}

#[test]
fn a_fallen_hero_leaves_no_money_token() {
    let mut st = setup(scenario(
        &["1a.2"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 1, &[60, 70]), hero("Bob", 10, &[65, 70])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Bite\", initiative: 10, actions: [Move(0), Attack(value: 0)])"],
        )],
    ));
    st.monster_deck = stack(&["+0"]);
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    assert!(st.heroes[0].exhausted, "{:#?}", log::lines(&st, &ev));
    assert!(st.money.is_empty());
    let trace = ev
        .iter()
        .find_map(|e| match e {
            Event::AttackResolved { trace, .. } => Some(trace.clone()),
            _ => None,
        })
        .unwrap();
    assert!(!trace.iter().any(|t| t.contains("leaves a money token")));
}

/// The kinds of the events, in order, among those a card's actions give.
fn card_steps(events: &[Event]) -> Vec<&'static str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ShieldGained { .. } => Some("shield"),
            Event::Healed { .. } => Some("heal"),
            Event::PathChosen {
                figure: FigureId::Monster(_),
                ..
            } => Some("move"),
            Event::AttackResolved {
                attacker: FigureId::Monster(_),
                ..
            } => Some("attack"),
            Event::ElementInfused { .. } => Some("infuse"),
            _ => None,
        })
        .collect()
}

/// Ann three hexes from a rat playing `card`, the monsters' deck stacked with +0s.
fn ann_and_a_rat(card: &str) -> State {
    let mut st = setup(scenario(
        &["1..a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[20, 30, 40, 45])],
        &[monster("Rat", 5, &[card])],
    ));
    st.monster_deck = stack(&["+0", "+0", "+0"]);
    select(&mut st, 0, 0, 1);
    st
}

#[test]
fn a_monster_card_resolves_its_actions_in_the_printed_order() {
    let mut st = ann_and_a_rat(
        "(name: \"Brace\", initiative: 50, actions: [Infuse(Ice), Shield(1), Move(0), Attack(value: 0), Heal(1)])",
    );
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(
        card_steps(&ev),
        vec!["infuse", "shield", "move", "attack", "heal"]
    );
}

#[test]
fn an_attack_printed_before_the_move_is_made_from_where_the_monster_stands() {
    // Ann is out of reach where the rat stands: no attack, then it walks up to her.
    let mut st =
        ann_and_a_rat("(name: \"Lunge\", initiative: 50, actions: [Attack(value: 0), Move(0)])");
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(card_steps(&ev), vec!["move"]);
    assert!(st.map.0.adjacent(st.monsters[0].hex, st.heroes[0].hex));
    // The next round it stands next to Ann: it attacks, then has nowhere closer to go.
    st.apply_top(Action::Advance).unwrap();
    select(&mut st, 0, 2, 3);
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(card_steps(&ev), vec!["attack"]);
}

/// The second edition settles a card's element by the first monster of the type that activates:
/// here an elite rat too far from Ann to attack, whose consumption still strengthens the normal rat
/// that does attack (the old reading waited for the first rat that attacked).
#[test]
fn the_first_monster_of_a_type_to_activate_consumes_for_the_whole_type() {
    let mut st = setup(scenario(
        &["1.a......b"],
        "'a': (monster: \"Rat\"), 'b': (monster: \"Rat\", elite: true)",
        &[hero("Ann", 10, &[20, 30])],
        &[monster(
            "Rat",
            5,
            &[
                "(name: \"Flare\", initiative: 50, actions: [Move(0), Attack(value: 0, consume: (element: Fire, attack: 1))])",
            ],
        )],
    ));
    let elite = st.monsters.iter().position(|m| m.elite).unwrap();
    st.elements[0] = Level::Strong;
    st.monster_deck = stack(&["+0", "+0"]);
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    let consumed: Vec<FigureId> = ev
        .iter()
        .filter_map(|e| match e {
            Event::ElementConsumed { by, .. } => Some(*by),
            _ => None,
        })
        .collect();
    // The elite acts first, attacks no one, and consumes for the type.
    assert_eq!(consumed, vec![FigureId::Monster(elite)]);
    assert_eq!(st.elements[0], Level::Inert);
    assert_eq!(
        card_steps(&ev).iter().filter(|s| **s == "attack").count(),
        1
    );
    // The normal rat's attack: 2, +1 for the fire its type consumed, +0 drawn.
    assert_eq!(st.heroes[0].hp, 10 - 3);
}

#[test]
fn a_monster_attacks_its_focus_first() {
    let mut st = ann_and_bob(
        &[30, 40],
        &[20, 40],
        &["(name: \"Volley\", initiative: 50, actions: [Attack(value: 0, range: 3, targets: 2)])"],
    );
    st.monster_deck = stack(&["+0", "+0"]);
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    let targets: Vec<FigureId> = ev
        .iter()
        .filter_map(|e| match e {
            Event::AttackResolved { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    assert_eq!(targets, vec![FigureId::Hero(1), FigureId::Hero(0)]);
}

/// Who a round's attacks hit, in order.
fn attacked(events: &[Event]) -> Vec<FigureId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::AttackResolved { target, .. } => Some(*target),
            _ => None,
        })
        .collect()
}

/// Bob, Ann next to a ranged rat, open floor behind it; `extra` names the edition.
fn a_ranged_rat_next_to_ann(extra: &str) -> State {
    let mut st = setup(scenario_with(
        &["2.1a..."],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[20, 40]), hero("Bob", 10, &[30, 40])],
        &[monster(
            "Rat",
            5,
            &[
                "(name: \"Volley\", initiative: 50, actions: [Move(0), Attack(value: 0, range: 3, targets: 2)])",
            ],
        )],
        extra,
    ));
    st.monster_deck = stack(&["+0", "+0", "+0", "+0"]);
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    st
}

#[test]
fn under_the_second_edition_a_ranged_monster_steps_back_off_its_focus() {
    // The default edition: it steps away from Ann until she is not at disadvantage, and Bob is
    // then out of range.
    let mut st = a_ranged_rat_next_to_ann("");
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(st.monsters[0].hex, map_hex(4, 0));
    assert_eq!(attacked(&ev), vec![FigureId::Hero(0)]);
    let trace = ev
        .iter()
        .find_map(|e| match e {
            Event::FoeTargeted { trace, .. } => Some(trace.join("\n")),
            _ => None,
        })
        .unwrap();
    assert!(
        trace.contains("2e: it attacks its focus without disadvantage first"),
        "{trace}"
    );
    // Frosthaven's order takes the second target first and attacks Ann at disadvantage.
    let mut st = a_ranged_rat_next_to_ann("preset: Frosthaven,");
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(st.monsters[0].hex, map_hex(3, 0));
    assert_eq!(attacked(&ev), vec![FigureId::Hero(0), FigureId::Hero(1)]);
}

/// Carl and Ann on one side of a ranged rat that does not move, Bob on the other: Ann is its
/// focus, and Bob (nearer) or Carl (earlier) can be its second target.
fn a_rat_between_three(extra: &str) -> State {
    let mut st = setup(scenario_with(
        &["3.1a.2"],
        "'a': (monster: \"Rat\")",
        &[
            hero("Ann", 10, &[20, 45]),
            hero("Bob", 10, &[40, 45]),
            hero("Carl", 10, &[10, 45]),
        ],
        &[monster(
            "Rat",
            5,
            &[
                "(name: \"Volley\", initiative: 50, actions: [Attack(value: 0, range: 3, targets: 2)])",
            ],
        )],
        extra,
    ));
    st.monster_deck = stack(&["+0", "+0", "+0", "+0"]);
    for h in 0..3 {
        select(&mut st, h, 0, 1);
    }
    st
}

#[test]
fn under_the_second_edition_the_focus_rules_pick_the_second_target() {
    let mut st = a_rat_between_three("");
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(focus_of(&ev, 0), vec![FigureId::Hero(0)]);
    // Bob is two hexes from the rat, Carl three: proximity ranks Bob first, before initiative.
    assert_eq!(attacked(&ev), vec![FigureId::Hero(0), FigureId::Hero(1)]);
    // Frosthaven leaves the second target to the players.
    let mut st = a_rat_between_three("preset: Frosthaven,");
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert!(st.pending.is_some(), "the players pick Bob or Carl");
    assert!(attacked(&ev).is_empty());
    // Jaws of the Lion leaves proximity out of the focus and the ranks: Carl (initiative 10) is
    // the focus, and Ann (20) comes before Bob (40).
    let mut st = a_rat_between_three("preset: JawsOfTheLion,");
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(focus_of(&ev, 0), vec![FigureId::Hero(2)]);
    assert_eq!(attacked(&ev), vec![FigureId::Hero(2), FigureId::Hero(0)]);
}

#[test]
fn an_unclear_modifier_draw_is_the_hero_players_choice_and_the_half_goes_on() {
    let half = "(name: \"Jab\", initiative: 20, top: (effects: [Attack(value: 1), Shield(1)]), bottom: (effects: [Move(2)]))";
    let mut st = setup(scenario(
        &["1a"],
        "'a': (monster: \"Rat\")",
        &[format!(
            "(name: \"Ann\", hp: 10, cards: [{half}, {}])",
            card("Other", 30)
        )],
        &[monster(
            "Rat",
            5,
            &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
        )],
    ));
    // With advantage, +1 against +0 poison: neither is clearly better.
    st.heroes[0].deck = stack(&["+1", "+0 poison"]);
    st.heroes[0].conditions.push(Cond {
        condition: Condition::Strengthen,
        fresh: true,
    });
    select(&mut st, 0, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    let ev = play(&mut st, 0, Half::Top, &[], &[hex(1, 0)]);
    assert!(matches!(st.pending, Some(Pending::HeroModifier { .. })));
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.contains("Ann chooses how the modifier cards count against Rat 1"))
    );
    // The choice is the hero's player's, not the table's; the half waits for it.
    use crate::rules::{Rules, Seat, ToMove};
    type G = super::Gloomhaven;
    assert_eq!(G::to_move(&st), ToMove::Heroes(vec![0]));
    assert_eq!(
        G::legal_actions(&st, Seat::Hero(0)),
        vec![Action::Choose(0), Action::Choose(1)]
    );
    assert!(G::legal_actions(&st, Seat::Table).is_empty());
    assert!(matches!(
        st.clone().apply_top(Action::ChooseByDice),
        Err(ActionError::Invalid(_))
    ));
    assert!(!ev.iter().any(|e| matches!(e, Event::ShieldGained { .. })));
    // Option 1 (listed second: less damage) is +0 with poison.
    let ev = st.apply_top(Action::Choose(1)).unwrap();
    assert!(ev.contains(&Event::ChoiceMade { hero: 0, index: 1 }));
    assert_eq!(st.monsters[0].hp, 4);
    assert!(st.has(FigureId::Monster(0), Condition::Poison));
    assert!(ev.contains(&Event::ShieldGained {
        figure: FigureId::Hero(0),
        amount: 1
    }));
    assert_eq!(
        st.phase,
        Phase::HeroTurn {
            hero: 0,
            played: Some((0, Half::Top, false))
        }
    );
}

#[test]
fn the_autopilot_takes_the_hero_draw_that_deals_the_most_damage() {
    let mut st = setup(scenario(
        &["1a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[20, 30])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
        )],
    ));
    st.heroes[0].deck = stack(&["+1", "+0 poison"]);
    st.heroes[0].conditions.push(Cond {
        condition: Condition::Strengthen,
        fresh: true,
    });
    select(&mut st, 0, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    play(&mut st, 0, Half::Top, &[], &[hex(1, 0)]);
    use crate::rules::Rules;
    let pick = super::Gloomhaven::autopilot(&st, 0).unwrap();
    assert_eq!(pick, Action::Choose(0));
    st.apply_top(pick).unwrap();
    assert_eq!(st.monsters[0].hp, 3);
}

#[test]
fn an_attack_value_below_zero_is_printed_as_zero() {
    let mut st = setup(scenario(
        &["1a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[60, 70])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Feeble\", initiative: 10, actions: [Attack(value: -3)])"],
        )],
    ));
    st.monster_deck = stack(&["+0"]);
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    let lines = log::lines(&st, &ev);
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("Rat 1 attacks Ann → 0 → 0 damage")),
        "{lines:#?}"
    );
}

#[test]
fn a_hero_exhausted_in_its_turn_leaves_no_infusion_behind() {
    let step = "(name: \"Spark Step\", initiative: 20, top: (effects: [Infuse(Fire), Move(1)]), bottom: (effects: [Move(2)]))";
    let mut st = setup(scenario(
        &["1^.a2"],
        "'a': (monster: \"Rat\")",
        &[
            format!(
                "(name: \"Ann\", hp: 1, cards: [{step}, {}])",
                card("Other", 30)
            ),
            hero("Bob", 10, &[40, 45]),
        ],
        &[monster(
            "Rat",
            5,
            &["(name: \"Doze\", initiative: 90, actions: [Shield(1)])"],
        )],
    ));
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    play(&mut st, 0, Half::Top, &[hex(1, 0)], &[]);
    assert!(st.heroes[0].exhausted);
    assert!(st.infusing.is_empty());
    advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(st.elements[0], Level::Inert);
}

#[test]
fn a_wild_infusion_makes_the_first_inert_element() {
    let mut st = ann_and_two_rats();
    st.elements[0] = Level::Strong;
    st.heroes[0].deck = stack(&["+0 wild"]);
    let ev = play(&mut st, 0, Half::Top, &[], &[hex(1, 0)]);
    assert!(ev.contains(&Event::ElementInfused {
        element: Element::Ice,
        by: FigureId::Hero(0)
    }));
}

#[test]
fn blessings_and_curses_are_logged_when_shuffled_in() {
    let mut st = ann_and_two_rats();
    st.heroes[0].deck = stack(&["+0 bless"]);
    let ev = play(&mut st, 0, Half::Top, &[], &[hex(1, 0)]);
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.ends_with("a bless is shuffled into Ann's modifier deck"))
    );
    assert_eq!(
        st.heroes[0]
            .deck
            .count(crate::modifiers::card::CardKind::Bless),
        1
    );
    let mut st = setup(scenario(
        &["1a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[60, 70])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Hex\", initiative: 10, actions: [Attack(value: 0)])"],
        )],
    ));
    st.monster_deck = stack(&["+0 curse"]);
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.ends_with("a curse is shuffled into Ann's modifier deck"))
    );
}

// ----- conditions, elements, rests, traps and round limits on stacked decks -----

use super::scenario::{Condition, Element};
use super::state::{Cond, Level};

fn give(st: &mut State, f: FigureId, condition: Condition) {
    st.conditions_mut(f).push(Cond {
        condition,
        fresh: false,
    });
}

/// Ann next to a rat that acts first (initiative 10) with `actions`; its deck is stacked with +0s.
fn rat_first(actions: &str) -> State {
    let card = format!("(name: \"Act\", initiative: 10, actions: [{actions}])");
    let mut st = setup(scenario(
        &["1a.2"],
        "'a': (monster: \"Rat\")",
        &[
            hero("Ann", 10, &[60, 70, 80, 85]),
            hero("Bob", 10, &[65, 70, 80, 85]),
        ],
        &[monster("Rat", 5, &[&card])],
    ));
    st.monster_deck = stack(&["+0", "+0", "+0", "+0"]);
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    st
}

fn until_heroes(st: &mut State) -> Vec<Event> {
    advance_until(st, |s| matches!(s.phase, Phase::HeroTurn { .. }))
}

fn damage_to(events: &[Event], target: FigureId) -> Vec<u32> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::AttackResolved {
                target: t, damage, ..
            } if *t == target => Some(*damage),
            _ => None,
        })
        .collect()
}

#[test]
fn poison_adds_one_to_attacks_and_a_heal_only_removes_it() {
    let mut st = rat_first("Move(0), Attack(value: 0)");
    give(&mut st, FigureId::Hero(0), Condition::Poison);
    let ev = until_heroes(&mut st);
    assert_eq!(damage_to(&ev, FigureId::Hero(0)), vec![3]);
    assert_eq!(st.heroes[0].hp, 7);
    let mut ev = Vec::new();
    let healed = st.heal(FigureId::Hero(0), 2, &mut ev);
    assert_eq!((healed, st.heroes[0].hp), (0, 7));
    assert!(!st.has(FigureId::Hero(0), Condition::Poison));
}

#[test]
fn a_wound_hurts_at_the_start_of_each_turn() {
    let mut st = rat_first("Shield(1)");
    give(&mut st, FigureId::Monster(0), Condition::Wound);
    let ev = until_heroes(&mut st);
    assert!(ev.contains(&Event::Suffered {
        figure: FigureId::Monster(0),
        amount: 1,
        cause: super::actions::Cause::Wound
    }));
    assert_eq!(st.monsters[0].hp, 4);
}

#[test]
fn a_stunned_monster_loses_its_turn_and_the_stun_ends_with_it() {
    let mut st = rat_first("Move(0), Attack(value: 0)");
    give(&mut st, FigureId::Monster(0), Condition::Stun);
    let ev = until_heroes(&mut st);
    assert!(ev.contains(&Event::Stunned {
        figure: FigureId::Monster(0)
    }));
    assert!(damage_to(&ev, FigureId::Hero(0)).is_empty());
    assert!(!st.has(FigureId::Monster(0), Condition::Stun));
}

#[test]
fn an_immobilized_monster_attacks_without_moving_and_a_disarmed_one_moves_without_attacking() {
    // Bob is the focus (Ann is invisible): immobilized, the rat cannot reach him.
    let mut st = rat_first("Move(0), Attack(value: 0)");
    give(&mut st, FigureId::Hero(0), Condition::Invisible);
    give(&mut st, FigureId::Monster(0), Condition::Immobilize);
    let ev = until_heroes(&mut st);
    assert_eq!(card_steps(&ev), Vec::<&str>::new());
    assert_eq!(st.monsters[0].hex, hex(1, 0));
    // Disarmed, it walks up to Bob and does not attack.
    let mut st = rat_first("Move(0), Attack(value: 0)");
    give(&mut st, FigureId::Hero(0), Condition::Invisible);
    give(&mut st, FigureId::Monster(0), Condition::Disarm);
    let ev = until_heroes(&mut st);
    assert_eq!(card_steps(&ev), vec!["move"]);
    assert!(st.map.0.adjacent(st.monsters[0].hex, st.heroes[1].hex));
}

#[test]
fn an_immobilized_hero_cannot_move() {
    let mut st = ann_and_two_rats();
    give(&mut st, FigureId::Hero(0), Condition::Immobilize);
    let e = st.apply_top(Action::Play {
        card: 1,
        half: Half::Bottom,
        basic: false,
        path: vec![hex(0, 1)],
        targets: vec![],
        ally: None,
    });
    assert!(e.is_err());
}

#[test]
fn a_muddled_monster_draws_with_disadvantage() {
    let mut st = rat_first("Move(0), Attack(value: 0)");
    st.monster_deck = stack(&["+1", "-1"]);
    give(&mut st, FigureId::Monster(0), Condition::Muddle);
    let ev = until_heroes(&mut st);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CardsDrawn {
            mode: crate::modifiers::draw::Mode::Disadvantage,
            ..
        }
    )));
    assert_eq!(damage_to(&ev, FigureId::Hero(0)), vec![1]);
}

#[test]
fn an_invisible_hero_is_never_the_focus() {
    let mut st = rat_first("Move(0), Attack(value: 0)");
    give(&mut st, FigureId::Hero(0), Condition::Invisible);
    let ev = until_heroes(&mut st);
    assert_eq!(focus_of(&ev, 0), vec![FigureId::Hero(1)]);
}

#[test]
fn an_infused_element_is_strong_then_waning_then_inert() {
    let mut st = rat_first("Infuse(Dark)");
    until_heroes(&mut st);
    let dark = Element::Dark.index();
    assert_eq!(st.elements[dark], Level::Strong);
    advance_until(&mut st, |s| s.phase == Phase::CardSelection && s.round == 2);
    assert_eq!(st.elements[dark], Level::Waning);
    select(&mut st, 0, 2, 3);
    select(&mut st, 1, 2, 3);
    advance_until(&mut st, |s| s.phase == Phase::CardSelection && s.round == 3);
    // The rat infused again in round 2.
    assert_eq!(st.elements[dark], Level::Waning);
}

#[test]
fn a_short_rest_loses_one_card_and_returns_the_rest() {
    let mut st = rat_first("Shield(1)");
    advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(st.heroes[0].discard, vec![0, 1]);
    let ev = st.apply_top(Action::ShortRest { hero: 0 }).unwrap();
    assert!(matches!(
        ev[0],
        Event::Rested {
            hero: 0,
            long: false,
            ..
        }
    ));
    assert_eq!(st.heroes[0].lost.len(), 1);
    assert_eq!(st.heroes[0].hand.len(), 3);
    assert!(st.apply_top(Action::ShortRest { hero: 0 }).is_err());
}

#[test]
fn a_long_rest_heals_two_and_loses_the_chosen_card() {
    let mut st = rat_first("Shield(1)");
    advance_until(&mut st, |s| s.phase == Phase::CardSelection && s.round == 2);
    st.heroes[0].hp = 5;
    st.apply_top(Action::LongRest { hero: 0, lose: 1 }).unwrap();
    select(&mut st, 1, 2, 3);
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert!(ev.contains(&Event::Rested {
        hero: 0,
        long: true,
        lost: 1,
        healed: 2
    }));
    assert_eq!(st.heroes[0].hp, 7);
    assert_eq!(st.heroes[0].lost, vec![1]);
    assert_eq!(st.heroes[0].hand, vec![0, 2, 3]);
}

#[test]
fn a_trap_deals_its_damage_once_and_is_gone() {
    let mut st = setup(scenario_with(
        &["1^.a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[20, 30])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Doze\", initiative: 90, actions: [Shield(1)])"],
        )],
        "trap_damage: 4,",
    ));
    select(&mut st, 0, 0, 1);
    st.apply_top(Action::Advance).unwrap();
    let ev = play(&mut st, 1, Half::Bottom, &[hex(1, 0)], &[]);
    assert!(ev.contains(&Event::Suffered {
        figure: FigureId::Hero(0),
        amount: 4,
        cause: super::actions::Cause::Trap
    }));
    assert_eq!(st.heroes[0].hp, 6);
    assert_eq!(
        st.map.0.terrain(hex(1, 0)),
        Some(crate::hex::Terrain::Floor)
    );
}

#[test]
fn the_heroes_lose_when_the_round_limit_ends_with_foes_left() {
    let mut st = setup(scenario_with(
        &["1..a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[20, 30])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Doze\", initiative: 90, actions: [Shield(1)])"],
        )],
        "round_limit: 1,",
    ));
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |_| false);
    assert_eq!(st.phase, Phase::Defeat);
    assert!(ev.contains(&Event::Defeat {
        reason: "round 1 ended with foes left".into()
    }));
}

// ----- summons, spawns and printed advantage -----

use super::scenario::SummonSpec;
use super::state::SummonState;
use crate::modifiers::attack::Origin;

/// A hero whose card 0 summons a Wisp (hp 3, move 2, attack 1) on top, and whose other cards have
/// the given initiatives.
fn summoner(name: &str, summon_initiative: u32, initiatives: &[u32]) -> String {
    let mut cards = vec![format!(
        "(name: \"{name} calls\", initiative: {summon_initiative}, top: (effects: [Summon((name: \"Wisp\", hp: 3, move: 2, attack: 1))], lost: true), bottom: (effects: [Move(2)]))"
    )];
    cards.extend(
        initiatives
            .iter()
            .enumerate()
            .map(|(i, n)| card(&format!("{name} {i}"), *n)),
    );
    format!("(name: \"{name}\", hp: 10, cards: [{}])", cards.join(", "))
}

/// Puts a summon of `hero` with `hp` hit points on `at`, as if summoned earlier.
fn give_summon(st: &mut State, hero: usize, at: Hex, hp: u32) -> FigureId {
    st.summons.push(SummonState {
        summoner: hero,
        spec: SummonSpec {
            name: "Wisp".into(),
            hp,
            movement: 2,
            attack: 1,
            range: 0,
        },
        hp: hp as i32,
        hex: at,
        alive: true,
        conditions: Vec::new(),
        shield: 0,
        ally: None,
    });
    FigureId::Summon(st.summons.len() - 1)
}

fn turns(events: &[Event]) -> Vec<FigureId> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::TurnStarted { figure } => Some(*figure),
            _ => None,
        })
        .collect()
}

#[test]
fn a_hero_card_summons_on_an_empty_hex_next_to_the_hero_and_the_card_is_lost() {
    let mut st = setup(scenario(
        &["1..a", "...."],
        "'a': (monster: \"Rat\")",
        &[summoner("Ann", 10, &[60])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Doze\", initiative: 90, actions: [Shield(1)])"],
        )],
    ));
    select(&mut st, 0, 0, 1);
    advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    let far = hex(3, 0);
    let refused = st.clone().apply_top(Action::Play {
        card: 0,
        half: Half::Top,
        basic: false,
        path: vec![],
        targets: vec![],
        ally: Some(far),
    });
    assert!(
        matches!(refused, Err(ActionError::Invalid(_))),
        "{refused:?}"
    );
    let below = hex(0, 1);
    let ev = st
        .apply_top(Action::Play {
            card: 0,
            half: Half::Top,
            basic: false,
            path: vec![],
            targets: vec![],
            ally: Some(below),
        })
        .unwrap();
    assert!(ev.contains(&Event::Summoned {
        summon: 0,
        hero: 0,
        hex: below
    }));
    assert_eq!(st.figure_at(below), Some(FigureId::Summon(0)));
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.ends_with("Ann summons Wisp (Ann) on (0, 1)"))
    );
    st.apply_top(Action::Advance).unwrap();
    assert!(st.heroes[0].lost.contains(&0), "a summon card is lost");
}

#[test]
fn summons_act_just_before_their_summoner_each_on_its_own_in_the_order_summoned() {
    let mut st = setup(scenario(
        &["1..a.2", "......"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[50, 60]), hero("Bob", 10, &[20, 25])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Doze\", initiative: 30, actions: [Shield(1)])"],
        )],
    ));
    let first = give_summon(&mut st, 0, hex(0, 1), 3);
    let second = give_summon(&mut st, 0, hex(1, 1), 3);
    select(&mut st, 0, 0, 1);
    select(&mut st, 1, 0, 1);
    // Bob ends his turn at once; the summons' equal outcomes are taken as listed first.
    let mut ev = Vec::new();
    while !matches!(st.phase, Phase::HeroTurn { hero: 0, .. }) {
        let a = if st.pending.is_some() {
            Action::Choose(0)
        } else {
            Action::Advance
        };
        ev.extend(st.apply_top(a).unwrap());
    }
    assert_eq!(
        turns(&ev),
        vec![
            FigureId::Hero(1),
            FigureId::Monster(0),
            first,
            second,
            FigureId::Hero(0)
        ]
    );
}

#[test]
fn a_summon_focuses_by_the_monster_rules_and_draws_from_its_summoners_deck() {
    // The Wisp stands next to the near rat; the far rat is out of its reach.
    let mut st = setup(scenario(
        &["1.ab...c"],
        "'a': (monster: \"Rat\"), 'b': (monster: \"Rat\"), 'c': (monster: \"Rat\")",
        &[hero("Ann", 10, &[50, 60])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Doze\", initiative: 90, actions: [Shield(1)])"],
        )],
    ));
    let wisp = give_summon(&mut st, 0, hex(1, 0), 3);
    st.heroes[0].deck = stack(&["+2"]);
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    let focus = ev
        .iter()
        .find_map(|e| match e {
            Event::SummonTargeted { focus, .. } => Some(focus.clone()),
            _ => None,
        })
        .expect("the summon chose a focus");
    assert_eq!(focus, vec![FigureId::Monster(0)]);
    assert!(ev.contains(&Event::CardsDrawn {
        attacker: wisp,
        target: FigureId::Monster(0),
        mode: crate::modifiers::draw::Mode::Normal,
        cards: vec!["+2".into()],
    }));
    assert_eq!(damage_to(&ev, FigureId::Monster(0)), vec![3]);
    assert_eq!(st.heroes[0].deck.discard.len(), 1, "Ann's deck was drawn");
}

#[test]
fn a_monster_focuses_a_summon_nearer_than_the_heroes_and_a_dead_summon_leaves_no_money() {
    let mut st = setup(scenario(
        &["1...a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[50, 60])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Bite\", initiative: 10, actions: [Move(2), Attack(value: 0)])"],
        )],
    ));
    let wisp = give_summon(&mut st, 0, hex(2, -1), 2);
    st.monster_deck = stack(&["+0"]);
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    assert_eq!(focus_of(&ev, 0), vec![wisp]);
    assert!(ev.contains(&Event::FigureDied {
        figure: wisp,
        hex: hex(2, -1)
    }));
    assert!(
        !ev.iter().any(|e| matches!(e, Event::MoneyDropped { .. })),
        "a summon leaves no money token"
    );
    assert!(st.money.is_empty());
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.ends_with("Wisp (Ann) dies"))
    );
}

#[test]
fn a_summon_as_near_as_its_summoner_is_the_focus_since_it_acts_first() {
    // Ann and her Wisp are two hexes from the rat on either side.
    let mut st = setup(scenario(
        &["1.a.."],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[50, 60])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Bite\", initiative: 10, actions: [Move(1), Attack(value: 0)])"],
        )],
    ));
    let wisp = give_summon(&mut st, 0, hex(4, -2), 3);
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| s.plan.is_some());
    assert_eq!(focus_of(&ev, 0), vec![wisp]);
    let trace = ev
        .iter()
        .find_map(|e| match e {
            Event::FoeTargeted { trace, .. } => Some(trace.clone()),
            _ => None,
        })
        .expect("the rat chose a focus");
    assert!(
        trace.contains(
            &"Focus by lowest initiative (50 then 60, before its summoner): Wisp (Ann) (4, -2)."
                .into()
        ),
        "{trace:?}"
    );
}

#[test]
fn a_curse_on_a_summon_goes_into_its_summoners_deck() {
    let mut st = setup(scenario(
        &["1.a"],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[50, 60])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Hex\", initiative: 10, actions: [Attack(value: 0)])"],
        )],
    ));
    give_summon(&mut st, 0, hex(1, 0), 9);
    st.monster_deck = stack(&["+0 curse"]);
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    assert!(ev.contains(&Event::CardShuffledIn {
        deck: FigureId::Hero(0),
        curse: true
    }));
    assert_eq!(
        st.heroes[0]
            .deck
            .count(crate::modifiers::card::CardKind::Curse),
        1
    );
}

#[test]
fn summons_leave_the_board_when_their_summoner_is_exhausted() {
    let s = scenario(
        &["1..a", "..2."],
        "'a': (monster: \"Rat\")",
        &[hero("Ann", 10, &[50, 60]), hero("Bob", 10, &[20, 25])],
        &[monster(
            "Rat",
            5,
            &["(name: \"Doze\", initiative: 90, actions: [Shield(1)])"],
        )],
    );
    let mut st = State::new(s, 7, TieBreaker::Table).unwrap();
    let wisp = give_summon(&mut st, 0, hex(0, 1), 3);
    // Ann can neither play two cards nor rest: she is exhausted as the round starts.
    st.heroes[0].hand.clear();
    let ev = st.apply_top(Action::Advance).unwrap();
    assert!(ev.contains(&Event::SummonsDismissed {
        hero: 0,
        summons: vec![0]
    }));
    assert!(!st.alive(wisp));
    assert_eq!(st.figure_at(hex(0, 1)), None);
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.ends_with("Wisp (Ann) leaves the board with Ann"))
    );
}

/// A Mother (initiative 10, spawning Rats with `actions`) two hexes from Ann; Rats have hp 1 and
/// one standee.
fn mother(actions: &str) -> State {
    let mother = format!(
        "(name: \"Mother\", normal: (hp: 9, move: 1, attack: 1), elite: (hp: 9, move: 1, attack: 1), deck: [(name: \"Brood\", initiative: 10, actions: {actions})])"
    );
    let rat = "(name: \"Rat\", standees: 1, normal: (hp: 1, move: 2, attack: 1), elite: (hp: 1, move: 2, attack: 1), deck: [(name: \"Bite\", initiative: 20, actions: [Move(2), Attack(value: 0)])])";
    setup(scenario(
        &["1.m..", "....."],
        "'m': (monster: \"Mother\")",
        &[hero("Ann", 10, &[50, 60])],
        &[mother, rat.to_string()],
    ))
}

#[test]
fn a_spawn_places_a_monster_next_to_its_spawner_nearest_the_heroes_and_it_waits_a_round() {
    let mut st = mother("[Spawn(\"Rat\"), Spawn(\"Rat\")]");
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    let spawned: Vec<&Event> = ev
        .iter()
        .filter(|e| matches!(e, Event::Spawned { .. }))
        .collect();
    // One standee: the second spawn finds none.
    assert_eq!(
        spawned,
        vec![&Event::Spawned {
            monster: 1,
            by: FigureId::Monster(0),
            hex: hex(1, 0)
        }]
    );
    assert_eq!(st.monsters[1].origin, Origin::Spawned);
    assert!(
        log::lines(&st, &ev)
            .iter()
            .any(|l| l.ends_with("Mother 1 spawns Rat 1 on (1, 0)"))
    );
    assert!(
        !turns(&ev).contains(&FigureId::Monster(1)),
        "a spawned monster does not act in the round it appears"
    );
    // Ann kills it: a spawned monster leaves no money token.
    st.heroes[0].deck = stack(&["+0"]);
    let ev = play(&mut st, 1, Half::Top, &[], &[hex(1, 0)]);
    assert!(ev.contains(&Event::FigureDied {
        figure: FigureId::Monster(1),
        hex: hex(1, 0)
    }));
    assert!(!ev.iter().any(|e| matches!(e, Event::MoneyDropped { .. })));
    assert!(st.money.is_empty());
}

#[test]
fn a_monster_printed_with_advantage_draws_two_cards_and_keeps_the_better() {
    let brute = "(name: \"Brute\", advantage: true, normal: (hp: 9, move: 1, attack: 1), elite: (hp: 9, move: 1, attack: 1), deck: [(name: \"Slam\", initiative: 10, actions: [Attack(value: 0)])])";
    let mut st = setup(scenario(
        &["1a"],
        "'a': (monster: \"Brute\")",
        &[hero("Ann", 10, &[50, 60])],
        &[brute.to_string()],
    ));
    st.monster_deck = stack(&["-1", "+2"]);
    select(&mut st, 0, 0, 1);
    let ev = advance_until(&mut st, |s| matches!(s.phase, Phase::HeroTurn { .. }));
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CardsDrawn {
            mode: crate::modifiers::draw::Mode::Advantage,
            cards,
            ..
        } if cards.len() == 2
    )));
    assert_eq!(damage_to(&ev, FigureId::Hero(0)), vec![3]);
}

#[test]
fn while_heroes_choose_cards_the_autopilot_chooses_for_the_hero_asked() {
    use crate::rules::Rules;
    let st = ann_and_bob(
        &[20, 30],
        &[40, 25],
        &["(name: \"Bite\", initiative: 50, actions: [Move(0), Attack(value: 0)])"],
    );
    assert!(matches!(st.phase, Phase::CardSelection));
    for h in 0..2 {
        let pick = super::Gloomhaven::autopilot(&st, h).unwrap();
        assert!(
            matches!(pick, Action::SelectCards { hero, .. } | Action::LongRest { hero, .. } if hero == h),
            "{pick:?}"
        );
    }
}

/// A Brute (melee, move 2, two targets) at (5, 2) and Fay, its focus, at (5, 4); Al and Bo at the
/// hexes given (Al's initiative 30, Bo's 20), and obstacles.
fn a_brute_and_three(
    extra: &str,
    al: (usize, usize),
    bo: (usize, usize),
    rocks: &[(usize, usize)],
) -> State {
    // Map columns are q; rows are r + q div 2 (see `map_hex`).
    let mut rows = vec![".".repeat(16); 9];
    let mut put = |(q, r): (usize, usize), c: char| {
        let row = r + q / 2;
        rows[row].replace_range(q..=q, &c.to_string());
    };
    put((5, 2), 'a');
    put((5, 4), '1');
    put(al, '2');
    put(bo, '3');
    for &rock in rocks {
        put(rock, 'o');
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut st = setup(scenario_with(
        &rows,
        "'a': (monster: \"Brute\")",
        &[
            hero("Fay", 10, &[10, 45]),
            hero("Al", 10, &[30, 45]),
            hero("Bo", 10, &[20, 45]),
        ],
        &[monster(
            "Brute",
            5,
            &[
                "(name: \"Cleave\", initiative: 50, actions: [Move(0), Attack(value: 0, targets: 2)])",
            ],
        )],
        extra,
    ));
    st.monster_deck = stack(&["+0", "+0", "+0", "+0"]);
    for h in 0..3 {
        select(&mut st, h, 0, 1);
    }
    st
}

/// Al at (6, 3) and Bo at (3, 4), both two hexes away, Bo with the earlier initiative.
#[test]
fn under_the_second_edition_the_second_target_is_chosen_by_the_focus_rules_not_by_the_step() {
    let mut st = a_brute_and_three("", (6, 3), (3, 4), &[]);
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(focus_of(&ev, 0), vec![FigureId::Hero(0)]);
    let mut hit = attacked(&ev);
    hit.sort();
    // Bo (initiative 20) one step further, not Al (30) reachable without moving past Fay.
    assert_eq!(hit, vec![FigureId::Hero(0), FigureId::Hero(2)]);
    assert_eq!(st.monsters[0].hex, hex(4, 4));
    // The first edition keeps the group reachable with the fewest movement points first.
    let mut st = a_brute_and_three("preset: Gloomhaven,", (6, 3), (3, 4), &[]);
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    let mut hit = attacked(&ev);
    hit.sort();
    assert_eq!(hit, vec![FigureId::Hero(0), FigureId::Hero(1)]);
    assert_eq!(st.monsters[0].hex, hex(5, 3));
}

/// Al at (7, 2), one step from an attack hex; Bo at (3, 4), two steps round a rock at (4, 3), with
/// the earlier initiative; both at proximity 2. The second edition ranks by the path first.
#[test]
fn under_the_second_edition_the_second_target_with_the_shorter_path_comes_first() {
    let mut st = a_brute_and_three("", (7, 2), (3, 4), &[(4, 3)]);
    let ev = advance_until(&mut st, |s| s.phase == Phase::RoundEnd);
    assert_eq!(focus_of(&ev, 0), vec![FigureId::Hero(0)]);
    let mut hit = attacked(&ev);
    hit.sort();
    assert_eq!(hit, vec![FigureId::Hero(0), FigureId::Hero(1)]);
    assert_eq!(st.monsters[0].hex, hex(6, 3));
}
