// The work budget in the playground (issue 33): a setting in work units, sent with every run,
// carried by share links, so that a link gives the same iterations and verdict elsewhere; the
// wall-clock setting is the safety time limit and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, launch, engineVersion, loadExample, runToVerdict, setOption } from './harness.mjs';

const site = useSite();

test('a work budget set in Settings stops the run, says so, and travels in the share link', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.click('#settings-button');
  assert.match(await page.locator('label', { has: page.locator('#opt-time') }).textContent(), /Safety time limit/);
  assert.match(await page.locator('label', { has: page.locator('#opt-work') }).textContent(), /Work budget \(units/);
  await page.keyboard.press('Escape');
  await loadExample(page, 'testdev');
  await page.selectOption('#mode', 'check');
  await setOption(page, '#opt-work', '20000');
  assert.equal(await runToVerdict(page), 'UNKNOWN');
  const reason = await page.locator('#verdict').textContent();
  assert.match(reason, /work budget of 20000 units is spent/);
  const iterations = await page.locator('#timeline .timeline-entry').count();
  assert.ok(iterations >= 1, 'the iterations before the stop are kept');
  await page.click('#share');
  await page.locator('#share-link').waitFor();
  const link = await page.locator('#share-link').inputValue();
  const other = await launch();
  try {
    const shared = await open(other.context, link);
    await engineVersion(shared.page);
    await shared.page.click('#settings-button');
    assert.equal(await shared.page.locator('#opt-work').inputValue(), '20000');
    await shared.page.keyboard.press('Escape');
    assert.equal(await runToVerdict(shared.page), 'UNKNOWN');
    assert.match(await shared.page.locator('#verdict').textContent(), /work budget of 20000 units is spent/);
    assert.equal(await shared.page.locator('#timeline .timeline-entry').count(), iterations);
    assert.deepEqual(shared.errors, []);
  } finally {
    await other.close();
  }
  assert.deepEqual(errors, []);
  await page.close();
});
