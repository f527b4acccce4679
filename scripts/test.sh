#!/usr/bin/env bash
# Sets up a fresh machine and runs every check: formatting, an engine-free rules core and headless
# command, lints, docs, all tests of the workspace, and the screenshot test of the real window (under
# Xvfb with Mesa's software Vulkan). Each stage's wall time is printed, and all of them at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every stage builds with one feature set, the tests' (`--workspace --all-targets --features dev`):
# a build that selects fewer packages or targets resolves other features for shared dependencies
# and compiles part of the engine again (see CONTRIBUTING.md, "What the test command costs").
stages=()
started=$(date +%s)
stage_start=$started
stage_name=""
finish_stage() {
    [ -n "$stage_name" ] || return 0
    local now
    now=$(date +%s)
    stages+=("$(printf '%6d s  %s' $((now - stage_start)) "$stage_name")")
    echo "-- $stage_name: $((now - stage_start)) s"
    stage_name=""
}
stage() {
    finish_stage
    stage_name="$1"
    stage_start=$(date +%s)
    echo "== $1"
}
summary() {
    local status=$?
    finish_stage
    echo "== time by stage"
    printf '%s\n' "${stages[@]}"
    printf '%6d s  total (exit status %d)\n' $(($(date +%s) - started)) "$status"
}
trap summary EXIT

stage "system packages"
bash .ci/setup-apt.sh

stage "format"
cargo fmt --all -- --check

stage "the rules core, the online protocol and the headless commands without an engine"
for package in foehold-core foehold-net foehold-desktop foehold; do
    tree=$(cargo tree -p "$package" --locked --prefix none)
    if grep -i bevy <<<"$tree"; then
        echo "$package depends on the crates above: it must build without Bevy" >&2
        echo "(cargo tree -p $package -i CRATE shows which dependency brings one in)" >&2
        exit 1
    fi
done

stage "the rules core and the online protocol for a browser (wasm32)"
# Neither needs files, threads or the system's network to build: a browser build stands on them.
rustup target add wasm32-unknown-unknown
cargo check --target wasm32-unknown-unknown -p foehold-core -p foehold-net --locked

stage "lints"
cargo clippy --workspace --all-targets --features dev --locked -- -D warnings

stage "lints of a player's build (no tools)"
# All targets, so that the dependencies keep the features of the pass above and only our crates
# are checked again; the programs and libraries are checked without the `dev` tools.
cargo clippy --workspace --all-targets --locked -- -D warnings

stage "docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet

stage "building the tests"
# `--timings` keeps a report of what each crate cost (target/cargo-timings/).
cargo test --workspace --features dev --locked --no-run --timings

stage "tests"
cargo test --workspace --features dev --locked

stage "benchmarks, each run once (their inputs and set-up stay valid)"
# `--bench '*'`: bench targets only (`--benches` also takes the libraries' unit tests, run above).
cargo test --workspace --features dev --locked --bench '*'

# The screenshots run the table the tests built.
bin="${CARGO_TARGET_DIR:-target}/debug/foehold-table"
stage "screenshot"
FOEHOLD_BIN="$bin" bash crates/table/tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot.png"

stage "screenshots of the other modules' boards (square grid; Domes, woods and adventures)"
# Mid-fight, played by the autopilot at the fastest pace: the dice tray with its odds and an
# enemy's aim line in view (a frame drawn in full costs about half a second).
FRAMES=70 FOEHOLD_BIN="$bin" bash crates/table/tests/screenshot.sh \
    "${CARGO_TARGET_DIR:-target}/screenshot-square.png" scenarios/cinder-adit-ambush.ron --autoplay --seed 3 \
    --speed 4
FOEHOLD_BIN="$bin" bash crates/table/tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot-goals.png" \
    scenarios/dome-crossing.ron
finish_stage
