#!/usr/bin/env bash
# Sets up a fresh machine and runs every check: formatting, an engine-free rules core and headless
# command, lints, docs, all tests of the workspace, and the screenshot test of the real window (under
# Xvfb with Mesa's software Vulkan).
set -euo pipefail
cd "$(dirname "$0")/.."

bash .ci/setup-apt.sh

echo "== format"
cargo fmt --all -- --check
echo "== the rules core, the online protocol and the headless commands without an engine"
for package in foehold-core foehold-net foehold; do
    tree=$(cargo tree -p "$package" --locked --prefix none)
    if grep -i bevy <<<"$tree"; then
        echo "$package depends on the crates above: it must build without Bevy" >&2
        echo "(cargo tree -p $package -i CRATE shows which dependency brings one in)" >&2
        exit 1
    fi
done
echo "== lints"
cargo clippy --workspace --all-targets --features dev --locked -- -D warnings
echo "== lints of a player's build (no tools)"
cargo clippy -p foehold -p foehold-table --locked -- -D warnings
echo "== docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
echo "== tests"
cargo test --workspace --features dev --locked
echo "== benchmarks, each run once (their inputs and set-up stay valid)"
cargo test -p foehold-core -p foehold --benches --locked
echo "== screenshot"
bash crates/table/tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot.png"
echo "== screenshots of the other modules' boards (square grid; Domes, woods and adventures)"
# Mid-fight, played by the autopilot: the dice tray with its odds and an enemy's aim line in view.
FRAMES=120 bash crates/table/tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot-square.png" \
    scenarios/cinder-adit-ambush.ron --autoplay --seed 3
bash crates/table/tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot-goals.png" scenarios/dome-crossing.ron
