// Issue 30 in the playground: the pushdown tab of Boolean program mode (BOOP ch. 6, Fig 6.1 and
// post*), the papers' conventions and precision switches in the settings dialog, the new gallery
// entries, and partition in Abstract mode without a "no main" warning. Screenshots go to
// docs/screenshots/pds-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, open, engineVersion, loadExample, runToVerdict, openTab, setOption } from './harness.mjs';

const site = useSite();
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

test('the pushdown tab lists the rules and the post* heads, linked to the program lines', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'boolean-program');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await openTab(page, 'pds');
  const rules = await page.locator('#pds-rules').textContent();
  assert.match(rules, /control locations g = \(/);
  assert.match(rules, /<g, \(main_0, l\)>/);
  const rows = page.locator('#pds-heads .pds-point');
  assert.ok((await rows.count()) > 3);
  // a point with a line: clicking it selects that line
  const row = page.locator('#pds-heads .pds-point[data-line]').first();
  const line = await row.getAttribute('data-line');
  await row.click();
  assert.match(await row.getAttribute('class'), /selected/);
  assert.ok(Number(line) > 0);
  await page.screenshot({ path: path.join(shots, 'pds-tab-1280.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the settings dialog has the conventions and precision switches, and they reach the engine', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.click('#settings-button');
  for (const id of ['#opt-entry', '#opt-error-label', '#opt-integers', '#opt-syntax', '#opt-precision', '#opt-distribute-f', '#opt-enforce', '#opt-points-to']) {
    assert.equal(await page.locator(id).count(), 1, id);
  }
  assert.equal(await page.locator('#opt-enforce').isChecked(), true);
  await page.locator('#opt-syntax').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'pds-settings-1280.png') });
  await page.keyboard.press('Escape');
  // C2BP's C-like printing of partition, with no "no main" warning
  await loadExample(page, 'partition');
  await setOption(page, '#opt-syntax', 'c2bp');
  assert.equal(await runToVerdict(page), 'SAFE');
  const bp = await page.locator('.pane-bp').textContent();
  assert.ok(!bp.includes('begin'), 'C-like form has no begin/end');
  assert.equal(await page.locator('#diagnostics').count(), 0, 'no diagnostics for partition');
  // ideal integers: polymorphic §4.3's assignment as in the paper
  await setOption(page, '#opt-syntax', 'bebop');
  await loadExample(page, 'increment');
  await setOption(page, '#opt-integers', 'ideal');
  await runToVerdict(page);
  assert.match(await page.locator('.pane-bp').textContent(), /choose\(\{x == 2\}, !\{x < 5\}\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the new gallery entries run to the verdicts their lab notes state', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  for (const id of ['swap', 'inc-deref', 'inc-foo-mono']) {
    await loadExample(page, id);
    assert.equal(await runToVerdict(page), 'SAFE', id);
  }
  await loadExample(page, 'struct-counter');
  assert.equal(await runToVerdict(page), 'SAFE');
  assert.equal(await page.locator('.timeline-entry').count(), 4);
  assert.deepEqual(errors, []);
  await page.close();
});
