#!/usr/bin/env bash
# Fails when a crate declares a dependency its sources never name (issue 27: unused
# dependencies are removed and stay removed). Cheap: text search only, no build.
#
# For every Cargo.toml under crates/ and web/: each entry of [dependencies],
# [dev-dependencies] and their target-specific tables must be named (`name::`, `use name`,
# `name!`, `extern crate name`, with `-` read as `_`) somewhere in the crate's src/, tests/,
# examples/, benches/ or build.rs. Dependencies that exist only for a feature flag of a
# transitive dependency (never named by design) are listed in ALLOW.
#
# usage: scripts/check-deps.sh   (from the repository root; exit 1 lists the offenders)
set -euo pipefail
cd "$(dirname "$0")/.."

# crate:dependency pairs that are declared on purpose without being named
ALLOW=(
  # getrandom 0.2 needs its "js" feature on wasm32-unknown-unknown (rand → getrandom)
  "*:getrandom"
)

allowed() {
  local crate=$1 dep=$2 entry
  for entry in "${ALLOW[@]}"; do
    [[ "$entry" == "*:$dep" || "$entry" == "$crate:$dep" ]] && return 0
  done
  return 1
}

# the dependency names of the tables whose header matches $2 in manifest $1
deps_of() {
  awk -v want="$2" '
    /^\[/ { section = $0; next }
    section ~ want && /^[A-Za-z0-9_-]+[ \t]*(=|\.workspace)/ {
      name = $0; sub(/[ \t.=].*/, "", name); print name
    }' "$1"
}

failed=0
for manifest in crates/*/Cargo.toml web/Cargo.toml; do
  [ -f "$manifest" ] || continue
  dir=$(dirname "$manifest")
  crate=$(basename "$dir")
  paths=()
  for p in src tests build.rs examples benches; do [ -e "$dir/$p" ] && paths+=("$dir/$p"); done
  check() {
    local dep=$1; shift
    local ident=${dep//-/_}
    allowed "$crate" "$dep" && return 0
    [ $# -gt 0 ] && grep -rqE "(^|[^A-Za-z0-9_.])${ident}(::|!)|use ${ident}( |;)|extern crate ${ident}" "$@" 2>/dev/null && return 0
    echo "$manifest: dependency \`$dep\` is never named in its sources" >&2
    failed=1
  }
  while read -r dep; do [ -n "$dep" ] && check "$dep" "${paths[@]}"; done \
    < <(deps_of "$manifest" '^\[(target\..*\.)?(dev-)?dependencies\]$')
done

# Reproducible answers (issue 33): the engine's maps iterate in the same order in every run,
# so no crate's sources use std's randomly seeded HashMap/HashSet (`budget::hash` instead).
if seeded=$(grep -rlE 'std::collections::(\{[^}]*\b)?Hash(Map|Set)\b' crates/*/src 2>/dev/null | grep -v '^crates/budget/src/hash.rs$'); then
  echo "check-deps: these files use std's randomly seeded HashMap/HashSet; use budget::hash::{HashMap, HashSet}:" >&2
  echo "$seeded" >&2
  failed=1
fi

if [ "$failed" -ne 0 ]; then
  echo "check-deps: remove the dependencies above (or, if one is needed only for a feature flag, add it to ALLOW in scripts/check-deps.sh with the reason)" >&2
  exit 1
fi
echo "check-deps: every declared dependency is named in its crate's sources"
