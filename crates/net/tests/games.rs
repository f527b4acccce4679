//! Whole games of every module's shipped scenarios, by 2 and 4 seats over the in-process transport:
//! every copy of the game has the same state hash after every move, and the game ends.

mod common;

use common::Table;
use foehold_core::rules::brimstone::Brimstone;
use foehold_core::rules::gloomhaven::Gloomhaven;
use foehold_core::rules::goals::Goals;
use foehold_core::rules::{Present, TieBreaker};

/// Plays a whole game online and checks it against its own log replayed offline.
fn whole<R: Present>(name: &str, seats: u32, seed: u64, ties: TieBreaker) {
    let mut table = Table::<R>::new(name, seats, seed, ties);
    let moves = table.play(50_000, |_| {});
    assert!(
        table.is_over(),
        "{name} by {seats}: not over after {moves} moves"
    );
    table.assert_same();
    replays(&table, name, seed, ties);
}

/// The online game's log, replayed offline action by action, reaches the same end: every draw the
/// copies made (keyed online, not the seed's) is in the log, so a save of it replays exactly.
fn replays<R: Present>(table: &Table<R>, name: &str, seed: u64, ties: TieBreaker) {
    let (mut offline, _) = common::load::<R>(name, seed, ties);
    for a in table.replicas()[0].game().actions() {
        offline.apply(a.clone()).unwrap();
    }
    assert_eq!(
        foehold_net::message::StateHash::of(&offline.state),
        table.hash(),
        "{name}: the online game's log replays elsewhere"
    );
}

/// A scenario naming a monster type of the host's own library goes out as a bundle: peers that
/// lack the type read it from there and play the whole game in step.
#[test]
fn a_scenario_of_the_hosts_own_monster_plays_at_tables_that_lack_it() {
    use foehold_core::game::Game;
    use foehold_core::library::Library;
    use foehold_core::rules::Rules;
    use foehold_core::workshop::bundle::{is_bundle, pack};
    use foehold_net::draws::Entropy;
    use foehold_net::host::{Host, setup_of};
    use foehold_net::local::Endpoint;
    use foehold_net::message::PeerId;

    let name = "rat-kings-larder.ron";
    let shipped = std::fs::read_to_string(common::scenario_path(name)).unwrap();
    let text = shipped.replace("\"Cellar Rat\"", "\"Mire Rat\"");
    assert_ne!(text, shipped);
    let rat = Library::built_in()
        .monsters
        .iter()
        .find_map(|e| e.text.clone().ok().filter(|t| t.contains("\"Cellar Rat\"")))
        .unwrap()
        .replace("\"Cellar Rat\"", "\"Mire Rat\"");
    let mine = Library::of_monsters(&[("mine/mire-rat.ron", &rat)]);
    assert!(Gloomhaven::parse_scenario(name, &text).is_err());
    let packed = pack(name, &text, &mine).unwrap();
    assert!(is_bundle(&packed));
    // What a joining table reads from the host's message: the scenario's own text hash.
    let read = foehold_net::peer::hosts_scenario::<Gloomhaven>(&packed).unwrap();
    assert_eq!(read.text_hash, foehold_core::game::save::text_hash(&text));
    let scenario = Gloomhaven::parse_scenario_in(name, &text, &mine).unwrap();
    let game = Game::<Gloomhaven>::new(std::sync::Arc::new(scenario), name, 5, TieBreaker::Seeded)
        .unwrap()
        .with_scenario_text(&text);
    let players = (0..common::heroes(&game))
        .map(|h| h as u32 % 2 + 1)
        .collect();
    let setup = setup_of(&game, 2, players, 1);
    let host =
        Host::new(game, setup, Some(1), Endpoint::new(PeerId(0))).with_entropy(Entropy::seeded(5));
    let mut table = Table::around(host, name, packed, 2);
    let moves = table.play(50_000, |_| {});
    assert!(table.is_over(), "not over after {moves} moves");
    table.assert_same();
}

#[test]
fn a_gloomhaven_game_by_two_and_four_seats() {
    whole::<Gloomhaven>("tutorial.ron", 2, 3, TieBreaker::Seeded);
    whole::<Gloomhaven>("tutorial.ron", 4, 4, TieBreaker::Seeded);
}

#[test]
fn every_gloomhaven_scenario_by_two_seats_with_the_table_breaking_ties() {
    for name in [
        "ember-orchard.ron",
        "frozen-sluice.ron",
        "sunken-kiln.ron",
        "tutorial.ron",
    ] {
        whole::<Gloomhaven>(name, 2, 11, TieBreaker::Table);
    }
}

#[test]
fn brimstone_games_by_two_and_four_seats() {
    whole::<Brimstone>("cinder-adit.ron", 2, 5, TieBreaker::Seeded);
    whole::<Brimstone>("cinder-adit.ron", 4, 6, TieBreaker::Seeded);
    whole::<Brimstone>("cinder-adit-ambush.ron", 2, 7, TieBreaker::Table);
    whole::<Brimstone>("sulphur-drift.ron", 4, 8, TieBreaker::Seeded);
}

#[test]
fn goals_games_by_two_and_four_seats() {
    whole::<Goals>("dome-crossing.ron", 2, 9, TieBreaker::Seeded);
    whole::<Goals>("dome-crossing.ron", 4, 10, TieBreaker::Table);
}

