#!/usr/bin/env bash
# Page weight and load times of the built site (a benchmark to read, not a test):
#
#   scripts/bench-site.sh [SITE_DIR]     (default: target/site, built by scripts/build-site.sh
#                                         first when missing; RUNS=n for more repetitions)
#
# Prints every file's size raw / gzip -9 / brotli 11 and the page weight, then, in headless
# Chromium against a local server that sends the precompressed files from a sub-path: cold load
# unthrottled and throttled to 10 Mbit/s (20 ms latency), time until the UI shows and until the
# engine worker is ready, bytes on the wire, and the second visit served by the service worker.
# The code is tests/e2e/bench-site.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."
SITE="$(realpath -m "${1:-target/site}")"
if [ ! -f "$SITE/index.html" ]; then
  scripts/build-site.sh "$SITE"
fi
# shellcheck source=scripts/setup.sh
. scripts/setup.sh
npm_ci "$E2E_DIR"
cd "$E2E_DIR" && SITE_DIR="$SITE" node bench-site.mjs
