// Phase-by-phase reveal (issue 31, "step-by-step reveal"): with "phase by phase" on, Step
// computes one CEGAR iteration and shows only its boolean program; the student reveals the
// abstract counterexample, its feasibility and the new predicates one at a time (keyboard
// only here), and the verdict stays hidden until the last phase of the last iteration.
//   cd tests/e2e && DIST_DIR=/tmp/<you>-dist node --test reveal.test.mjs
// SHOTS_DIR=dir also writes screenshots at 1280×800 and 683×768.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, loadExample, openTab, seriousViolations, screenshots } from './harness.mjs';

const site = useSite();


const status = async (page) => (await page.locator('#reveal-status').textContent()).trim();

test('testdev phase by phase: boolean program, counterexample, feasibility, predicates; the verdict last', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await page.check('#reveal-phases');
  await openTab(page, 'trace');
  await page.click('#step');
  await page.locator('#run-paused').waitFor({ timeout: 60000 });
  await page.locator('#reveal-bar').waitFor();
  assert.match(await status(page), /Iteration 1: phase 1 of 4 shown, boolean program/);
  // only the boolean program: the trace view and the timeline entry hold the rest back
  assert.ok(await page.locator('#trace-hidden').isVisible());
  assert.ok(!/spurious|feasible|predicate\b.*\+/.test(await page.locator('#timeline .timeline-entry').first().textContent()));
  assert.equal(await page.locator('#iteration-details .new-preds').count(), 0);
  assert.deepEqual(await seriousViolations(page, '#reveal-bar'), []);
  await screenshots(page, 'reveal-phase1', '#reveal-bar');

  // keyboard only: focus the button, Enter
  await page.focus('#reveal-next');
  assert.match(await page.locator('#reveal-next').textContent(), /abstract counterexample/);
  await page.keyboard.press('Enter');
  await page.locator('#reveal-status[data-phase="counterexample"]').waitFor();
  assert.ok(await page.locator('#abstract-trace').isVisible(), 'the abstract counterexample is shown');
  assert.ok(await page.locator('#feasibility-hidden').isVisible(), 'its feasibility is not yet');
  assert.equal(await page.locator('#feasibility-table').count(), 0);

  await page.keyboard.press('Enter');
  await page.locator('#reveal-status[data-phase="feasibility"]').waitFor();
  assert.ok(await page.locator('#feasibility-table').isVisible());
  assert.match(await page.locator('#feasibility-verdict').textContent(), /spurious/);
  assert.equal(await page.locator('#iteration-details .new-preds').count(), 0, 'no predicates yet');
  await screenshots(page, 'reveal-phase3', '#reveal-bar');

  await page.keyboard.press('Enter');
  // the last phase of an unfinished run: everything shown, no verdict
  await page.locator('#reveal-bar').waitFor({ state: 'detached' });
  assert.ok(await page.locator('#iteration-details .new-preds').isVisible());
  assert.equal(await page.locator('#verdict').count(), 0);

  // iterations 2 and 3: the third ends the loop; its verdict waits for the reveal
  await page.click('#step');
  await page.locator('#run-paused').waitFor({ timeout: 60000 });
  await page.locator('#reveal-status', { hasText: 'Iteration 2' }).waitFor();
  while (await page.locator('#reveal-next').count()) await page.click('#reveal-next');
  await page.click('#step');
  await page.locator('#reveal-status', { hasText: 'Iteration 3' }).waitFor({ timeout: 60000 });
  await page.waitForFunction(() => !document.querySelector('#run-progress'));
  assert.equal(await page.locator('#verdict').count(), 0, 'the verdict stays hidden until its phase');
  let clicks = 0;
  while (await page.locator('#verdict').count() === 0) {
    assert.ok(clicks++ < 4, 'at most four phases');
    await page.click('#reveal-next');
  }
  assert.equal((await page.locator('#verdict .verdict-label').textContent()).trim(), 'UNSAFE');
  assert.equal(clicks, 2, 'iteration 3: counterexample, then feasibility (feasible) and the verdict');
  assert.deepEqual(errors, []);
  await page.close();
});

test('without "phase by phase" Step shows the whole iteration', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await page.click('#step');
  await page.locator('#run-paused').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('#reveal-bar').count(), 0);
  assert.ok(await page.locator('#iteration-details .new-preds').isVisible());
  assert.deepEqual(errors, []);
  await page.close();
});
