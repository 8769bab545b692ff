#!/usr/bin/env bash
# Builds everything the playground needs and serves it on http://127.0.0.1:8080/ (foreground;
# Ctrl+C stops). Installs missing tools first (see scripts/setup.sh). PORT=... to change port.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
. scripts/setup.sh

PORT="${PORT:-8080}"
setup_tools
step "trunk build (release wasm: app + engine worker)"
trunk build
step ""
echo
echo "predabs playground: http://127.0.0.1:$PORT/"
echo
# trunk serve rebuilds on changes under web/, public/ and crates/ (Trunk.toml [watch]).
exec trunk serve --address 127.0.0.1 --port "$PORT" --open=false
