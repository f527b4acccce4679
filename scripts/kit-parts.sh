#!/usr/bin/env bash
# The module kit's compile-time check, shown on the test-only toy module: in a scratch copy of the
# committed tree, each part of the toy is taken away in turn and the workspace's tests are checked,
# which must fail to compile with the error printed. Exits 1 if any removal still compiles.
# Not part of the test command (about a minute per part with a warm target folder).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target=${CARGO_TARGET_DIR:-$HOME/.cache/foehold-target}
scratch=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$scratch/tree" >/dev/null 2>&1 || true; rm -rf "$scratch"' EXIT
git worktree add --detach "$scratch/tree" HEAD >/dev/null 2>&1

# part name | what is taken away (a command run in the scratch tree)
parts=(
  "presentation (impl Present)|perl -0pi -e 's/\nimpl Present for Toy \{.*?\n\}\n/\n/s' crates/core/src/rules/toy/mod.rs"
  "coverage (impl Coverage)|sed -i '/^mod coverage;\$/d' crates/core/src/rules/toy/mod.rs"
  "lab (impl Lab)|sed -i '/^mod lab;\$/d' crates/core/src/rules/toy/mod.rs"
  "case format (Module::CASES)|sed -i '/const CASES: CaseFormat = crate::rules::toy::case::FORMAT;/d' crates/core/src/kit.rs"
  "the list's entry (impl kit::Module)|perl -0pi -e 's/\n#\[cfg\(any\(test, feature = \x22testing\x22\)\)\]\nimpl Module for crate::rules::toy::Toy \{.*?\n\}\n/\n/s' crates/core/src/kit.rs"
  "table part (the table's impl Module)|perl -0pi -e 's/\n#\[cfg\(test\)\]\nimpl Module for foehold_core::rules::toy::Toy \{.*?\n\}\n/\n/s' crates/table/src/modules.rs"
)

compiled=0
for entry in "${parts[@]}"; do
  name=${entry%%|*}
  edit=${entry#*|}
  (cd "$scratch/tree" && git checkout -q -- . && eval "$edit")
  if (cd "$scratch/tree" && git diff --quiet); then
    echo "!! $name: the edit changed nothing (the script is out of date)"
    compiled=1
    continue
  fi
  if out=$(cd "$scratch/tree" && CARGO_TARGET_DIR=$target cargo check --workspace --all-targets \
      --features dev --locked --message-format short 2>&1); then
    echo "!! $name taken away: still compiles"
    compiled=1
  else
    echo "-- $name taken away: does not compile"
    # The errors the kit's files give first: they name the part that is missing.
    errors=$(grep -E 'error(\[E[0-9]+\])?:' <<<"$out" || true)
    at_kit=$(grep -E '^crates/(core/src/kit|table/src/modules)\.rs:' <<<"$errors" || true)
    { if [ -n "$at_kit" ]; then echo "$at_kit"; else echo "$errors"; fi; } | head -2 | sed 's/^/     /'
  fi
done
exit $compiled
