//! The New game screen: the scenarios of every rule module under `scenarios/` by name and
//! description, and a confirmation before a game with unsaved moves is discarded. The game on the
//! table waits behind it, and going back to it builds its board again.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::app::driver::{AtRisk, StartScenario};
use crate::app::screen::{OnTable, Screen};
use crate::app::store::{Mine, Store};
use crate::app::tag::Tagged;
use crate::modules::{ForRules, Module, with_rules};
use foehold_core::library::Library;
use foehold_core::rules::view::Side;
use foehold_core::rules::{ClassOffer, HeroPick, PartyChoice, PartyOffer, TieBreaker};

/// A scenario file's name, rules and heroes, and description, read by the rules it names.
struct About<'a> {
    file: &'a str,
    text: &'a str,
    library: &'a Library,
}

/// What the list says of a scenario.
struct Listed {
    name: String,
    /// Its module's `rules:` name, and its rules as the list names them ([`Module::RULES`]).
    module: &'static str,
    rules: &'static str,
    /// Its rules, how many heroes it seats, and the party sizes and levels it offers
    /// ("… · 2 heroes · 2–4 characters · levels 0–7, 1 recommended").
    what: String,
    about: String,
    /// The level and party it lets the players choose, if any.
    offer: Option<PartyOffer>,
}

impl ForRules for About<'_> {
    type Out = Result<Listed, String>;

    fn run<R: Module>(self) -> Self::Out {
        let s =
            R::parse_scenario_in(self.file, self.text, self.library).map_err(|e| e.to_string())?;
        let name = R::scenario_name(&s).to_string();
        let about = R::scenario_about(&s).to_string();
        let offer = R::party_offer(&s);
        // The heroes as the game sets them up (the players then share them out).
        let heroes = R::setup(std::sync::Arc::new(s), 0, TieBreaker::Table)
            .ok()
            .map(|state| {
                R::view(&state)
                    .figures
                    .iter()
                    .filter(|f| f.side == Side::Hero)
                    .count()
            });
        let mut what = match heroes {
            Some(1) => format!("{} · 1 hero", R::RULES),
            Some(n) => format!("{} · {n} heroes", R::RULES),
            None => R::RULES.to_string(),
        };
        if let Some(o) = &offer {
            what.push_str(&offer_words(o));
        }
        Ok(Listed {
            name,
            module: R::NAME,
            rules: R::RULES,
            what,
            about,
            offer,
        })
    }
}

/// The party sizes and levels a scenario offers, as the list says them.
fn offer_words(o: &PartyOffer) -> String {
    let (lo, hi) = (*o.players.start(), *o.players.end());
    let mut out = if lo == hi {
        format!(" · {lo} characters")
    } else {
        format!(" · {lo}–{hi} characters")
    };
    if let (Some(first), Some(last)) = (o.levels.first(), o.levels.last()) {
        out.push_str(&format!(
            " · levels {first}–{last}, {} recommended",
            o.recommended
        ));
    }
    out
}

/// What the list says of the scenario in `path` read with `library`, or why it cannot be
/// played.
fn about(store: &Store, path: &std::path::Path, library: &Library) -> Result<Listed, String> {
    let text = store.read(path)?;
    let file = path.display().to_string();
    with_rules(
        &file,
        &text,
        About {
            file: &file,
            text: &text,
            library,
        },
    )
    .map_err(|e| e.to_string())?
}

/// One scenario file as the list shows it.
struct Entry {
    path: PathBuf,
    name: String,
    /// Its module's `rules:` name and its rules in the list's words; empty when the file cannot
    /// be read.
    module: &'static str,
    rules: &'static str,
    /// Its rules and heroes, and its description; or why the file cannot be played.
    about: Result<(String, String), String>,
    /// What the players may choose for it, and what they chose.
    offer: Option<PartyOffer>,
    choice: PartyChoice,
}

