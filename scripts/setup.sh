# shellcheck shell=bash
# Installs what the build and the tests need, skipping what is present. Sourced by
# scripts/serve.sh and scripts/test.sh (from the repository root). Offline-friendly: only the
# package registries (apt, crates.io, npm) are used, and trunk never downloads anything
# (Trunk.toml: offline = true, pinned [tools]).
#
# Defines `step NAME` (prints a timing line for the previous step) and `setup_tools`.

TRUNK_VERSION=0.21.14
BINARYEN_DIR=tools/binaryen
E2E_DIR=tests/e2e
export DEBIAN_FRONTEND=noninteractive
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

STEP_NAME=""
STEP_START=$SECONDS
SCRIPT_START=$SECONDS
TIMINGS=()
step() {
  if [ -n "$STEP_NAME" ]; then
    local took=$((SECONDS - STEP_START))
    TIMINGS+=("$(printf '%5ss  %s' "$took" "$STEP_NAME")")
    echo "=== done in ${took}s: $STEP_NAME"
  fi
  STEP_NAME="$1"
  STEP_START=$SECONDS
  [ -n "$STEP_NAME" ] && echo "=== [$((SECONDS - SCRIPT_START))s] $STEP_NAME"
  return 0
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "error: need root (or sudo) to run: $*" >&2; return 1
  fi
}

# The wasm-bindgen version pinned in Cargo.lock (trunk and wasm-bindgen-cli must match it).
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

has_version() { command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -qF "$2"; }

setup_apt() {
  # package:command pairs; install only the packages whose command is missing.
  local missing=() pair
  for pair in chromium:chromium chromium-driver:chromedriver spin:spin z3:z3; do
    command -v "${pair#*:}" >/dev/null 2>&1 || missing+=("${pair%%:*}")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "apt: installing ${missing[*]}"
    as_root apt-get update
    as_root apt-get install -y "${missing[@]}"
  else
    echo "apt: chromium, chromedriver, spin, z3 present"
  fi
}

setup_rust() {
  if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "rustup: wasm32-unknown-unknown present"
  else
    rustup target add wasm32-unknown-unknown
  fi
  local wbg
  wbg="$(wasm_bindgen_version)"
  if [ -z "$wbg" ]; then echo "error: no wasm-bindgen in Cargo.lock" >&2; return 1; fi
  if ! grep -qF "wasm_bindgen = \"$wbg\"" Trunk.toml; then
    echo "error: Trunk.toml [tools] wasm_bindgen must equal Cargo.lock's wasm-bindgen $wbg" >&2; return 1
  fi
  if has_version wasm-bindgen "$wbg"; then
    echo "cargo: wasm-bindgen-cli $wbg present"
  else
    # Not --locked: its lockfile pins a crate version the registry does not serve.
    cargo install wasm-bindgen-cli --version "$wbg"
  fi
  if has_version trunk "$TRUNK_VERSION"; then
    echo "cargo: trunk $TRUNK_VERSION present"
  else
    # 0.22 needs a newer rustc; ~7 minutes on 2 cores.
    cargo install --locked trunk --version "$TRUNK_VERSION"
  fi
}

# `npm ci` unless node_modules already matches the lockfile.
npm_ci() {
  local dir="$1"
  if [ -f "$dir/node_modules/.package-lock.json" ] && cmp -s "$dir/package-lock.json" "$dir/node_modules/.predabs-lock"; then
    echo "npm: $dir up to date"
  else
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$dir/node_modules/.predabs-lock"
  fi
}

setup_node() {
  if ! command -v npm >/dev/null; then
    echo "error: node/npm are required (apt-get install nodejs npm)" >&2; return 1
  fi
  npm_ci "$BINARYEN_DIR"
  # First on PATH: Debian's binaryen 108 cannot parse this rustc's wasm.
  export PATH="$PWD/$BINARYEN_DIR/node_modules/.bin:$PATH"
  wasm-opt --version | grep -q "version 132" || { echo "error: wasm-opt is not binaryen 132" >&2; return 1; }
}

setup_tools() {
  step "install: apt packages"
  setup_apt
  step "install: rust target, wasm-bindgen-cli, trunk"
  setup_rust
  step "install: npm (binaryen wasm-opt)"
  setup_node
  step "cargo fetch (trunk builds offline)"
  cargo fetch
}
