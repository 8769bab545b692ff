// Page weight and load times of a built site (not a test: figures to read; scripts/bench-site.sh).
// Serves SITE_DIR (default: target/site from scripts/build-site.sh) at a sub-path with the
// precompressed .br/.gz files, like a course's static server, and measures in headless
// Chromium: bytes on the wire (compressed) and raw, cold load unthrottled and at 10 Mbit/s
// (the test server paces every response through one shared 10 Mbit/s link after 20 ms: CDP's
// network emulation would not slow the engine worker's own requests), the time until the UI
// shows and until the engine worker is ready, bytes sent by the server (compressed, i.e. on the
// wire) and a second visit served by the service worker's cache.
// RUNS=n repeats each measurement (median reported).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, engineVersion } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const SITE = path.resolve(process.env.SITE_DIR ?? path.join(here, '../../target/site'));
const RUNS = Number(process.env.RUNS ?? 3);
const PREFIX = '/courses/verif/predabs/';
const PROFILES = {
  unthrottled: null,
  '10 Mbit/s': { bytesPerSecond: 10e6 / 8, latencyMs: 20 },
};

function weights() {
  const rows = [];
  for (const name of fs.readdirSync(SITE).sort()) {
    const file = path.join(SITE, name);
    if (/\.(br|gz)$/.test(name) || !fs.statSync(file).isFile()) continue;
    const size = (ext) => (fs.existsSync(file + ext) ? fs.statSync(file + ext).size : null);
    rows.push({ name, raw: fs.statSync(file).size, gz: size('.gz'), br: size('.br') });
  }
  return rows;
}

/** One visit in `context`; returns times (ms since navigation start) and bytes the server sent. */
async function visit(context, server) {
  const page = await context.newPage();
  const sentBefore = server.served.reduce((t, r) => t + r.bytes, 0);
  const url = server.base;
  const start = Date.now();
  await page.goto(url);
  await page.locator('h1', { hasText: 'predabs' }).waitFor({ timeout: 120000 });
  const ui = Date.now() - start;
  await engineVersion(page);
  const engine = Date.now() - start;
  const controlled = await page.evaluate(() => Boolean(navigator.serviceWorker?.controller));
  const wire = server.served.reduce((t, r) => t + r.bytes, 0) - sentBefore;
  await page.close();
  return { ui, engine, wire, controlled };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!fs.existsSync(path.join(SITE, 'index.html'))) throw new Error(`no site in ${SITE}: run scripts/build-site.sh first`);
  const rows = weights();
  const sum = (k) => rows.reduce((t, r) => t + (r[k] ?? r.raw), 0);
  console.log(`site: ${SITE}`);
  console.log(`${'file'.padEnd(34)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)} ${'brotli'.padStart(10)}`);
  for (const r of rows) console.log(`${r.name.padEnd(34)} ${String(r.raw).padStart(10)} ${String(r.gz ?? '-').padStart(10)} ${String(r.br ?? '-').padStart(10)}`);
  console.log(`${'page weight'.padEnd(34)} ${String(sum('raw')).padStart(10)} ${String(sum('gz')).padStart(10)} ${String(sum('br')).padStart(10)}`);
  console.log();

  for (const [label, throttle] of Object.entries(PROFILES)) {
    const server = await serveDist({ dir: SITE, prefix: PREFIX, precompressed: true, cache: 'no-cache', throttle });
    try {
      const cold = [];
      const warm = [];
      for (let i = 0; i < RUNS; i++) {
        const browser = await launch();
        try {
          cold.push(await visit(browser.context, server));
          // the first visit's service worker has cached everything once it is active
          const page = await browser.context.newPage();
          await page.goto(server.base);
          await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated', null, { timeout: 120000 });
          await page.close();
          warm.push(await visit(browser.context, server));
        } finally {
          await browser.close();
        }
      }
      const line = (name, xs) => console.log(
        `${label.padEnd(12)} ${name.padEnd(12)} UI ${String(median(xs.map((x) => x.ui))).padStart(6)} ms   engine ready ${String(median(xs.map((x) => x.engine))).padStart(6)} ms   ` +
        `sent ${String(median(xs.map((x) => x.wire))).padStart(9)} B${xs.every((x) => x.controlled) ? '   (page under the service worker)' : ''}`);
      line('cold', cold);
      line('second visit', warm);
    } finally {
      await server.close();
    }
  }
  console.log(`\nmedians of ${RUNS} runs; Chromium headless, server on 127.0.0.1 sending .br files`);
}

await main();