/// The shipped scenarios, then the player's own (`mine` starts the list of those).
fn entries(store: &Store, mine: &Mine) -> (Vec<Entry>, usize) {
    let shipped = store.scenario_files();
    let first_mine = shipped.len();
    let library = mine.library(store);
    let all = shipped
        .into_iter()
        .chain(mine.scenario_files(store))
        .map(|path| match about(store, &path, &library) {
            Ok(Listed {
                name,
                module,
                rules,
                what,
                about,
                offer,
            }) => Entry {
                name,
                module,
                rules,
                about: Ok((what, about)),
                path,
                offer,
                choice: PartyChoice::default(),
            },
            Err(e) => Entry {
                name: path.display().to_string(),
                module: "",
                rules: "",
                about: Err(e.to_string()),
                path,
                offer: None,
                choice: PartyChoice::default(),
            },
        })
        .collect::<Vec<Entry>>();
    // By module within the shipped and within the player's (files unread last), each module's
    // in file order.
    let mut all = all;
    let mut yours = all.split_off(first_mine);
    let modules = crate::modules::played();
    let order = |e: &Entry| {
        modules
            .iter()
            .position(|m| *m == e.module)
            .unwrap_or(usize::MAX)
    };
    all.sort_by_key(order);
    yours.sort_by_key(order);
    all.extend(yours);
    (all, first_mine)
}

/// Whether an entry holds every word of `search`, in its name, rules or description (letters
/// of either case alike).
fn matches(e: &Entry, search: &str) -> bool {
    let text = match &e.about {
        Ok((what, about)) => format!("{} {what} {about}", e.name),
        Err(why) => format!("{} {why}", e.name),
    }
    .to_lowercase();
    search
        .split_whitespace()
        .all(|w| text.contains(&w.to_lowercase()))
}

/// The screen's own state: the list read when it opened, and a choice waiting for confirmation.
#[derive(Default)]
pub struct Listing {
    /// The scenarios, and where the player's own begin.
    entries: Option<(Vec<Entry>, usize)>,
    confirm: Option<usize>,
    /// The words typed to narrow the list.
    search: String,
}

/// The widest the list grows, in logical pixels: lines of a readable length.
const COLUMN: f32 = 620.0;

