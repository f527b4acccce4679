#!/usr/bin/env bash
# Screenshot smoke test of the real window: renders the default scenario under Xvfb with Mesa's software
# Vulkan, saves a PNG and fails when the app fails or the picture is blank.
# usage: tests/screenshot.sh [OUT.png] [extra foehold arguments...]
set -euo pipefail

out="${1:-${CARGO_TARGET_DIR:-target}/screenshot.png}"
shift || true
bin="${FOEHOLD_BIN:-}"
if [ -z "$bin" ]; then
    cargo build --bin foehold
    bin="${CARGO_TARGET_DIR:-target}/debug/foehold"
fi

xvfb_pid=""
if [ -z "${DISPLAY:-}" ]; then
    # A display number nobody else uses, so parallel runs do not collide.
    display=":$((100 + $$ % 800))"
    Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    trap 'kill "$xvfb_pid" 2>/dev/null || true' EXIT
    export DISPLAY="$display"
    for _ in $(seq 50); do
        [ -e "/tmp/.X11-unix/X${display#:}" ] && break
        sleep 0.1
    done
fi

rm -f "$out"
# Software rendering only: the test must not depend on a GPU being present.
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
timeout 300 "$bin" "$@" --screenshot "$out" --after-frames "${FRAMES:-40}" --check-not-blank
test -s "$out" || { echo "screenshot: $out was not written" >&2; exit 1; }
echo "screenshot: ok ($out)"
