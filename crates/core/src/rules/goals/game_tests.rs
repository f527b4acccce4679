//! Whole goal-priority games: playouts, replays, refusals, load errors and foes that act as decided.