pub fn new_game(
    mut contexts: EguiContexts,
    mut screen: ResMut<NextState<Screen>>,
    at_risk: Res<AtRisk>,
    mut starts: MessageWriter<StartScenario>,
    mut listing: Local<Listing>,
    (store, mine, on_table): (Res<Store>, Res<Mine>, Option<Res<State<OnTable>>>),
    mut commands: Commands,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Back to what waits on the table.
    let back_to = match on_table.as_deref().map(State::get) {
        Some(OnTable::Lab) => "◀ Back to the lab",
        Some(OnTable::Workshop) => "◀ Back to the workshop",
        _ => "◀ Back to the game",
    };
    let listing = &mut *listing;
    let (entries, first_mine) = listing
        .entries
        .get_or_insert_with(|| entries(&store, &mine));
    let first_mine = *first_mine;
    let mut back = false;
    let mut start = None;
    // The workshop asked for: a new scenario, or a file of the list.
    let mut edit: Option<Option<PathBuf>> = None;
    // The whole window: the board is put away while the players choose.
    let whole = ctx.content_rect();
    let frame = egui::Frame::central_panel(&ctx.global_style());
    let window = egui::Window::new("New game")
        .title_bar(false)
        .fixed_rect(whole)
        .frame(frame);
    window.show(ctx, |ui| {
        let margin = ((ui.available_width() - COLUMN) / 2.0).max(0.0);
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.add_space(margin);
                ui.vertical(|ui| {
                    ui.set_max_width(COLUMN);
                    ui.add_space(16.0);
                    ui.label(egui::RichText::new("New game").size(26.0).strong());
                    ui.horizontal(|ui| {
                        if ui.button(back_to).tagged("newgame:back").clicked() {
                            back = true;
                        }
                        if ui
                            .button("New scenario…")
                            .tagged("newgame:new-scenario")
                            .on_hover_text("Make a scenario of your own in the workshop")
                            .clicked()
                        {
                            edit = Some(None);
                        }
                    });
                    ui.add_space(8.0);
                    if let Some(i) = listing.confirm {
                        let moves = at_risk.0;
                        ui.label(
                            egui::RichText::new(format!("Start \"{}\"?", entries[i].name))
                                .strong()
                                .size(16.0),
                        );
                        ui.label(format!(
                    "The game on the table has {moves} move(s) no save holds; they will be lost."
                ));
                        ui.horizontal(|ui| {
                            if ui
                                .button("Discard it and start")
                                .tagged("newgame:discard")
                                .clicked()
                            {
                                start = Some(i);
                            }
                            if ui.button("Keep playing").tagged("newgame:keep").clicked() {
                                back = true;
                            }
                        });
                        return;
                    }
                    ui.label("Choose a scenario; the Players window follows.");
                    ui.horizontal(|ui| {
                        ui.label("Search");
                        ui.add(
                            egui::TextEdit::singleline(&mut listing.search)
                                .hint_text("words of a name, rules or description"),
                        )
                        .tagged("newgame:search");
                    });
                    ui.separator();
                    let search = listing.search.clone();
                    // The rules heading last drawn, with whether it was among the player's.
                    let mut heading: Option<(bool, &str)> = None;
                    let mut shown = 0;
                    for (i, e) in entries.iter_mut().enumerate() {
                        if i == first_mine {
                            ui.add_space(8.0);
                            ui.label(egui::RichText::new("Your scenarios").size(18.0).strong())
                                .tagged("newgame:yours");
                            ui.separator();
                        }
                        if !matches(e, &search) {
                            continue;
                        }
                        shown += 1;
                        let section = (i >= first_mine, e.module);
                        if heading != Some(section) {
                            heading = Some(section);
                            let title = if e.rules.is_empty() {
                                "Files that cannot be played"
                            } else {
                                e.rules
                            };
                            ui.add_space(4.0);
                            ui.label(egui::RichText::new(title).size(16.0).italics())
                                .tagged(format!("newgame:module:{}:{}", e.module, i >= first_mine));
                        }
                        match &e.about {
                            Ok((what, about)) => {
                                let waits = e.offer.as_ref().and_then(|o| not_ready(o, &e.choice));
                                if ui
                                    .add_enabled(
                                        waits.is_none(),
                                        egui::Button::new(
                                            egui::RichText::new(&e.name).strong().size(15.0),
                                        ),
                                    )
                                    .tagged(format!("newgame:{}", e.name))
                                    .clicked()
                                {
                                    if at_risk.0 > 0 {
                                        listing.confirm = Some(i);
                                    } else {
                                        start = Some(i);
                                    }
                                }
                                ui.horizontal(|ui| {
                                    ui.label(egui::RichText::new(what).small())
                                        .tagged(format!("newgame:{}:rules", e.name));
                                    if ui
                                        .small_button("Edit")
                                        .tagged(format!("newgame:{}:edit", e.name))
                                        .on_hover_text("Open this scenario in the workshop")
                                        .clicked()
                                    {
                                        edit = Some(Some(e.path.clone()));
                                    }
                                });
                                if !about.is_empty() {
                                    ui.weak(about);
                                }
                                if let Some(offer) = &e.offer {
                                    party_choice(ui, &e.name, offer, &mut e.choice);
                                }
                                if let Some(why) = waits {
                                    ui.colored_label(egui::Color32::from_rgb(255, 150, 90), why);
                                }
                            }
                            Err(why) => {
                                ui.add_enabled(false, egui::Button::new(&e.name));
                                ui.colored_label(egui::Color32::from_rgb(255, 150, 90), why);
                            }
                        }
                        ui.add_space(4.0);
                    }
                    if shown == 0 {
                        ui.weak(format!("No scenario holds every word of \"{search}\"."))
                            .tagged("newgame:none");
                    }
                });
            });
        });
    });
    if let Some(i) = start {
        // Putting the game on the table enters the table screen.
        starts.write(StartScenario(
            entries[i].path.clone(),
            entries[i].choice.clone(),
        ));
    } else if back {
        screen.set(Screen::Table);
    }
    if let Some(path) = edit.clone() {
        commands.queue(move |world: &mut World| {
            let opened = match path {
                None => {
                    let first = foehold_core::workshop::any::shop_modules()[0].module;
                    crate::app::workshop::open_blank(world, first)
                }
                Some(path) => world.resource::<Store>().read(&path).and_then(|text| {
                    crate::app::workshop::open_file(world, &path.display().to_string(), &text)
                }),
            };
            if let Err(e) = opened {
                world.resource_mut::<crate::app::driver::Problem>().0 = Some(e);
            }
        });
    }
    if start.is_some() || back || edit.is_some() {
        // Read again next time: files may come and go meanwhile.
        *listing = Listing::default();
    }
    Ok(())
}

