#!/usr/bin/env bash
# Builds the playground as one folder to copy to any static web server, at any path
# (e.g. https://example.edu/courses/verif/predabs/): every URL in it is relative.
#
#   scripts/build-site.sh [OUT_DIR]      (default: target/site; never web/dist)
#
# What the folder holds: index.html, the UI bundle (app-<hash>.js + _bg.wasm), the engine
# worker (worker_loader.js, worker.js, worker_bg.wasm), the stylesheet, the icon and sw.js,
# the service worker that caches all of them for offline use (second visit, a lab without
# network) and offers a newer version when the folder is replaced. Beside every file lie
# FILE.gz (gzip -9) and FILE.br (brotli, quality 11), made with Node's zlib: servers that can
# send precompressed files use them, e.g. nginx `gzip_static on; brotli_static on;`, Caddy
# `file_server { precompressed br gzip }`, Apache with mod_rewrite rules; a server that cannot
# simply sends the plain files. The wasm files must be served as `application/wasm`.
# The service worker needs https (or localhost); over plain http the site works without it.
#
#   scripts/build-site.sh --stage-hook   (run by trunk after every build, see Trunk.toml)
#
# writes the build's version and file list into the staged sw.js (TRUNK_STAGING_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."

# The post-build hook: sw.js gets `const BUILD = {"version": ..., "files": [...]};`, where the
# version hashes every file's content, so that each new build changes sw.js (which is how
# browsers notice an update) and the cache never mixes two builds.
stage_hook() {
  local stage="${TRUNK_STAGING_DIR:?run by trunk (Trunk.toml [[hooks]])}"
  [ -f "$stage/sw.js" ] || return 0
  local files version list
  files="$(cd "$stage" && find . -type f ! -name sw.js ! -name '*.gz' ! -name '*.br' | sed 's|^\./||' | LC_ALL=C sort)"
  version="$(cd "$stage" && printf '%s\n' "$files" | xargs -d '\n' sha256sum | sha256sum | cut -c1-16)"
  list="$(printf '%s\n' "$files" | sed 's/.*/"&"/' | paste -sd, -)"
  sed -i "s|^const BUILD = null;|const BUILD = {\"version\": \"$version\", \"files\": [$list]};|" "$stage/sw.js"
  grep -q "^const BUILD = {" "$stage/sw.js" || { echo "build-site.sh: sw.js has no 'const BUILD = null;' line" >&2; return 1; }
  echo "sw.js: version $version, $(printf '%s\n' "$files" | wc -l) files to cache"
}

# FILE.gz and FILE.br beside every file of "$1", then a size table.
precompress() {
  node - "$1" <<'EOF'
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const dir = process.argv[2];
const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]);
const rows = [];
for (const file of walk(dir).filter((f) => !/\.(gz|br)$/.test(f)).sort()) {
  const raw = fs.readFileSync(file);
  const gz = zlib.gzipSync(raw, { level: 9 });
  const br = zlib.brotliCompressSync(raw, { params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    [zlib.constants.BROTLI_PARAM_MODE]: file.endsWith('.wasm') ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
  } });
  fs.writeFileSync(file + '.gz', gz);
  fs.writeFileSync(file + '.br', br);
  rows.push([path.relative(dir, file), raw.length, gz.length, br.length]);
}
const total = rows.reduce((t, r) => [t[0], t[1] + r[1], t[2] + r[2], t[3] + r[3]], ['total', 0, 0, 0]);
const line = (r) => `${String(r[0]).padEnd(34)} ${String(r[1]).padStart(10)} ${String(r[2]).padStart(10)} ${String(r[3]).padStart(10)}`;
console.log(line(['file', 'raw', 'gzip -9', 'brotli 11']));
for (const r of [...rows, total]) console.log(line(r));
EOF
}

if [ "${1:-}" = "--stage-hook" ]; then
  stage_hook
  exit 0
fi

OUT="${1:-target/site}"
case "$(realpath -m "$OUT")" in
  "$(realpath -m web/dist)"*) echo "error: web/dist is the development build's folder; choose another" >&2; exit 1 ;;
esac
# shellcheck source=scripts/setup.sh
. scripts/setup.sh
setup_tools
step "trunk build (release) into $OUT"
trunk build --dist "$OUT"
step "precompress (.gz, .br)"
find "$OUT" -type f \( -name '*.gz' -o -name '*.br' \) -delete
precompress "$OUT"
step ""
echo
echo "The site is in $OUT: copy the whole folder to the web server."
