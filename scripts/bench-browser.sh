#!/usr/bin/env bash
# Engine benchmarks in the browser and natively, side by side (issues #4 and #5): the solver's
# recorded abstraction queries (queries/s, both back ends, incremental and one-shot), the C2BP
# Table 2 abstraction programs, and model checking of generated boolean programs (time, peak BDD
# nodes), from crates/bench-wasm.
#
#   scripts/bench-browser.sh [--solver-limit N] [--sizes N] [--no-abstraction] [--timeout S]
#
# 1. builds crates/bench-wasm for wasm32-unknown-unknown with the release profile (the one the
#    playground's trunk build uses: opt-level "z", LTO), runs wasm-bindgen --target web and,
#    like trunk (data-wasm-opt="z"), wasm-opt -Oz when binaryen 132 is at hand (WASM_OPT=0: skip);
# 2. serves it on 127.0.0.1 and runs the benchmarks in a module Web Worker in headless Chromium
#    (scripts/bench-browser.mjs, playwright-core from tests/e2e) and prints the browser report;
# 3. builds and runs the same benchmarks natively (`native` profile, binary bench-native) and
#    prints the native report and the side-by-side table with browser/native time ratios.
#
# Needs what scripts/setup.sh installs (wasm32 target, wasm-bindgen-cli at the Cargo.lock
# version, chromium, tests/e2e's playwright-core); it installs nothing itself. Outputs (not
# committed) go to $BENCH_OUT, default $CARGO_TARGET_DIR/bench-browser: pkg/ (the served wasm),
# browser.json and native.json (print their table again with
# `bench-native --native native.json --compare browser.json`).
# The full run takes about half an hour on 2 cores (the largest generated boolean program alone
# runs minutes natively and longer in the browser until the BDD node budget stops it);
# `--sizes 5 --no-abstraction` takes about a minute. Numbers from one run on a shared machine
# are noisy: keep other builds quiet while it runs.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
. scripts/setup.sh # only for `step`, `wasm_bindgen_version` and BINARYEN_DIR/E2E_DIR; installs nothing

TARGET_DIR="${CARGO_TARGET_DIR:-target}"
OUT="${BENCH_OUT:-$TARGET_DIR/bench-browser}"
WASM="$TARGET_DIR/wasm32-unknown-unknown/release/bench_wasm.wasm"
PKG="$OUT/pkg"

# Benchmark options for both sides; --timeout is for the browser driver only.
BENCH_ARGS=()
NODE_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --solver-limit|--sizes) BENCH_ARGS+=("$1" "${2:?$1 needs a number}"); shift 2 ;;
    --no-abstraction) BENCH_ARGS+=("$1"); shift ;;
    --timeout) NODE_ARGS+=("$1" "${2:?--timeout needs seconds}"); shift 2 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "bench-browser.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

missing=""
wbg="$(wasm_bindgen_version)"
has_version wasm-bindgen "$wbg" || missing+=" wasm-bindgen-cli $wbg"
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || missing+=" rust target wasm32-unknown-unknown"
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=" chromium"
[ -d "$E2E_DIR/node_modules/playwright-core" ] || missing+=" playwright-core (npm ci in $E2E_DIR)"
if [ -n "$missing" ]; then
  echo "bench-browser.sh: missing:$missing — run scripts/test.sh or source scripts/setup.sh and call setup_tools" >&2
  exit 1
fi
if [ -x "$BINARYEN_DIR/node_modules/.bin/wasm-opt" ]; then
  export PATH="$PWD/$BINARYEN_DIR/node_modules/.bin:$PATH"
fi

step "wasm: cargo build --release --target wasm32-unknown-unknown -p bench-wasm"
cargo build --release --target wasm32-unknown-unknown -p bench-wasm --lib
rm -rf "$PKG"
mkdir -p "$PKG"
wasm-bindgen --target web --no-typescript --out-dir "$PKG" "$WASM"
if [ "${WASM_OPT:-1}" != 0 ] && wasm-opt --version 2>/dev/null | grep -q "version 132"; then
  wasm-opt -Oz --output="$PKG/bench_wasm_bg.opt.wasm" "$PKG/bench_wasm_bg.wasm"
  mv "$PKG/bench_wasm_bg.opt.wasm" "$PKG/bench_wasm_bg.wasm"
  WASM_NOTE="wasm-opt -Oz"
else
  WASM_NOTE="no wasm-opt"
fi
printf 'bench_wasm_bg.wasm: %d bytes (%s)\n' "$(stat -c %s "$PKG/bench_wasm_bg.wasm")" "$WASM_NOTE"

step "native: cargo build --profile native -p bench-wasm --bin bench-native"
cargo build --profile native -p bench-wasm --bin bench-native

step "browser: headless Chromium, Web Worker"
node scripts/bench-browser.mjs --pkg "$PKG" --out "$OUT/browser.json" ${BENCH_ARGS[@]+"${BENCH_ARGS[@]}"} ${NODE_ARGS[@]+"${NODE_ARGS[@]}"}

step "native: bench-native --compare (same benchmarks, then the side-by-side table)"
echo
echo "==================== native ($(uname -m), --profile native) ===================="
"$TARGET_DIR/native/bench-native" --compare "$OUT/browser.json" --save "$OUT/native.json" ${BENCH_ARGS[@]+"${BENCH_ARGS[@]}"}
echo "(browser build: release profile, $WASM_NOTE; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
step ""
