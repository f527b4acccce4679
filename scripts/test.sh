#!/usr/bin/env bash
# Sets up a fresh machine and runs every check: formatting, lints, docs, all tests of the workspace and
# the screenshot test of the real window (under Xvfb with Mesa's software Vulkan).
set -euo pipefail
cd "$(dirname "$0")/.."

bash .ci/setup-apt.sh

echo "== format"
cargo fmt --all -- --check
echo "== lints"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
echo "== tests"
cargo test --workspace --locked
echo "== screenshot"
bash tests/screenshot.sh "${CARGO_TARGET_DIR:-target}/screenshot.png"
