// Hide mode (abC variable hiding, seed 003) in the real UI: open the paper's appendix example,
// step once and read the log, go to closure, see the transformed program with NONDET, why(v)
// on click, a log row selecting its source line, the verdict pair of the spurious example; axe
// stays clean; screenshots at 1280x800 and 640x800 (docs/screenshots/hide-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, launch, open, engineVersion, loadExample, seriousViolations } from './harness.mjs';

const site = useSite();
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

test('Hide: the appendix example steps, closes, explains and transforms', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'hide-appendix');
  assert.equal(await page.inputValue('#mode'), 'hide');
  assert.equal((await page.inputValue('#abstraction')).trim(), 'move d');
  // one step: iteration 1 with the paper's three rows
  await page.click('#hide-step');
  await page.locator('#iteration-1').waitFor({ timeout: 60000 });
  const rows = await page.locator('.hide-step[data-step="1"] .hide-row').evaluateAll((trs) => trs.map((tr) => [tr.dataset.line, tr.querySelector('.var-ref').textContent]));
  assert.deepEqual(rows, [['6', 'move xx'], ['6', 'move yy'], ['16', '(global) i']]);
  assert.equal(await page.locator('#iteration-2').count(), 0);
  // to closure: iterations 1..5, the last one closed
  await page.click('#hide-closure');
  await page.locator('#iteration-5').waitFor({ timeout: 60000 });
  assert.match(await page.textContent('.hide-step[data-step="5"]'), /closed: no new inferences/);
  assert.match(await page.textContent('#hide-status'), /closed after 5 steps/);
  assert.equal(await page.locator('#hide-vars .hide-var').count(), 11);
  // the log row of line 16 selects line 16 of the program
  await page.locator('.hide-step[data-step="1"] .hide-row[data-line="16"] .line-ref').click();
  await page.locator('.code-line.focused[data-line="16"]').waitFor();
  // why(nametab)
  await page.locator('.hide-step[data-step="2"] .var-ref[data-var="(global) nametab"]').first().click();
  const why = await page.textContent('#why');
  assert.match(why, /why\(\(global\) nametab\)/);
  assert.match(why, /move d ← the initial abstraction file/);
  // the warning of line 18 links to its line
  assert.match(await page.textContent('#hide-warnings'), /18:3.*external/);
  await page.screenshot({ path: path.join(shots, 'hide-log-1280.png') });
  // the transformed program shows NONDET
  await page.click('#hide-tab-transformed');
  await page.locator('#hide-transformed mark.nondet').first().waitFor();
  assert.ok(await page.locator('#hide-transformed mark.nondet').count() >= 1);
  assert.match(await page.textContent('#hide-edits'), /store removed/);
  await page.click('#hide-tab-text');
  assert.match(await page.textContent('#hide-log-text'), /^iteration 1\nline 6: move xx/);
  await page.click('#hide-tab-transformed');
  assert.deepEqual(await seriousViolations(page), []);
  await page.screenshot({ path: path.join(shots, 'hide-transformed-1280.png') });
  // back one step
  await page.click('#hide-back');
  await page.locator('#hide-status', { hasText: 'step 4' }).waitFor({ timeout: 60000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('Hide: hiding the property variable gives SAFE / UNSAFE with a failed replay', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'hide-spurious');
  await page.check('#hide-check-both');
  await page.click('#hide-closure');
  await page.locator('#verdict-original').waitFor({ timeout: 120000 });
  assert.match(await page.textContent('#verdict-original'), /original: SAFE/);
  assert.match(await page.textContent('#verdict-hidden'), /hidden: UNSAFE/);
  assert.match(await page.textContent('#hide-replay'), /artefact of hiding/);
  assert.deepEqual(await seriousViolations(page), []);
  // narrow window: nothing overflows the page horizontally
  await page.setViewportSize({ width: 640, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `horizontal overflow ${overflow}px at 640 px`);
  await page.screenshot({ path: path.join(shots, 'hide-check-640.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('Hide: a share link restores the mode, the abstraction file and the steps', async () => {
  const b = await launch();
  try {
    const { page } = await open(b.context, site.server.base);
    await engineVersion(page);
    await loadExample(page, 'hide-appendix');
    await page.click('#hide-step');
    await page.click('#hide-step');
    await page.locator('#iteration-2').waitFor({ timeout: 60000 });
    await page.click('#share');
    const link = await page.inputValue('#share-link');
    const p2 = await b.context.newPage();
    await p2.goto(link);
    await p2.locator('h1', { hasText: 'predabs' }).waitFor();
    await p2.locator('#iteration-2').waitFor({ timeout: 60000 });
    assert.equal(await p2.inputValue('#mode'), 'hide');
    assert.equal((await p2.inputValue('#abstraction')).trim(), 'move d');
    assert.equal(await p2.locator('#iteration-3').count(), 0);
  } finally {
    await b.close();
  }
});

test('Hide: the log is readable in a 683 px split screen (each store whole on its own line)', async () => {
  const { context, close } = await launch({ viewport: { width: 683, height: 768 } });
  const { page, errors } = await open(context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'hide-appendix');
  await page.click('#hide-closure');
  await page.locator('#iteration-5').waitFor({ timeout: 60000 });
  const rows = await page.locator('.hide-row').evaluateAll((trs) => trs.map((tr) => {
    const store = tr.querySelector('td:nth-child(3) code');
    const lineHeight = parseFloat(getComputedStyle(store).lineHeight) || 16;
    const pane = tr.closest('.table-scroll').getBoundingClientRect();
    return { text: store.textContent, lines: Math.round(store.getBoundingClientRect().height / lineHeight), right: tr.getBoundingClientRect().right, paneRight: pane.right };
  }));
  assert.ok(rows.length >= 5, `${rows.length} rows`);
  for (const r of rows) {
    // was one word a line ("move / xx <- / q.x + / *d") in the fifth of the pane a column had
    assert.ok(r.lines <= 2, `${r.text} takes ${r.lines} lines`);
    assert.ok(r.right <= r.paneRight + 1, `${r.text}: the row fits the pane (${r.right} > ${r.paneRight})`);
  }
  assert.deepEqual(await seriousViolations(page, '#hide-log'), []);
  await page.locator('#iteration-1').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'hide-log-683.png') });
  assert.deepEqual(errors, []);
  await close();
});
