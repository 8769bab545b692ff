// Browser half of scripts/bench-browser.sh: serves the wasm-bindgen output of crates/bench-wasm
// (--target web) on 127.0.0.1, opens it in headless Chromium (playwright-core from tests/e2e,
// the e2e tests' launch flags and a fresh profile), runs the engine benchmarks in a module Web
// Worker (like the playground's engine worker), prints the report and writes it as JSON.
//
//   node scripts/bench-browser.mjs --pkg DIR --out FILE [--solver-limit N] [--sizes N]
//                                  [--no-abstraction] [--timeout SECONDS]
//
// DIR holds bench_wasm.js and bench_wasm_bg.wasm. FILE is read by `bench-native --compare`.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// playwright-core is installed for the e2e tests (scripts/setup.sh: npm ci in tests/e2e).
const { chromium } = createRequire(path.join(ROOT, 'tests/e2e/package.json'))('playwright-core');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The flags of tests/e2e/harness.mjs (this network: no QUIC, no background traffic).
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function parseArgs(argv) {
  const opts = { pkg: null, out: null, solverLimit: -1, sizes: -1, abstraction: true, timeout: 3600 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--pkg') opts.pkg = path.resolve(value());
    else if (a === '--out') opts.out = path.resolve(value());
    else if (a === '--solver-limit') opts.solverLimit = Number(value());
    else if (a === '--sizes') opts.sizes = Number(value());
    else if (a === '--no-abstraction') opts.abstraction = false;
    else if (a === '--timeout') opts.timeout = Number(value());
    else throw new Error(`unknown argument ${a}`);
  }
  if (!opts.pkg || !fs.existsSync(path.join(opts.pkg, 'bench_wasm.js'))) {
    throw new Error(`--pkg must name the wasm-bindgen output (bench_wasm.js), got ${opts.pkg}`);
  }
  return opts;
}

// The page spawns the worker and relays its messages (progress on the console, the result in
// window.benchResult).
const INDEX_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>predabs engine benchmark</title></head>
<body><pre id="out">running…</pre>
<script type="module">
  const options = JSON.parse(new URLSearchParams(location.search).get('options') ?? '{}');
  const worker = new Worker('./worker.js', { type: 'module' });
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.progress) console.log('[bench] ' + m.progress);
    if (m.done || m.error) {
      window.benchResult = m;
      document.getElementById('out').textContent = m.text ?? m.error;
    }
  };
  worker.onerror = (e) => { window.benchResult = { error: 'worker error: ' + (e.message || e.type) }; };
  worker.postMessage(options);
</script></body></html>
`;

// The worker: the same sequence as bench_wasm::run (solver, abstraction, model checking), one
// exported call per benchmark (per size for model checking) so progress shows.
const WORKER_JS = `import init, * as bench from './bench_wasm.js';
const progress = (text) => postMessage({ progress: text });
self.onmessage = async (e) => {
  const o = e.data;
  try {
    await init();
    bench.init_panic_hook();
    const report = { platform: bench.platform(), user_agent: navigator.userAgent,
                     solver: [], abstraction: [], model_check: [], total_seconds: 0 };
    const t0 = performance.now();
    const since = () => ((performance.now() - t0) / 1000).toFixed(1) + ' s';
    progress('solver benchmark…');
    report.solver = JSON.parse(bench.solver_json(o.solverLimit));
    progress('solver done at ' + since());
    if (o.abstraction) {
      report.abstraction = JSON.parse(bench.abstraction_json());
      progress('abstraction done at ' + since());
    }
    const count = bench.model_check_size_count();
    const n = o.sizes >= 0 ? Math.min(o.sizes, count) : count;
    for (let i = 0; i < n; i++) {
      const row = JSON.parse(bench.model_check_one_json(i));
      report.model_check.push(row);
      progress('model check ' + [row.globals, row.procs, row.locals, row.statements].join('/') +
               ': ' + row.time_ms.toFixed(1) + ' ms, done at ' + since());
    }
    report.total_seconds = (performance.now() - t0) / 1000;
    postMessage({ done: report, text: bench.format_report_json(JSON.stringify(report)) });
  } catch (err) {
    let panic = '';
    try { panic = bench.last_panic(); } catch (_) { /* the module is gone */ }
    postMessage({ error: String(err) + (panic ? ' — panic: ' + panic : '') });
  }
};
`;

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm' };

/** Serves the page, the worker and the files of `dir` on an ephemeral port of 127.0.0.1. */
async function serve(dir) {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '');
    const send = (type, body) => res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (rel === '' || rel === 'index.html') return send('text/html; charset=utf-8', INDEX_HTML);
    if (rel === 'worker.js') return send('text/javascript', WORKER_JS);
    const file = path.resolve(dir, rel);
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const server = await serve(opts.pkg);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'predabs-bench-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.text().startsWith('[bench] ')) console.log(`  browser: ${m.text().slice(8)}`);
      else if (m.type() === 'error') errors.push(m.text());
    });
    const options = { solverLimit: opts.solverLimit, sizes: opts.sizes, abstraction: opts.abstraction };
    console.log(`Chromium ${context.browser()?.version() ?? ''} ${CHROMIUM}, page ${server.base}`);
    await page.goto(`${server.base}?options=${encodeURIComponent(JSON.stringify(options))}`);
    await page.waitForFunction(() => window.benchResult !== undefined, null, { timeout: opts.timeout * 1000, polling: 500 });
    const result = await page.evaluate(() => window.benchResult);
    if (result.error) throw new Error(`benchmark failed in the browser: ${result.error}${errors.length ? `\n${errors.join('\n')}` : ''}`);
    console.log(`\n==================== browser (wasm32, Web Worker) ====================`);
    process.stdout.write(result.text);
    if (opts.out) {
      fs.writeFileSync(opts.out, JSON.stringify(result.done, null, 2) + '\n');
      console.log(`\nbrowser report: ${opts.out}`);
    }
  } finally {
    if (context) await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
    await server.close();
  }
}

main().catch((e) => {
  console.error(`bench-browser: ${e.message ?? e}`);
  process.exit(1);
});
