// Check-mode explanations on demand (issue 31 item 9): Check mode records no cube lattices, WP
// conditions or solver queries while it runs; opening the lattice, WP or solver-log tab on an
// iteration asks the worker for that iteration's abstraction with explanations (its predicates
// are known) and shows it, on the iteration's own boolean program lines.
//   cd tests/e2e && DIST_DIR=/tmp/<you>-dist node --test explain-check.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, loadExample, runToVerdict, openTab, chooseStatement, seriousViolations, setOption, screenshots } from './harness.mjs';

const site = useSite();

test('testdev in Check mode: the lattice and WP views of iteration 3 are computed when opened', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await page.click('#timeline .timeline-entry[data-iteration="3"] .entry-button');
  await openTab(page, 'lattice');
  await page.locator('#explain-statement').waitFor({ timeout: 60000 });
  await chooseStatement(page, 'locked = 1;');
  await page.locator('#lattice-body').waitFor();
  // each predicate of the statement with its WP and what the abstraction assigns it
  const predicates = await page.locator('.pred-choice').evaluateAll((els) => els.map((e) => e.dataset.predicate));
  assert.ok(predicates.includes('{locked == 0}'), predicates.join(', '));
  await page.click('.pred-choice[data-predicate="{locked == 0}"]');
  await page.locator('#lattice-body[data-predicate="{locked == 0}"]').waitFor();
  assert.match(await page.locator('#assigned').textContent(), /^\{locked == 0\} := choose\((0|false), (1|true)\)$/, 'locked = TRUE makes {locked == 0} false');
  assert.deepEqual(await seriousViolations(page, '#explain-lattice'), []);
  await screenshots(page, 'explain-check', '#explain-lattice');
  await openTab(page, 'wp');
  await page.locator('#wp-view').waitFor();
  assert.match(await page.locator('#wp-c-statement').textContent(), /locked = 1/);
  // another iteration: asked for and shown in its turn
  await page.click('#timeline .timeline-entry[data-iteration="1"] .entry-button');
  await page.locator('#wp-view').waitFor({ timeout: 60000 });
  assert.deepEqual(await seriousViolations(page, '#explain-wp'), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('lattice strategy in Check mode: the solver log lists the queries of the selected iteration', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await setOption(page, '#opt-strategy', 'lattice');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await openTab(page, 'solver');
  await page.locator('#solver-log').waitFor();
  assert.ok(await page.locator('#solver-log tbody tr').count() > 2, 'queries are listed');
  assert.deepEqual(errors, []);
  await page.close();
});