#[test]
fn every_module_action_round_trips_through_the_wire_format() {
    fn check<R: Present>(name: &str) {
        let (mut game, _) = common::load::<R>(name, 1, TieBreaker::Seeded);
        let mut n = 0;
        game.play_out(100_000, |_, a, _| {
            let bytes = foehold_net::codec::encode_action(a);
            let back: R::Action = foehold_net::codec::decode_action(&bytes).unwrap();
            assert_eq!(&back, a);
            n += 1;
        });
        assert!(n > 0);
    }
    check::<Gloomhaven>("tutorial.ron");
    check::<Brimstone>("cinder-adit.ron");
    check::<Goals>("dome-crossing.ron");
}

/// A game played offline for `steps` steps by the autopilot, then hosted as it stands: the peers
/// build their copies from the replayed log, and the game ends where the offline one does.
fn hosted_under_way<R: Present>(name: &str, seats: u32, seed: u64, ties: TieBreaker, steps: usize) {
    use foehold_net::host::{Host, setup_of};
    use foehold_net::local::Endpoint;
    use foehold_net::message::PeerId;
    use foehold_net::replica::Replica;

    let (mut game, text) = common::load::<R>(name, seed, ties);
    for _ in 0..steps {
        let a = game.automatic(true, true).expect("the game goes on");
        game.apply(a).unwrap();
    }
    assert!(
        game.decisions_between(0, game.cursor) > 0,
        "a game under way"
    );
    let players = (0..common::heroes(&game))
        .map(|h| h as u32 % seats + 1)
        .collect();
    let setup = setup_of(&game, seats, players, 1);
    let replica = Replica::from_game(&game, setup).unwrap();
    assert_eq!(
        &replica.game().actions()[..game.cursor],
        game.actions(),
        "the copy holds the game as it was"
    );
    let host = Host::from_replica(replica, Some(1), Vec::new(), Endpoint::new(PeerId(0)));
    let mut table = Table::around(host, name, text, seats);
    table.assert_same();
    table.play(50_000, |_| {});
    assert!(table.is_over());
    replays(&table, name, seed, ties);
}

#[test]
fn a_game_under_way_is_hosted_as_it_stands_in_every_module() {
    hosted_under_way::<Gloomhaven>("tutorial.ron", 2, 3, TieBreaker::Seeded, 40);
    hosted_under_way::<Brimstone>("cinder-adit.ron", 3, 5, TieBreaker::Seeded, 30);
    hosted_under_way::<Goals>("dome-crossing.ron", 2, 9, TieBreaker::Table, 25);
}

#[test]
fn a_game_with_a_draw_entered_at_the_table_is_not_hosted_as_it_stands() {
    use foehold_core::rules::{Seat, ToMove};
    use foehold_net::host::setup_of;
    use foehold_net::replica::Replica;

    let (mut game, _) = common::load::<Goals>("dome-crossing.ron", 9, TieBreaker::Seeded);
    // Played on to the first draw, which the table enters as another card than the seeded pick.
    let entered = loop {
        if let ToMove::Chance { outcomes, .. } = game.to_move()
            && outcomes > 1
        {
            let seeded = game.automatic(true, true).unwrap();
            let other = game
                .legal_actions(Seat::Chance)
                .into_iter()
                .find(|a| *a != seeded)
                .unwrap();
            game.enter(other).unwrap();
            break game.cursor;
        }
        let a = game.automatic(true, true).expect("a draw comes");
        game.apply(a).unwrap();
    };
    let setup = setup_of(&game, 2, vec![1, 2], 1);
    let why = Replica::from_game(&game, setup).unwrap_err();
    assert!(
        why.starts_with(&format!("action {entered} of the game")),
        "{why}"
    );
    assert!(why.contains("a draw entered at the table"), "{why}");
}

#[test]
fn a_game_played_on_from_the_lab_is_not_hosted_as_it_stands() {
    use foehold_core::lab::{Bench, Lab};
    use foehold_core::rules::goals::state::Phase;
    use foehold_core::rules::view::{Ground, Side};
    use foehold_net::host::setup_of;
    use foehold_net::replica::Replica;

    let (mut game, _) = common::load::<Goals>("dome-crossing.ron", 9, TieBreaker::Seeded);
    while !(matches!(game.state.phase, Phase::Hero { .. }) && Goals::moment(&game.state).is_ok()) {
        let a = game.automatic(true, true).expect("a hero's turn comes");
        game.apply(a).unwrap();
    }
    // A hero moved in the lab, played on: the players' own board, which no seat can propose.
    let moment = Goals::moment(&game.state).unwrap();
    let mut bench =
        Bench::<Goals>::of_moment(moment, &<Goals as Present>::view(&game.state)).unwrap();
    let v = <Goals as Lab>::position_view(bench.position());
    let hero = v
        .figures
        .iter()
        .find(|f| f.side == Side::Hero)
        .unwrap()
        .cell;
    let free = v
        .cells
        .iter()
        .find(|c| {
            c.ground == Ground::Floor
                && !v.figures.iter().any(|f| f.cell == c.key)
                && !v.tokens.iter().any(|t| t.cell == c.key)
        })
        .unwrap()
        .key;
    bench
        .edit_moving(Some((hero, free)), |p| Goals::drag(p, hero, free))
        .unwrap();
    let arranged = bench.play_on(&game.state).unwrap().unwrap();
    game.arrange(arranged).unwrap();
    let at = game.cursor;
    let setup = setup_of(&game, 2, vec![1, 2], 1);
    let why = Replica::from_game(&game, setup).unwrap_err();
    assert!(
        why.starts_with(&format!("action {at} of the game")),
        "{why}"
    );
    assert!(why.contains("is no player's decision there"), "{why}");
}
