#!/usr/bin/env bash
# Reproducible answers (issue #33): runs the same check requests natively and in the browser
# build (headless Chromium, a module Web Worker, the wasm of crates/determinism = the
# playground's engine) and compares their fingerprints: per iteration the predicates, abstract
# counterexample length, feasibility and new predicates, then verdict, deciding technique and
# final predicates (times and statistics left out).
#
#   scripts/determinism.sh [--timeout S] [--filter TEXT] [DIR...]   (default: ../shared/benchmarks/sv-comp)
#
# Long run (all 65 shared tasks at 60 s: about an hour on 2 cores, mostly the browser side).
# Needs what scripts/setup.sh installs; installs nothing itself. Outputs in $OUT (default
# target/determinism): requests.json, native.json, browser.json.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
OUT="${OUT:-target/determinism}"
ARGS=()
DIRS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --timeout|--filter) ARGS+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) DIRS+=("$1"); shift ;;
  esac
done
[ ${#DIRS[@]} -gt 0 ] || DIRS=(../shared/benchmarks/sv-comp)
mkdir -p "$OUT/pkg"
node scripts/determinism.mjs requests --out "$OUT/requests.json" ${ARGS[@]+"${ARGS[@]}"} "${DIRS[@]}"

step "wasm: cargo build --release --target wasm32-unknown-unknown -p determinism"
cargo build --release --target wasm32-unknown-unknown -p determinism --lib
wasm-bindgen --target web --no-typescript --out-dir "$OUT/pkg" target/wasm32-unknown-unknown/release/determinism.wasm
step "native: cargo build --profile native -p determinism"
cargo build --profile native -p determinism --bin determinism-native

step "browser"
node scripts/determinism.mjs browser --pkg "$OUT/pkg" --requests "$OUT/requests.json" --out "$OUT/browser.json"
step "native, then the comparison"
target/native/determinism-native "$OUT/requests.json" --save "$OUT/native.json" --compare "$OUT/browser.json"