/// The number of characters, each seat's character and the scenario level, chosen under a
/// scenario's name: nothing chosen plays the scenario's heroes at the recommended level.
fn party_choice(ui: &mut egui::Ui, name: &str, offer: &PartyOffer, choice: &mut PartyChoice) {
    let players = choice.players.unwrap_or(offer.all);
    if offer.players.clone().count() > 1 {
        ui.horizontal(|ui| {
            ui.label("Characters:");
            for n in offer.players.clone() {
                if ui
                    .selectable_label(players == n, n.to_string())
                    .tagged(format!("newgame:{name}:players:{n}"))
                    .clicked()
                {
                    choice.players = Some(n);
                }
            }
        });
    }
    if !offer.classes.is_empty() {
        choice
            .heroes
            .resize(offer.seats.len().max(choice.heroes.len()), None);
        let made = choice.heroes.iter().take(players).flatten().count();
        let title = match made {
            0 => "Classes, levels and hands: as the scenario writes them".to_string(),
            n => format!("Classes, levels and hands: {n} character(s) made"),
        };
        // Folded by default: most games take the scenario's heroes.
        egui::CollapsingHeader::new(title)
            .id_salt(format!("newgame:{name}:characters"))
            .show(ui, |ui| {
                for seat in 0..players.min(offer.seats.len()) {
                    seat_choice(ui, name, offer, seat, &mut choice.heroes[seat]);
                }
            })
            .header_response
            .tagged(format!("newgame:{name}:characters"));
    }
    if !offer.levels.is_empty() {
        let levels: Vec<u32> = (0..players.min(offer.seats.len()))
            .map(|i| match choice.heroes.get(i) {
                Some(Some(p)) => p.level,
                _ => offer.seats[i].level,
            })
            .collect();
        let recommended = offer.recommended_for(&levels);
        let level = choice.level.unwrap_or(recommended);
        ui.horizontal_wrapped(|ui| {
            ui.label("Scenario level:");
            for &l in &offer.levels {
                let text = if l == recommended {
                    format!("{l} (recommended)")
                } else {
                    l.to_string()
                };
                if ui
                    .selectable_label(level == l, text)
                    .tagged(format!("newgame:{name}:level:{l}"))
                    .clicked()
                {
                    choice.level = Some(l);
                }
            }
        });
    }
}

