//! The table played as two friends play it: a real window under Xvfb, driven by real pointer and key
//! events from `xdotool`, checked by the pixels the X server shows and by the table's `--probe`.
//!
//! It needs `Xvfb` and `xdotool` (`.ci/setup-apt.sh` installs both) and Mesa's software Vulkan.
#![cfg(all(feature = "app", target_os = "linux"))]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use serde_json::Value;
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};

/// A process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A picture of the window as the X server shows it: RGB rows.
struct Shot {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

impl Shot {
    /// The mean colour of the 5×5 pixels around a point, as signed numbers.
    fn at(&self, x: f64, y: f64) -> [i32; 3] {
        let (cx, cy) = (x.round() as i64, y.round() as i64);
        let mut sum = [0i32; 3];
        let mut n = 0;
        for dy in -2..=2 {
            for dx in -2..=2 {
                let (px, py) = (cx + dx, cy + dy);
                if px < 0 || py < 0 || px as usize >= self.width || py as usize >= self.height {
                    continue;
                }
                let p = self.rgb[py as usize * self.width + px as usize];
                for c in 0..3 {
                    sum[c] += i32::from(p[c]);
                }
                n += 1;
            }
        }
        sum.map(|s| s / n.max(1))
    }

    fn save_ppm(&self, path: &Path) {
        let mut out = format!("P6\n{} {}\n255\n", self.width, self.height).into_bytes();
        for p in &self.rgb {
            out.extend_from_slice(p);
        }
        let _ = std::fs::write(path, out);
    }
}

/// The table running in its own X display, and what the test knows of it.
struct Table {
    display: String,
    window: u32,
    probe: PathBuf,
    /// Where pictures are kept when something fails, to look at.
    dir: PathBuf,
    app: Killed,
    _xvfb: Killed,
}

fn xdotool(display: &str, args: &[&str]) -> String {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
        .expect("xdotool runs (install it with .ci/setup-apt.sh)");
    assert!(
        out.status.success(),
        "xdotool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

impl Table {
    fn open(scenario: &str) -> Table {
        let dir = std::env::temp_dir().join(format!("foehold-real-click-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let display = format!(":{}", 300 + std::process::id() % 600);
        let xvfb = Command::new("Xvfb")
            .args([&display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts (install it with .ci/setup-apt.sh)");
        let xvfb = Killed(xvfb);
        let socket = format!("/tmp/.X11-unix/X{}", &display[1..]);
        let start = Instant::now();
        while !Path::new(&socket).exists() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "Xvfb did not start"
            );
            sleep(Duration::from_millis(100));
        }
        let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join(scenario);
        let probe = dir.join("probe.json");
        let log = std::fs::File::create(dir.join("table.log")).unwrap();
        // The game's autosaves go to the working directory: a scratch one.
        let app = Command::new(env!("CARGO_BIN_EXE_foehold"))
            .arg(&scenario)
            .args(["--seed", "1", "--probe"])
            .arg(&probe)
            .current_dir(&dir)
            .env("DISPLAY", &display)
            .env("WGPU_BACKEND", "vulkan")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        let app = Killed(app);
        let start = Instant::now();
        let window: u32 = loop {
            let found = Command::new("xdotool")
                .args(["search", "--name", "^Foehold"])
                .env("DISPLAY", &display)
                .output()
                .expect("xdotool runs (install it with .ci/setup-apt.sh)");
            let text = String::from_utf8_lossy(&found.stdout).to_string();
            if let Some(id) = text.lines().next().and_then(|l| l.trim().parse().ok()) {
                break id;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "no table window"
            );
            sleep(Duration::from_millis(250));
        };
        // No window manager runs here to give the new window the keyboard, as a desktop would.
        xdotool(&display, &["windowfocus", "--sync", &window.to_string()]);
        Table {
            display,
            window,
            probe,
            dir,
            app,
            _xvfb: xvfb,
        }
    }

    fn alive(&mut self) {
        if let Ok(Some(status)) = self.app.0.try_wait() {
            let log = std::fs::read_to_string(self.dir.join("table.log")).unwrap_or_default();
            panic!("the table exited ({status}):\n{log}");
        }
    }

    fn probe(&mut self) -> Value {
        let start = Instant::now();
        loop {
            self.alive();
            if let Ok(text) = std::fs::read_to_string(&self.probe)
                && let Ok(v) = serde_json::from_str(&text)
            {
                return v;
            }
            assert!(start.elapsed() < Duration::from_secs(120), "no probe");
            sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the table shows what `ready` looks for, and gives it back.
    fn wait_for<T>(&mut self, what: &str, secs: u64, ready: impl Fn(&Value) -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            let p = self.probe();
            if let Some(t) = ready(&p) {
                return t;
            }
            if start.elapsed() > Duration::from_secs(secs) {
                self.shot().save_ppm(&self.dir.join("timeout.ppm"));
                let widgets: Vec<&str> = p["widgets"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|w| w["name"].as_str())
                    .collect();
                panic!(
                    "waited {secs} s for {what}; the table shows {} {}, widgets {widgets:?}, \
                     message {} (picture in {})",
                    p["game"],
                    p["seats"],
                    p["message"],
                    self.dir.display()
                );
            }
            sleep(Duration::from_millis(150));
        }
    }

    fn pointer_to(&self, x: f64, y: f64) {
        let (x, y) = (x.round().to_string(), y.round().to_string());
        let w = self.window.to_string();
        xdotool(&self.display, &["mousemove", "--window", &w, &x, &y]);
    }

    /// Moves the pointer and clicks in one go, as a quick hand does; then waits for the table to
    /// draw three more frames, as a hand waits to see what the click did before the next one.
    fn click_at(&mut self, x: f64, y: f64) {
        let (sx, sy) = (x.round().to_string(), y.round().to_string());
        let w = self.window.to_string();
        let before = self.probe()["frame"].as_u64().unwrap();
        xdotool(
            &self.display,
            &["mousemove", "--window", &w, &sx, &sy, "click", "1"],
        );
        self.frames_after(before, 3);
    }

    /// Waits until the table drew `n` frames after frame `before`.
    fn frames_after(&mut self, before: u64, n: u64) {
        self.wait_for("the next frames", 60, |p| {
            (p["frame"].as_u64()? >= before + n).then_some(())
        });
    }

    /// Clicks the named button once it can be clicked and has stayed in place for two frames (a
    /// window that just opened is still finding its size).
    fn click(&mut self, name: &str) {
        let start = Instant::now();
        let mut seen: Option<(u64, Value)> = None;
        loop {
            let (x, y) = self.wait_for(&format!("the button {name}"), 60, |p| {
                widget(p, name).filter(|w| w["enabled"] == true).map(centre)
            });
            let p = self.probe();
            let frame = p["frame"].as_u64().unwrap();
            let now = widget(&p, name).cloned();
            match (&seen, now) {
                (Some((f, w)), Some(now)) if *f < frame && *w == now => {
                    self.click_at(x, y);
                    return;
                }
                (Some((f, _)), Some(now)) if *f < frame => seen = Some((frame, now)),
                (None, Some(now)) => seen = Some((frame, now)),
                _ => {}
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{name} kept moving"
            );
            sleep(Duration::from_millis(100));
        }
    }

    fn key(&mut self, keys: &str) {
        let before = self.probe()["frame"].as_u64().unwrap();
        xdotool(&self.display, &["key", "--clearmodifiers", keys]);
        self.frames_after(before, 3);
    }

    /// The window as the X server shows it.
    fn shot(&self) -> Shot {
        let (conn, _) = x11rb::connect(Some(&self.display)).expect("X connection");
        let geometry = conn.get_geometry(self.window).unwrap().reply().unwrap();
        let (w, h) = (geometry.width, geometry.height);
        let image = conn
            .get_image(ImageFormat::Z_PIXMAP, self.window, 0, 0, w, h, !0)
            .unwrap()
            .reply()
            .unwrap();
        assert_eq!(image.depth, 24, "a 24-bit display");
        // Depth 24 comes as 32 bits per pixel, blue first, on a little-endian server.
        let rgb = image
            .data
            .chunks_exact(4)
            .map(|p| [p[2], p[1], p[0]])
            .collect();
        let _ = conn.flush();
        Shot {
            width: usize::from(w),
            height: usize::from(h),
            rgb,
        }
    }

    /// Waits until the window shows what `shows` looks for: what the game did reaches the screen
    /// a frame or two later. On failure the last picture is kept to look at.
    fn until_picture(&mut self, what: &str, secs: u64, shows: impl Fn(&Shot) -> bool) -> Shot {
        let start = Instant::now();
        loop {
            self.alive();
            let shot = self.shot();
            if shows(&shot) {
                return shot;
            }
            if start.elapsed() > Duration::from_secs(secs) {
                let path = self.dir.join("failed.ppm");
                shot.save_ppm(&path);
                panic!(
                    "the window never showed {what} (picture: {})",
                    path.display()
                );
            }
            sleep(Duration::from_millis(300));
        }
    }

    /// Waits until the camera stops gliding: two probes in a row put every cell at the same place.
    fn settled(&mut self) -> Value {
        let mut before = self.probe();
        let start = Instant::now();
        loop {
            sleep(Duration::from_millis(400));
            let now = self.probe();
            if now["frame"] != before["frame"]
                && now["cells"] == before["cells"]
                && now["figures"] == before["figures"]
            {
                return now;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the camera never settled"
            );
            before = now;
        }
    }
}

fn widget<'a>(p: &'a Value, name: &str) -> Option<&'a Value> {
    p["widgets"].as_array()?.iter().find(|w| w["name"] == name)
}

fn widgets_starting(p: &Value, prefix: &str) -> Vec<String> {
    p["widgets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w["name"].as_str())
        .filter(|n| n.starts_with(prefix))
        .map(String::from)
        .collect()
}

fn centre(w: &Value) -> (f64, f64) {
    let f = |k: &str| w[k].as_f64().unwrap();
    (f("x") + f("w") / 2.0, f("y") + f("h") / 2.0)
}

fn phase(p: &Value) -> String {
    p["game"]["phase"].as_str().unwrap_or_default().to_string()
}

fn cursor(p: &Value) -> u64 {
    p["game"]["cursor"].as_u64().unwrap()
}

fn figure<'a>(p: &'a Value, name: &str) -> &'a Value {
    p["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == name)
        .unwrap_or_else(|| panic!("no figure {name}"))
}

fn point(v: &Value) -> (f64, f64) {
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// Cells with this mark, uncovered by windows and clear of every mini (which stands over its cell).
fn marked(p: &Value, mark: &str) -> Vec<Value> {
    in_view(p, |c| c["mark"] == mark)
}

/// Cells that `keep` keeps, uncovered by windows and clear of every mini.
fn in_view(p: &Value, keep: impl Fn(&Value) -> bool) -> Vec<Value> {
    let minis: Vec<(f64, f64)> = p["figures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["dead"] == false)
        .flat_map(|f| [point(&f["foot"]), point(&f["body"])])
        .collect();
    p["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| keep(c) && c["covered"] == false)
        .filter(|c| {
            let (x, y) = (c["x"].as_f64().unwrap(), c["y"].as_f64().unwrap());
            minis
                .iter()
                .all(|&(mx, my)| (mx - x).abs() > 40.0 || (my - y).abs() > 40.0)
        })
        .cloned()
        .collect()
}

fn cell_xy(c: &Value) -> (f64, f64) {
    (c["x"].as_f64().unwrap(), c["y"].as_f64().unwrap())
}

/// How much bluer a point became from one picture to the next.
fn bluer(before: [i32; 3], after: [i32; 3]) -> i32 {
    (after[2] - after[0]) - (before[2] - before[0])
}

/// How much more yellow (red and green over blue) a point became.
fn yellower(before: [i32; 3], after: [i32; 3]) -> i32 {
    let y = |c: [i32; 3]| (c[0] + c[1]) / 2 - c[2];
    y(after) - y(before)
}

fn distance(a: [i32; 3], b: [i32; 3]) -> i32 {
    (0..3).map(|i| (a[i] - b[i]).abs()).sum()
}

/// Picks two cards for every hero of the player holding the screen, after the hand-off.
fn choose_cards(t: &mut Table, hero: &str) {
    t.click("handoff:ready");
    let prefix = format!("card:{hero}:");
    let rows = t.wait_for("the card rows", 60, |p| {
        let rows = widgets_starting(p, &prefix);
        (rows.len() >= 2).then_some(rows)
    });
    // Picked from the end of the hand: the basic halves make any two cards playable.
    for row in rows.iter().rev().take(2) {
        t.click(row);
    }
    // Confirm opens only with two cards picked: both clicks counted, neither undid the other.
    let confirm = format!("cards:{hero}:confirm");
    t.click(&confirm);
    t.wait_for("the confirmed cards", 30, |p| {
        widget(p, &confirm).is_none().then_some(())
    });
}

#[test]
fn two_players_play_the_tutorial_with_a_real_pointer_and_keyboard() {
    let mut t = Table::open("scenarios/tutorial.ron");
    let p = t.wait_for("the Players window", 120, |p| {
        widget(p, "players:start").map(|_| p.clone())
    });
    assert_eq!(p["seats"]["players"], 2, "the scenario seats two players");
    t.click("players:start");

    // Round 1: the screen passes from Player 1 (Mara) to Player 2 (Pell), each choosing in secret.
    choose_cards(&mut t, "Mara");
    let p = t.probe();
    assert_eq!(p["seats"]["current"], 2, "Player 2 chooses next");
    assert!(
        widgets_starting(&p, "card:").is_empty(),
        "Mara's cards are hidden before Player 2 takes the screen"
    );
    choose_cards(&mut t, "Pell");

    // The first hero's turn: note the board before any half is chosen.
    let p = t.wait_for("a hero's turn", 120, |p| {
        phase(p).starts_with("HeroTurn").then(|| p.clone())
    });
    let acting = if phase(&p).contains("hero: 0") {
        "Mara"
    } else {
        "Pell"
    };
    let other = if acting == "Mara" { "Pell" } else { "Mara" };
    // The pointer rests on the log window, away from the board.
    t.pointer_to(1100.0, 150.0);
    let before = t.settled();
    let plain = t.shot();

    // Refused: the other player's hero is not the one to command.
    let (ox, oy) = point(&figure(&before, other)["body"]);
    t.click_at(ox, oy);
    let refusal = t.wait_for("the refusal", 30, |p| {
        p["message"].as_str().map(String::from)
    });
    assert!(
        refusal.contains("belongs to Player") && refusal.contains(acting),
        "refusal: {refusal}"
    );

    // A move half: the reachable hexes turn blue before anything else is clicked.
    let halves = widgets_starting(&before, "half:");
    let basic_move = halves
        .iter()
        .find(|h| h.ends_with(":basic-bottom"))
        .expect("a basic move half")
        .clone();
    t.click(&basic_move);
    t.pointer_to(1100.0, 150.0);
    let p = t.wait_for("reachable hexes", 30, |p| {
        let reach = marked(p, "Reach");
        (reach.len() >= 3).then(|| p.clone())
    });
    let reach = marked(&p, "Reach");
    let lit = t.until_picture("the reachable hexes in blue", 20, |lit| {
        let blue = reach
            .iter()
            .filter(|c| {
                let (x, y) = cell_xy(c);
                bluer(plain.at(x, y), lit.at(x, y)) > 25
            })
            .count();
        blue * 10 >= reach.len() * 8
    });
    // Floor out of reach keeps its colour.
    let out_of_reach = in_view(&p, |c| c["mark"].is_null() && c["ground"] == "Floor");
    let still = out_of_reach
        .iter()
        .filter(|c| {
            let (x, y) = cell_xy(c);
            distance(plain.at(x, y), lit.at(x, y)) < 30
        })
        .count();
    assert!(
        out_of_reach.len() >= 3 && still * 10 >= out_of_reach.len() * 8,
        "{still} of {} hexes out of reach kept their colour",
        out_of_reach.len()
    );

    // Pointing at the farthest reachable hex previews the path, before any click.
    let (hero_x, hero_y) = point(&figure(&p, acting)["foot"]);
    let goal = reach
        .iter()
        .max_by(|a, b| {
            let d = |c: &Value| {
                let (x, y) = cell_xy(c);
                (x - hero_x) * (x - hero_x) + (y - hero_y) * (y - hero_y)
            };
            d(a).total_cmp(&d(b))
        })
        .unwrap()
        .clone();
    let (gx, gy) = cell_xy(&goal);
    t.pointer_to(gx, gy);
    let p = t.wait_for("the path preview", 30, |p| {
        let end = p["cells"]
            .as_array()?
            .iter()
            .find(|c| c["q"] == goal["q"] && c["r"] == goal["r"])?;
        (end["mark"] == "Path").then(|| p.clone())
    });
    t.until_picture(
        "the hovered end of the move as the path's end",
        20,
        |pointed| yellower(plain.at(gx, gy), pointed.at(gx, gy)) > 25,
    );
    assert_eq!(
        p["hovered"]["cell"],
        serde_json::json!([goal["q"], goal["r"]])
    );

    // Away to a window and straight back with a click: the press lands on the hex.
    t.pointer_to(1100.0, 150.0);
    sleep(Duration::from_millis(300));
    t.click_at(gx, gy);
    t.click("turn:play");
    let (goal_q, goal_r) = (goal["q"].clone(), goal["r"].clone());
    let p = t.wait_for("the mini on its new hex", 60, |p| {
        let f = figure(p, acting);
        let (fx, fy) = point(&f["foot"]);
        (f["q"] == goal_q && f["r"] == goal_r && (fx - gx).abs() < 4.0 && (fy - gy).abs() < 4.0)
            .then(|| p.clone())
    });
    t.pointer_to(1100.0, 150.0);
    let (bx, by) = point(&figure(&p, acting)["body"]);
    let (old_x, old_y) = point(&figure(&before, acting)["body"]);
    // The mini stands on its new hex and has left its old one.
    let moved = t.until_picture("the mini on its new hex", 20, |moved| {
        distance(plain.at(bx, by), moved.at(bx, by)) > 60
            && distance(plain.at(old_x, old_y), moved.at(old_x, old_y)) > 60
    });
    moved.save_ppm(&t.dir.join("moved.ppm"));
    let moved_at = cursor(&p);

    // Ctrl+Z takes the move back and Ctrl+Y plays it again; the mini follows.
    t.key("ctrl+z");
    let p = t.wait_for("the undone move", 30, |p| {
        (cursor(p) == moved_at - 1).then(|| p.clone())
    });
    assert_eq!(figure(&p, acting)["q"], figure(&before, acting)["q"]);
    assert_eq!(figure(&p, acting)["r"], figure(&before, acting)["r"]);
    t.key("ctrl+y");
    t.wait_for("the redone move", 30, |p| {
        let f = figure(p, acting);
        (cursor(p) == moved_at && f["q"] == goal_q && f["r"] == goal_r).then_some(())
    });
    // The same with the menu's buttons.
    t.click("menu:undo");
    t.wait_for("the undone move", 30, |p| {
        (cursor(p) == moved_at - 1).then_some(())
    });
    t.click("menu:redo");
    t.wait_for("the redone move", 30, |p| {
        (cursor(p) == moved_at).then_some(())
    });

    // The camera follows a right drag (orbit) and a middle drag (pan) of the real pointer.
    let p = t.probe();
    let yaw = p["camera"]["yaw"].as_f64().unwrap();
    let focus = p["camera"]["focus"].clone();
    drag(&t, 3, (700.0, 650.0), (820.0, 650.0));
    t.wait_for("the camera to orbit", 30, |p| {
        ((p["camera"]["yaw"].as_f64()? - yaw).abs() > 0.2).then_some(())
    });
    drag(&t, 2, (700.0, 650.0), (640.0, 600.0));
    t.wait_for("the camera to pan", 30, |p| {
        (p["camera"]["focus"] != focus).then_some(())
    });

    // The rest of the round: both heroes end their turns, the foes act, the round ends.
    play_on_until_attack(&mut t);
}

/// Drags with a mouse button held, in small steps over several frames as a hand does.
fn drag(t: &Table, button: u8, from: (f64, f64), to: (f64, f64)) {
    let b = button.to_string();
    t.pointer_to(from.0, from.1);
    xdotool(&t.display, &["mousedown", &b]);
    for i in 1..=8 {
        let f = f64::from(i) / 8.0;
        t.pointer_to(from.0 + (to.0 - from.0) * f, from.1 + (to.1 - from.1) * f);
        sleep(Duration::from_millis(120));
    }
    xdotool(&t.display, &["mouseup", &b]);
}

/// Plays on, round after round, until a hero attacks a foe by clicking it; then undoes and redoes
/// the attack with the keyboard.
fn play_on_until_attack(t: &mut Table) {
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(900),
            "no attack within the time allowed"
        );
        let p = t.probe();
        let ph = phase(&p);
        if ph == "CardSelection" && p["seats"]["current"].is_number() {
            let hero = if p["seats"]["current"] == 1 {
                "Mara"
            } else {
                "Pell"
            };
            choose_cards(t, hero);
        } else if p["game"]["pending"]
            .as_str()
            .is_some_and(|t| t.starts_with("FoeOption"))
        {
            // Outcomes equal under the rules light up on the board: the table clicks one.
            let ends = marked(&p, "Tie");
            let was = p["game"]["pending"].clone();
            match ends.first() {
                Some(end) => {
                    let (x, y) = cell_xy(end);
                    t.click_at(x, y);
                }
                None => t.click("tie:1"),
            }
            t.wait_for("the tie settled", 60, |p| {
                (p["game"]["pending"] != was).then_some(())
            });
        } else if !p["game"]["pending"].is_null() && widget(&p, "tie:1").is_some() {
            // Who acts first among equals, or how a drawn card counts: the first offered.
            t.click("tie:1");
        } else if ph == "RoundEnd" {
            t.click("round:end");
            sleep(Duration::from_millis(500));
        } else if ph.starts_with("HeroTurn") && p["game"]["pending"].is_null() {
            if try_attack(t) {
                return;
            }
            t.click("turn:end");
            let was = cursor(&p);
            t.wait_for("the turn to end", 30, |p| (cursor(p) > was).then_some(()));
        } else {
            sleep(Duration::from_millis(300));
        }
    }
}

/// Tries each attack half against each foe; true when an attack was played (and checked).
fn try_attack(t: &mut Table) -> bool {
    // The camera glides to the hero whose turn it is: aim once it stands still.
    let p = t.settled();
    let halves: Vec<String> = widgets_starting(&p, "half:")
        .into_iter()
        .filter(|h| widget(&p, h).is_some_and(|w| w["enabled"] == true))
        .filter(|h| !h.ends_with("bottom"))
        .collect();
    let foes: Vec<Value> = p["figures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["side"] == "Foe" && f["hp"].as_i64() > Some(0))
        .cloned()
        .collect();
    for half in halves {
        t.click(&half);
        t.wait_for("the half chosen", 30, |p| {
            widget(p, "turn:cancel").map(|_| ())
        });
        for foe in &foes {
            let (x, y) = point(&foe["body"]);
            t.click_at(x, y);
            let p = t.probe();
            let targeted = p["cells"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["q"] == foe["q"] && c["r"] == foe["r"] && c["mark"] == "Focus");
            let playable = widget(&p, "turn:play").is_some_and(|w| w["enabled"] == true);
            if targeted && playable {
                let was = cursor(&p);
                let hp = foe["hp"].as_i64().unwrap();
                let name = foe["name"].as_str().unwrap().to_string();
                t.click("turn:play");
                let p = t.wait_for("the attack", 60, |p| (cursor(p) > was).then(|| p.clone()));
                // A draw the hero's player must read (say +0 with poison against +1): the first.
                let p = if p["game"]["pending"].is_null() {
                    p
                } else {
                    t.click("tie:1");
                    t.wait_for("the attack's card use", 60, |p| {
                        p["game"]["pending"].is_null().then(|| p.clone())
                    })
                };
                let after = figure(&p, &name)["hp"].as_i64().unwrap();
                let done = cursor(&p);
                // Undo and redo bring the foe's hit points back and forth.
                t.key("ctrl+z");
                let q = t.wait_for("the undone attack", 30, |p| {
                    (cursor(p) < done).then(|| p.clone())
                });
                assert_eq!(figure(&q, &name)["hp"].as_i64().unwrap(), hp);
                t.key("ctrl+y");
                let q = t.wait_for("the redone attack", 30, |p| {
                    (cursor(p) == done).then(|| p.clone())
                });
                assert_eq!(figure(&q, &name)["hp"].as_i64().unwrap(), after);
                return true;
            }
            // Not a target this half can attack: unpick it again.
            if targeted {
                t.click_at(x, y);
            }
        }
        t.click("turn:cancel");
    }
    false
}
