#!/usr/bin/env bash
# Sets up a fresh machine and runs every check: formatting, an engine-free rules core, lints, docs, all
# tests of the workspace and of the headless build, and the screenshot test of the real window (under
# Xvfb with Mesa's software Vulkan).
set -euo pipefail
cd "$(dirname "$0")/.."

bash .ci/setup-apt.sh

echo "== format"
cargo fmt --all -- --check
echo "== rules core without an engine"
tree=$(cargo tree -p foehold-core --locked --prefix none)
if grep -i bevy <<<"$tree"; then
    echo "foehold-core depends on the crates above: the rules core must build without Bevy" >&2
    echo "(cargo tree -p foehold-core -i CRATE shows which dependency brings one in)" >&2
    exit 1
fi
echo "== lints"
cargo clippy --workspace --all-targets --features dev --locked -- -D warnings
echo "== lints, headless build and a player's build (no tools)"
cargo clippy --no-default-features --all-targets --features dev --locked -- -D warnings
cargo clippy --bin foehold --locked -- -D warnings
echo "== docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
echo "== tests"
cargo test --workspace --features dev --locked
echo "== tests, headless build"
cargo test --no-default-features --features dev --locked
echo "== benchmarks, each run once (their inputs and set-up stay valid)"
cargo test -p foehold-core --benches --locked
cargo test --no-default-features --benches --locked
echo "== screenshot"
bash tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot.png"
echo "== screenshots of the other modules' boards (square grid; Domes, woods and adventures)"
# Mid-fight, played by the autopilot: the dice tray with its odds and an enemy's aim line in view.
FRAMES=120 bash tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot-square.png" \
    scenarios/cinder-adit-ambush.ron --autoplay --seed 3
bash tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot-goals.png" scenarios/dome-crossing.ron
