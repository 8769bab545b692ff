// Deep links (issue 31): query parameters next to a share link open the playground at an
// iteration, a phase of it, an explain tab, a statement and predicate, and a step of the
// abstract counterexample, once the shared run is in; whatever is out of range is named in a
// notice and the rest still applies. Share puts the current place into the link.
//   cd tests/e2e && DIST_DIR=/tmp/<you>-dist node --test deeplink.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, loadExample, runToVerdict, openTab, screenshots } from './harness.mjs';

const site = useSite();

/** A share link (fragment) of testdev in Check mode. */
async function testdevFragment(page) {
  await loadExample(page, 'testdev');
  await page.click('#share');
  const link = await page.locator('#share-link').inputValue();
  await page.keyboard.press('Escape');
  return link.slice(link.indexOf('#'));
}

test('a link opens iteration 2 at its feasibility phase, on the trace tab at step 3', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  const fragment = await testdevFragment(page);
  await page.goto(`${site.server.base}?iteration=2&phase=feasibility&tab=trace&step=3${fragment}`);
  await page.locator('#reveal-status[data-phase="feasibility"]').waitFor({ timeout: 60000 });
  assert.match(await page.locator('#reveal-status').textContent(), /Iteration 2: phase 3 of 4/);
  assert.match(await page.locator('#iteration-position').textContent(), /^2 \//);
  assert.equal(await page.locator('#tab-trace').getAttribute('aria-selected'), 'true');
  assert.ok(await page.locator('#feasibility-table').isVisible());
  assert.equal(await page.locator('#abstract-trace tr.selected').getAttribute('data-step'), '2', 'step 3 (1-based) is selected');
  assert.equal(await page.locator('#verdict').count(), 0, 'the verdict waits for the rest of the reveal');
  const notice = page.locator('#notice');
  if (await notice.count()) assert.ok(!/not applied/.test(await notice.textContent()), 'nothing was out of range');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a link to the WP of a statement and predicate in Check mode waits for the explanations', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  const fragment = await testdevFragment(page);
  await page.goto(`${site.server.base}?iteration=3&tab=wp&statement=37${fragment}`);
  await page.locator('#wp-c-statement', { hasText: 'locked = 1' }).waitFor({ timeout: 60000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('out-of-range parts are named in a notice; unknown values too; the rest applies', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  const fragment = await testdevFragment(page);
  await page.goto(`${site.server.base}?iteration=9&tab=nope&step=500&phase=verdict${fragment}`);
  await page.locator('#verdict').waitFor({ timeout: 60000 });
  const notice = page.locator('#notice');
  await notice.waitFor();
  const text = await notice.textContent();
  assert.match(text, /tab=nope is not a tab/);
  assert.match(text, /phase=verdict is not a phase/);
  assert.match(text, /iteration 9 \(this run has 3 iterations\)/);
  assert.match(text, /step 500 \(the abstract counterexample of iteration 3 has \d+ steps\)/);
  await screenshots(page, 'deeplink-notice', '#notice');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Share carries the current place: iteration, tab and step', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await page.click('#timeline .timeline-entry[data-iteration="2"] .entry-button');
  await openTab(page, 'trace');
  await page.click('#abstract-trace tr[data-step="4"]');
  await page.click('#share');
  const link = await page.locator('#share-link').inputValue();
  assert.match(link, /\?iteration=2&tab=trace&step=5#v1,/);
  await page.keyboard.press('Escape');
  const other = await open(site.browser.context, link);
  await other.page.locator('#abstract-trace tr.selected[data-step="4"]').waitFor({ timeout: 60000 });
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
  await other.page.close();
  await page.close();
});
