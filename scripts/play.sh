#!/usr/bin/env bash
# Sets up a fresh machine and opens the 3D table on the default scenario (extra arguments are passed on).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup-apt.sh
cargo run --release --locked -p foehold-table -- "$@"
