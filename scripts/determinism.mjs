// Browser half of scripts/determinism.sh: builds the list of check requests from SV-COMP task
// files, and runs them one by one in a module Web Worker in headless Chromium (the wasm of
// crates/determinism, the playground's engine), writing their fingerprints as JSON.
//
//   node scripts/determinism.mjs requests --out REQUESTS.json [--timeout S] [--budget N] [--filter TEXT] DIR...
//   node scripts/determinism.mjs browser --pkg DIR --requests REQUESTS.json --out BROWSER.json
//
// `--budget 0` (no work budget) with a short `--timeout` measures how far the browser's runs
// overshoot the safety time limit: the browser half prints the longest run the limit ended.
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function tasks(dirs, filter) {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.yml') && (!filter || p.includes(filter))) out.push(p);
    }
  };
  dirs.forEach(walk);
  return out;
}

/** The fields of an SV-COMP task file that a check needs (its YAML is flat enough for this). */
function readTask(yml) {
  const text = fs.readFileSync(yml, 'utf8');
  if (!/unreach-call/.test(text)) return null;
  const input = text.match(/^input_files:\s*(?:\n\s*-\s*)?['"]?([^'"\n]+)['"]?/m)?.[1]?.trim();
  if (!input) return null;
  const dataModel = text.match(/data_model:\s*(\w+)/)?.[1] ?? 'ILP32';
  return { input: path.resolve(path.dirname(yml), input), dataModel };
}

function makeRequests(args) {
  let out = null, timeout = 60, filter = null, budget = null;
  const dirs = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') out = args[++i];
    else if (args[i] === '--timeout') timeout = Number(args[++i]);
    else if (args[i] === '--filter') filter = args[++i];
    else if (args[i] === '--budget') budget = Number(args[++i]);
    else dirs.push(args[i]);
  }
  const requests = [];
  for (const yml of tasks(dirs, filter)) {
    const task = readTask(yml);
    if (!task || !fs.existsSync(task.input)) continue;
    requests.push({
      name: path.relative(process.cwd(), yml),
      request: {
        mode: 'check',
        source: fs.readFileSync(task.input, 'utf8'),
        file_name: path.basename(task.input),
        predicates: '',
        options: { data_model: task.dataModel, timeout_ms: timeout * 1000, record_explanations: false, ...(budget === null ? {} : { budget }) },
      },
    });
  }
  fs.writeFileSync(out, JSON.stringify(requests));
  console.log(`${requests.length} requests → ${out}`);
}

const INDEX_HTML = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>predabs determinism</title></head>
<body><script type="module">
  window.prints = []; window.clocked = []; window.finished = false; window.failure = null;
  const worker = new Worker('./worker.js', { type: 'module' });
  worker.onmessage = (e) => {
    if (e.data.print) {
      window.prints.push(e.data.print);
      if (e.data.print.stopped_by_clock) window.clocked.push({ name: e.data.print.name, ms: e.data.ms, limitMs: e.data.limitMs });
      console.log('[det] ' + e.data.print.name + ' ' + e.data.print.verdict + ' (' + (e.data.ms / 1000).toFixed(2) + ' s)');
    }
    if (e.data.done) window.finished = true;
    if (e.data.error) { window.failure = e.data.error; window.finished = true; }
  };
  worker.onerror = (e) => { window.failure = 'worker error: ' + (e.message || e.type); window.finished = true; };
  fetch('./requests.json').then((r) => r.json()).then((list) => worker.postMessage(list));
</script></body></html>`;

const WORKER_JS = `import init, * as det from './determinism.js';
self.onmessage = async (e) => {
  try {
    await init();
    for (const r of e.data) {
      const t0 = performance.now();
      const print = JSON.parse(det.fingerprint_json(JSON.stringify(r)));
      postMessage({ print, ms: performance.now() - t0, limitMs: r.request.options.timeout_ms });
    }
    postMessage({ done: true });
  } catch (err) { postMessage({ error: String(err) }); }
};`;

async function browser(args) {
  const opt = {};
  for (let i = 0; i < args.length; i += 2) opt[args[i].replace(/^--/, '')] = args[i + 1];
  const pkg = path.resolve(opt.pkg);
  const requests = fs.readFileSync(opt.requests);
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '');
    const send = (type, body) => res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (rel === '' || rel === 'index.html') return send('text/html; charset=utf-8', INDEX_HTML);
    if (rel === 'worker.js') return send('text/javascript', WORKER_JS);
    if (rel === 'requests.json') return send('application/json', requests);
    const file = path.resolve(pkg, rel);
    if (!file.startsWith(pkg + path.sep) || !fs.existsSync(file)) return res.writeHead(404).end();
    send(file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript', fs.readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const { chromium } = createRequire(path.join(ROOT, 'tests/e2e/package.json'))('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'predabs-det-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.text().startsWith('[det] ')) console.log(`  browser: ${m.text().slice(6)}`); });
    await page.goto(base);
    await page.waitForFunction(() => window.finished, null, { timeout: 0, polling: 1000 });
    const { prints, failure, clocked } = await page.evaluate(() => ({ prints: window.prints, failure: window.failure, clocked: window.clocked }));
    if (failure) throw new Error(failure);
    fs.writeFileSync(opt.out, JSON.stringify(prints, null, 1));
    console.log(`${prints.length} browser fingerprints → ${opt.out}`);
    if (clocked.length) {
      const longest = clocked.reduce((a, b) => (b.ms / b.limitMs > a.ms / a.limitMs ? b : a));
      console.log(`time limit: ${clocked.length} run(s) ended by the safety limit, the longest ${longest.name} after ${(longest.ms / 1000).toFixed(2)} s of ${longest.limitMs / 1000} s (${Math.round((longest.ms / longest.limitMs - 1) * 100)} % over)`);
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
    server.close();
  }
}

const [command, ...rest] = process.argv.slice(2);
const run = command === 'requests' ? async () => makeRequests(rest) : command === 'browser' ? () => browser(rest) : null;
if (!run) {
  console.error('usage: determinism.mjs requests|browser ...');
  process.exit(2);
}
run().catch((e) => { console.error(`determinism: ${e.message ?? e}`); process.exit(1); });
