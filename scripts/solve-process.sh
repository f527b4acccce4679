#!/usr/bin/env bash
# Times whole `foehold solve --json` processes (hyperfine) over a set of 182 puzzles: 181 ordinary
# ones (the public puzzles three times and more, and our own) and the heavy ranged-area puzzle, on
# one thread and on one per core. Usage: scripts/solve-process.sh [BINARY] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/foehold}"
runs="${2:-200}"
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
[ -x "$bin" ] || { echo "no $bin: cargo build --release --no-default-features" >&2; exit 2; }
set_dir="$(mktemp -d)"
trap 'rm -rf "$set_dir"' EXIT
n=0
add() { n=$((n + 1)); cp "$1" "$set_dir/$(printf %03d "$n")-$(basename "$1")"; }
public=(tests/conformance/frosthaven/*.ron)
for _ in 1 2 3; do for f in "${public[@]}"; do add "$f"; done; done
for f in tests/puzzles/own-*.ron; do add "$f"; done
for f in "${public[@]}"; do [ "$n" -lt 181 ] && add "$f"; done
add tests/puzzles/heavy-001.ron
echo "$n puzzles in $set_dir"
hyperfine -N --warmup 20 --runs "$runs" \
    "$bin solve --json --jobs 1 $set_dir" "$bin solve --json $set_dir" /bin/true
