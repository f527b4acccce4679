#!/usr/bin/env bash
# Screenshot smoke test of the real window: renders the default scenario under Xvfb with Mesa's software
# Vulkan, saves a PNG and fails when the app fails or the picture is blank.
# usage: crates/table/tests/screenshot.sh [OUT.png] [extra foehold-table arguments...]
set -euo pipefail

out="${1:-${CARGO_TARGET_DIR:-target}/screenshot.png}"
shift || true
bin="${FOEHOLD_BIN:-}"
if [ -z "$bin" ]; then
    # Built as the tests build it: `cargo build -p foehold-table` leaves out the dev-dependencies,
    # whose features (rand's, rustix's) differ and would compile the engine a second time.
    cargo test --workspace --features dev --locked --no-run
    bin="${CARGO_TARGET_DIR:-target}/debug/foehold-table"
fi

xvfb_pid=""
if [ -z "${DISPLAY:-}" ]; then
    # Xvfb picks a free display itself and writes its number: a number chosen here could belong to
    # a server killed earlier whose socket was left behind.
    fifo="$(mktemp -u)"
    mkfifo "$fifo"
    exec 3<>"$fifo"
    rm -f "$fifo"
    Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    trap 'kill "$xvfb_pid" 2>/dev/null || true' EXIT
    number=""
    read -r -t 30 number <&3 || true
    exec 3<&-
    [ -n "$number" ] || { echo "screenshot: Xvfb named no display" >&2; exit 1; }
    export DISPLAY=":$number"
fi

rm -f "$out"
# Software rendering only: the test must not depend on a GPU being present.
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
timeout 300 "$bin" "$@" --screenshot "$out" --after-frames "${FRAMES:-40}" --check-not-blank
test -s "$out" || { echo "screenshot: $out was not written" >&2; exit 1; }
echo "screenshot: ok ($out)"
