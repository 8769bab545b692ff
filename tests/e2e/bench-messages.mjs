// Benchmark (run by hand, not a test): what one iteration record costs to cross the worker
// boundary, in the playground's old form (the worker prints JSON text, the UI parses it) and
// in its current one (serde-wasm-bindgen values copied by the structured clone).
//   trunk build --features bench-messages --dist /tmp/bench-dist     (the exports are not in a normal build)
//   cd tests/e2e && DIST_DIR=/tmp/bench-dist node bench-messages.mjs OUTCOME.json...
// Each OUTCOME.json is a playground_api::Outcome with its iterations, e.g.
//   predabs check tests/programs/testdev.c --techniques cegar --json > testdev.json
//   predabs abstract tests/programs/partition.c --predicates P --explain --strategy lattice --json > partition.json
// For every record: encode in the app's wasm (web::bridge::bench), postMessage through a
// MessageChannel, decode in the app's wasm on arrival; the time from before the encoding to
// after the decoding, median of RUNS, measured with performance.now() in the page.
//
// Measured 2026-11-26 (headless Chromium, release build, shared 2-core machine; median of 41):
//   record          JSON bytes   JSON text   typed value   JSON/typed
//   testdev #1            7023     0.6 ms       1.1 ms        0.55
//   testdev #2           24423     1.4 ms       6.7 ms        0.21
//   testdev #3           25636     1.1 ms       5.9 ms        0.19
//   sum of squares #3    33214     0.9 ms       2.3 ms        0.39
//   partition (Abstract mode with explanations, lattices)
//                        474661    37.6 ms      83.1 ms       0.45
// i.e. the typed values cost 2 to 5 times the JSON text. Split for partition (encode / post /
// decode): JSON 14.5 / 4.7 / 12.6 ms, typed 28.2 / 28.6 / 19.3 ms: the structured clone of a
// large object graph costs far more than that of one string, and serde-wasm-bindgen's
// per-field calls across the wasm boundary more than serde_json inside wasm.
import fs from 'node:fs';
import path from 'node:path';
import { serveDist, launch, open } from './harness.mjs';

const RUNS = 41;
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bench-messages.mjs OUTCOME.json...');
  process.exit(2);
}

const server = await serveDist();
const browser = await launch();
try {
  const { page } = await open(browser.context, server.base);
  await page.waitForFunction(() => typeof window.wasmBindings?.benchLoadOutcome === 'function', null, { timeout: 30000 });
  console.log('record                       JSON bytes   JSON text (ms)   typed value (ms)   ratio');
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const rows = await page.evaluate(async ([text, runs]) => {
      const b = window.wasmBindings;
      const n = b.benchLoadOutcome(text);
      const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      const channel = new MessageChannel();
      const once = () => new Promise((resolve) => { channel.port2.onmessage = (e) => resolve(e.data); });
      const time = async (i, json) => {
        const t0 = performance.now();
        const arrived = once();
        channel.port1.postMessage(b.benchEncode(i, json));
        const index = b.benchDecode(await arrived, json);
        const t = performance.now() - t0;
        if (index !== i + 1 && index < 1) throw new Error('bad record');
        return t;
      };
      const out = [];
      for (let i = 0; i < n; i++) {
        const bytes = b.benchEncode(i, true).length;
        const json = [], value = [];
        for (let r = 0; r < runs; r++) {
          // alternate, so that neither form profits from a warmer cache
          json.push(await time(i, true));
          value.push(await time(i, false));
        }
        out.push({ i: i + 1, bytes, json: median(json), value: median(value) });
      }
      return out;
    }, [text, RUNS]);
    for (const r of rows) {
      const name = `${path.basename(file, '.json')} #${r.i}`.padEnd(28);
      console.log(`${name} ${String(r.bytes).padStart(10)}   ${r.json.toFixed(3).padStart(14)}   ${r.value.toFixed(3).padStart(16)}   ${(r.json / r.value).toFixed(2).padStart(5)}`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
