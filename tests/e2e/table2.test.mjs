// The C2BP Table 2 entries of the gallery (kmp, qsort, listfind, reverse = Fig. 3's mark with
// h/hnext) in the browser: each opens from the Examples menu in Abstract mode, runs in the wasm
// worker to the verdict its lab note states, and the timeline's solver calls are the prover calls
// the note quotes for "predabs, exact" (the engine is deterministic: wasm and native agree; the
// native check of every row is crates/playground-api/tests/it/table2_gallery.rs). Screenshot of
// reverse with its lab note's rows at 1280x800 (docs/screenshots/table2-reverse-1280.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, open, engineVersion, loadExample, runToVerdict, openTab } from './harness.mjs';

const site = useSite();
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

const ENTRIES = [
  ['kmp', 'SAFE'],
  ['qsort', 'UNKNOWN'],
  ['listfind', 'SAFE'],
  ['reverse', 'UNKNOWN'],
];

for (const [id, verdict] of ENTRIES) {
  test(`${id}: opens in Abstract mode, ${verdict}, the note's prover calls in the timeline`, async () => {
    const { page, errors } = await open(site.browser.context, site.server.base);
    await engineVersion(page);
    await loadExample(page, id);
    assert.equal(await page.locator('#example-chip').textContent(), id);
    assert.equal(await page.locator('#mode').inputValue(), 'abstract');
    assert.equal(await runToVerdict(page), verdict);

    await openTab(page, 'notes');
    const note = await page.locator('#lab-notes').textContent();
    assert.match(note, /C2BP, Table 2: \d+ lines, \d+ predicates, \d+ prover calls, \d+ s/);
    const ours = note.match(/predabs, exact: (\d+) lines, (\d+) predicates, (\d+) prover calls, (\d+) cache hits: (SAFE|UNKNOWN)/);
    assert.ok(ours, note);
    assert.equal(ours[5], verdict);
    const entry = await page.locator('.timeline-entry').first().textContent();
    assert.match(entry, new RegExp(`^#1${ours[2]} predicates · `));
    assert.match(entry, new RegExp(` · ${ours[3]} solver calls$`));

    if (id === 'reverse') {
      // the rows: Table 2's beside ours
      await page.locator('#lab-notes li', { hasText: 'C2BP, Table 2' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(shots, 'table2-reverse-1280.png') });
    }
    assert.deepEqual(errors, []);
    await page.close();
  });
}