/// One seat's character: the scenario's hero as written, or a class of the library at a level
/// with a hand chosen from its pool (the first cards of the level until the player changes them).
fn seat_choice(
    ui: &mut egui::Ui,
    name: &str,
    offer: &PartyOffer,
    seat: usize,
    pick: &mut Option<HeroPick>,
) {
    let written = &offer.seats[seat];
    let tag = |what: String| format!("newgame:{name}:seat{}:{what}", seat + 1);
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(format!("{}:", written.name)).strong());
        let as_written = match &written.class {
            Some(c) => format!("as written ({c}, level {})", written.level),
            None => "as written".into(),
        };
        if ui
            .selectable_label(pick.is_none(), as_written)
            .tagged(tag("written".into()))
            .clicked()
        {
            *pick = None;
        }
        for c in &offer.classes {
            let on = pick.as_ref().is_some_and(|p| p.class == c.name);
            if ui
                .selectable_label(on, &c.name)
                .tagged(tag(format!("class:{}", c.name)))
                .clicked()
                && !on
            {
                let level = written.level.max(1);
                *pick = Some(HeroPick {
                    class: c.name.clone(),
                    level,
                    hand: first_hand(c, level),
                    perks: Vec::new(),
                });
            }
        }
    });
    let Some(p) = pick else { return };
    let Some(class) = offer.classes.iter().find(|c| c.name == p.class) else {
        return;
    };
    ui.indent(tag("pick".into()), |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label("Level:");
            for l in 1..=class.hp.len() as u32 {
                if ui
                    .selectable_label(p.level == l, l.to_string())
                    .tagged(tag(format!("level:{l}")))
                    .clicked()
                {
                    p.level = l;
                    // Perks beyond what the new level allows are given back, the last first.
                    p.perks.truncate(perks_at(class, l));
                    // Cards above the new level leave the hand.
                    p.hand
                        .retain(|n| class.cards.iter().any(|(c, cl, _)| c == n && *cl <= l));
                }
            }
            let hp = class.hp.get(p.level as usize - 1).copied().unwrap_or(0);
            ui.weak(format!("· {hp} hit points"));
        });
        let short = p.hand.len() != class.hand_size;
        let words = format!("Hand: {} of {} cards chosen", p.hand.len(), class.hand_size);
        let header = if short {
            egui::RichText::new(words).color(egui::Color32::from_rgb(255, 150, 90))
        } else {
            egui::RichText::new(words)
        };
        let hand = egui::CollapsingHeader::new(header)
            .id_salt(tag("hand".into()))
            .show(ui, |ui| {
                for (card, level, initiative) in &class.cards {
                    if *level > p.level {
                        continue;
                    }
                    let mut held = p.hand.contains(card);
                    let full = p.hand.len() >= class.hand_size;
                    let text = format!("{card} · initiative {initiative} · level {level}");
                    let r = ui
                        .add_enabled(held || !full, egui::Checkbox::new(&mut held, text))
                        .tagged(tag(format!("card:{card}")));
                    if r.changed() {
                        if held {
                            p.hand.push(card.clone());
                        } else {
                            p.hand.retain(|c| c != card);
                        }
                    }
                }
            });
        hand.header_response.tagged(tag("hand".into()));
        if class.perks.is_empty() {
            return;
        }
        let most = perks_at(class, p.level);
        let perks = egui::CollapsingHeader::new(format!(
            "Perks: {} taken (at most {most} at level {})",
            p.perks.len(),
            p.level
        ))
        .id_salt(tag("perks".into()))
        .show(ui, |ui| {
            for (perk, words, times) in &class.perks {
                let taken = p.perks.iter().filter(|x| *x == perk).count();
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("{perk} ({words}):"));
                    for n in 0..=*times as usize {
                        // More than the level allows cannot be picked.
                        let room = p.perks.len() - taken + n <= most;
                        if ui
                            .add_enabled(
                                room || n <= taken,
                                egui::Button::selectable(taken == n, n.to_string()),
                            )
                            .tagged(tag(format!("perk:{perk}:{n}")))
                            .clicked()
                        {
                            p.perks.retain(|x| x != perk);
                            p.perks.extend(std::iter::repeat_n(perk.clone(), n));
                        }
                    }
                });
            }
        });
        perks.header_response.tagged(tag("perks".into()));
    });
}

/// How many perks a character of `class` holds at most at `level`.
fn perks_at(class: &ClassOffer, level: u32) -> usize {
    class
        .most_perks
        .get(level.saturating_sub(1) as usize)
        .copied()
        .unwrap_or(0)
}

/// The first cards of a class's pool up to `level`, as many as a hand holds.
fn first_hand(c: &ClassOffer, level: u32) -> Vec<String> {
    c.cards
        .iter()
        .filter(|(_, l, _)| *l <= level)
        .take(c.hand_size)
        .map(|(n, _, _)| n.clone())
        .collect()
}

