//! Stacking Foes seen from the invaded foe: it decides as though the invader were not there.
//!
//! Where that keeps it on its hex, it decides again with the hex forbidden, and moves off only if the
//! same option and target still come out; otherwise it stays and pushes the invader back.

use super::adventure::unleash;
use super::context::Ctx;
use super::situation::{Mode, Outcome, Situation};

/// One goal decision of the active foe: unleash, else its goal list from `mode`.
pub(crate) fn goal_turn(
    s: &Situation,
    ignore: Option<usize>,
    own_end: bool,
    t: &mut Vec<String>,
) -> Vec<Outcome> {
    if let Some(o) = unleash(s, ignore, own_end, t) {
        return o;
    }
    let ctx = Ctx::for_foe(s, ignore, own_end);
    match s.mode {
        Mode::Special => ctx.special_goal(1, t),
        _ => ctx.attack_goal(t),
    }
}

/// The whole turn, with the invaded-hex rule.
pub(crate) fn turn(s: &Situation, t: &mut Vec<String>) -> Vec<Outcome> {
    let me = &s.foes[s.active];
    let invader = s
        .foes
        .iter()
        .enumerate()
        .find(|(k, f)| *k != s.active && f.hex == me.hex && f.acted);
    let Some((k, inv)) = invader else {
        return goal_turn(s, None, true, t);
    };
    t.push(format!(
        "{} shares its hex with {}: it decides as though {} were not there.",
        me.name, inv.name, inv.name
    ));
    let first = goal_turn(s, Some(k), true, t);
    let (stay, mut out): (Vec<Outcome>, Vec<Outcome>) =
        first.into_iter().partition(|o| o.end == me.hex);
    if stay.is_empty() {
        return out;
    }
    t.push(format!(
        "It would stay; it decides again with ({}, {}) forbidden.",
        me.hex.x, me.hex.y
    ));
    let mut again = Vec::new();
    let second = goal_turn(s, Some(k), false, &mut again);
    t.extend(again.into_iter().map(|l| format!("  {l}")));
    let back = inv.entered_from.unwrap_or(inv.hex);
    for o in stay {
        let same: Vec<Outcome> = second
            .iter()
            .filter(|x| x.option == o.option && x.target == o.target)
            .cloned()
            .collect();
        if same.is_empty() {
            t.push(format!(
                "{} {}: not achieved off its hex, so it stays and {} goes back to ({}, {}).",
                o.option,
                o.target.as_deref().unwrap_or("(no target)"),
                inv.name,
                back.x,
                back.y
            ));
            let mut o = o;
            o.unstack = Some((inv.name.clone(), back));
            out.push(o);
        } else {
            t.push(format!(
                "{} {}: still achieved off its hex, so it moves off.",
                o.option,
                o.target.as_deref().unwrap_or("(no target)")
            ));
            out.extend(same);
        }
    }
    out
}
