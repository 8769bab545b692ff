// The worker seams of the playground (issues 27 and 31 item 7, 33): iterations stream into the
// timeline as they finish, Cancel keeps them, the progress clock moves during a long phase,
// Step computes one CEGAR iteration at a time, and a worker that dies is respawned with the
// student's program intact.
//   cd tests/e2e && DIST_DIR=/tmp/<you>-dist node --test streaming.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, loadExample } from './harness.mjs';

const site = useSite();

// Each refinement adds the next sum of squares: iterations 1 and 2 take well under a second,
// iteration 3 several seconds, iteration 4 far longer (natively 0.0 s, 0.3 s, 3.6 s, 22 s).
const SLOW_LATER = [
  'extern int __VERIFIER_nondet_int(void);',
  'void reach_error(void);',
  'int main(void) {',
  '  int x = 0;',
  '  int y = 0;',
  '  while (__VERIFIER_nondet_int()) {',
  '    x = x + 2;',
  '    y = y + x * x;',
  '  }',
  '  if (x == 7 || y == 3) reach_error();',
  '  return 0;',
  '}',
  ''].join('\n');

const entries = (page) => page.locator('#timeline .timeline-entry').count();

/** Check mode with the textbook loop, a long budget. */
async function slowProgram(page) {
  await page.selectOption('#mode', 'check');
  await page.fill('#source', SLOW_LATER);
  await page.fill('#predicates', '');
  await page.click('#settings-button');
  await page.fill('#opt-iterations', '1000');
  await page.fill('#opt-time', '3600');
  await page.keyboard.press('Escape');
}

test('iteration 1 is in the timeline while iteration 2 runs; Cancel keeps what finished', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await slowProgram(page);
  await page.click('#run');
  await page.locator('#timeline .timeline-entry[data-iteration="1"]').waitFor({ timeout: 60000 });
  // streamed: the verdict is far away, the run goes on
  assert.equal(await page.locator('#verdict').count(), 0, 'iteration 1 is shown before any verdict');
  assert.ok(await page.locator('#run-progress').isVisible());
  assert.ok(await page.locator('#cancel').isVisible());
  // the slow iteration 3: the progress clock keeps moving although the engine reports nothing
  await page.locator('#timeline .timeline-entry[data-iteration="2"]').waitFor({ timeout: 60000 });
  const elapsed = async () => Number(await page.locator('#run-progress').getAttribute('data-elapsed-ms'));
  const t1 = await elapsed();
  await page.waitForTimeout(1200);
  const t2 = await elapsed();
  assert.ok(t2 - t1 >= 500, `the progress clock moves (${t1} ms, then ${t2} ms)`);
  const finished = await entries(page);
  assert.ok(finished >= 2);
  await page.click('#cancel');
  await page.locator('#run-cancelled').waitFor({ timeout: 5000 });
  assert.match(await page.locator('#run-cancelled').textContent(), /Cancelled.*finished iteration/);
  assert.ok(await entries(page) >= finished, 'the finished iterations are kept');
  assert.equal(await page.locator('#verdict').count(), 0);
  // each iteration once
  const indices = await page.locator('#timeline .timeline-entry').evaluateAll((els) => els.map((e) => e.dataset.iteration));
  assert.deepEqual(indices, indices.map((_, i) => String(i + 1)));
  // a kept iteration can still be looked at
  await page.click('#timeline .timeline-entry[data-iteration="1"] .entry-button');
  await page.locator('#iteration-position', { hasText: /^1 \// }).waitFor();
  await page.locator('.worker-ready').waitFor({ timeout: 30000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('Step computes testdev one CEGAR iteration at a time: three steps to UNSAFE', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  for (const k of [1, 2]) {
    await page.click('#step');
    await page.locator('#run-paused').waitFor({ timeout: 60000 });
    assert.equal(await entries(page), k, `step ${k} shows exactly ${k} iteration(s)`);
    assert.equal(await page.locator('#verdict').count(), 0, 'the verdict stays hidden until reached');
    assert.match(await page.locator('#run').textContent(), /Run to the end/);
  }
  await page.click('#step');
  await page.locator('#verdict').waitFor({ timeout: 60000 });
  assert.equal(await entries(page), 3);
  assert.equal((await page.locator('#verdict .verdict-label').textContent()).trim(), 'UNSAFE');
  assert.match(await page.locator('#run').textContent(), /^\s*▶ Run\s*$/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Run to the end continues a stepped run', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await page.click('#step');
  await page.locator('#run-paused').waitFor({ timeout: 60000 });
  assert.equal(await entries(page), 1);
  await page.click('#run');
  await page.locator('#verdict').waitFor({ timeout: 60000 });
  const indices = await page.locator('#timeline .timeline-entry').evaluateAll((els) => els.map((e) => e.dataset.iteration));
  assert.deepEqual(indices, ['1', '2', '3'], 'no iteration twice');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a worker that dies is respawned with a clear message; the program stays', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  const marker = '/* my edits: keep them */\n';
  const source = marker + (await page.locator('#source').inputValue());
  await page.fill('#source', source);
  await page.click('#step');
  await page.locator('#run-paused').waitFor({ timeout: 60000 });
  // the test hook: the idle worker panics, which traps its wasm (its `error` event)
  await page.evaluate(() => window.dispatchEvent(new Event('predabs-debug-trap')));
  await page.locator('#run-error').waitFor({ timeout: 20000 });
  const message = await page.locator('#run-error').textContent();
  assert.match(message, /engine stopped .*restarted.*Your program is unchanged/, message);
  assert.equal(await page.locator('#source').inputValue(), source, 'the program is not lost');
  assert.equal(await entries(page), 1, 'the finished iteration is kept');
  // a fresh worker answers
  await page.locator('.worker-ready').waitFor({ timeout: 30000 });
  await page.click('#run');
  await page.locator('#verdict').waitFor({ timeout: 60000 });
  assert.equal((await page.locator('#verdict .verdict-label').textContent()).trim(), 'UNSAFE');
  // ... and a reload still has the edits
  await page.reload();
  await engineVersion(page);
  assert.equal(await page.locator('#source').inputValue(), source);
  // the dead worker's uncaught trap and the panic message are expected here, nothing else
  assert.deepEqual(errors.filter((e) => !/unreachable|panicked|RuntimeError|engine crashed/i.test(e)), []);
  await page.close();
});