/// Why a choice cannot start yet: a hand short of its class's size.
fn not_ready(offer: &PartyOffer, choice: &PartyChoice) -> Option<String> {
    let players = choice.players.unwrap_or(offer.all);
    choice
        .heroes
        .iter()
        .take(players)
        .enumerate()
        .find_map(|(i, p)| {
            let p = p.as_ref()?;
            let c = offer.classes.iter().find(|c| c.name == p.class)?;
            (p.hand.len() != c.hand_size).then(|| {
                format!(
                    "{} needs a hand of {} cards ({} chosen).",
                    offer
                        .seats
                        .get(i)
                        .map_or("A character", |s| s.name.as_str()),
                    c.hand_size,
                    p.hand.len()
                )
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules' name, as the module a scenario file names declares it.
    struct RulesOf;

    impl ForRules for RulesOf {
        type Out = &'static str;

        fn run<R: Module>(self) -> &'static str {
            R::RULES
        }
    }

    #[test]
    fn the_list_names_each_scenarios_rules_and_heroes() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut named = Vec::new();
        for (file, heroes) in [
            ("tutorial.ron", 2),
            ("cinder-adit-ambush.ron", 3),
            ("dome-crossing.ron", 3),
        ] {
            let path = repo.join("scenarios").join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            let rules = with_rules(file, &text, RulesOf).unwrap();
            let listed = about(&Store::default(), &path, &Library::default()).unwrap();
            // The party sizes and levels follow when the scenario offers a choice of them.
            let offered = listed.offer.as_ref().map(offer_words).unwrap_or_default();
            assert_eq!(
                listed.what,
                format!("{rules} · {heroes} heroes{offered}"),
                "{file}"
            );
            named.push(rules);
        }
        named.dedup();
        assert_eq!(named.len(), 3, "three rule modules, three names: {named:?}");
    }

    #[test]
    fn the_list_says_the_party_sizes_and_levels_offered() {
        let offer = PartyOffer {
            levels: (0..=7).collect(),
            recommended: 1,
            players: 2..=4,
            all: 4,
            written_level: None,
            classes: Vec::new(),
            seats: Vec::new(),
        };
        assert_eq!(
            offer_words(&offer),
            " · 2–4 characters · levels 0–7, 1 recommended"
        );
        let fixed = PartyOffer {
            levels: Vec::new(),
            players: 3..=3,
            ..offer
        };
        assert_eq!(offer_words(&fixed), " · 3 characters");
    }

    #[test]
    fn a_search_keeps_the_scenarios_holding_every_word() {
        // The shipped scenarios, as the table finds them under `scenarios/`.
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut shelf = foehold_core::storage::Memory::default();
        for f in std::fs::read_dir(&repo).unwrap() {
            let path = f.unwrap().path();
            let name = std::path::Path::new("scenarios").join(path.file_name().unwrap());
            let text = std::fs::read(&path).unwrap();
            foehold_core::storage::Storage::write(&mut shelf, &name, &text).unwrap();
        }
        let (entries, _) = entries(&Store(Box::new(shelf)), &Mine(None));
        let found = |search: &str| -> Vec<&str> {
            entries
                .iter()
                .filter(|e| matches(e, search))
                .map(|e| e.name.as_str())
                .collect()
        };
        assert_eq!(found("").len(), entries.len());
        assert_eq!(found("DOME crossing"), ["Dome Crossing"]);
        // Words of the rules' name count: every goal-priority map, and nothing else.
        let goals = found("goal-priority");
        assert!(
            goals.contains(&"Dome Crossing") && goals.len() >= 3,
            "{goals:?}"
        );
        assert!(found("no-such-word-anywhere").is_empty());
        // Listed by module: each module's scenarios together, in the modules' order.
        let order: Vec<&str> = entries.iter().map(|e| e.module).collect();
        let mut grouped = order.clone();
        grouped.dedup();
        assert_eq!(
            grouped,
            crate::modules::played()[..grouped.len()],
            "{order:?}"
        );
    }
}
