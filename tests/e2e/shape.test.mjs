// Shape mode (shape analysis by iterated WP, seed 004) in the real UI: list insertion to SAFE
// with its 4 rounds, a WP derivation, the round stepper; the reversal's growing families with a
// suggested hint; pushing the head onto itself to UNSAFE with a heap; axe stays clean;
// screenshots at 1280x800 and 640x800 (docs/screenshots/shape-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, open, engineVersion, loadExample, seriousViolations } from './harness.mjs';

const site = useSite();
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

async function analyse(page) {
  await page.click('#shape-run');
  await page.locator('#shape-verdict').waitFor({ timeout: 120000 });
  return (await page.textContent('#shape-verdict .verdict-label')).trim();
}

test('Shape: list insertion is SAFE in 4 rounds, with its WP derivations', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'shape-insert');
  assert.equal(await page.inputValue('#mode'), 'shape');
  assert.equal(await page.inputValue('#shape-proc'), 'insert');
  assert.equal(await analyse(page), 'SAFE');
  assert.match(await page.textContent('#shape-status'), /^4 rounds · 4 predicates/);
  // the round stepper: back to round 1, then forward
  assert.equal((await page.textContent('#shape-round')).trim(), 'round 4 of 4');
  for (let k = 0; k < 3; k++) await page.click('#shape-round-back');
  assert.equal((await page.textContent('#shape-round')).trim(), 'round 1 of 4');
  assert.equal(await page.locator('#shape-round-list li').count(), 1);
  await page.click('#shape-round-next');
  assert.match(await page.textContent('#shape-round-list'), /new predicates/);
  await page.click('#shape-round-all');
  // the WP of reach[;n](t,k)@n4 over t->n = x
  await page.locator('.shape-pair .var-ref', { hasText: 'reach[;n](t,k)' }).first().click();
  await page.locator('#shape-derivation .wp-steps li').first().waitFor();
  assert.match(await page.textContent('#shape-derivation'), /Fig 5/);
  assert.deepEqual(await seriousViolations(page), []);
  await page.screenshot({ path: path.join(shots, 'shape-insert-1280.png') });
  await page.click('#shape-tab-program');
  assert.match(await page.textContent('#shape-actions'), /b1 := b2 \|\| b3/);
  await page.click('#shape-tab-promela');
  assert.match(await page.textContent('#shape-promela'), /proctype/);
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('Shape: the reversal grows families with suggested hints; pushing the head is UNSAFE', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'shape-reverse');
  assert.equal(await analyse(page), 'UNKNOWN');
  await page.locator('#shape-families .add-hint').first().waitFor();
  await page.setViewportSize({ width: 640, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `horizontal overflow ${overflow}px at 640 px`);
  await page.screenshot({ path: path.join(shots, 'shape-reverse-640.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  // adding a suggested hint puts it into the hints editor and re-runs
  await page.locator('#shape-families .add-hint').first().click();
  await page.locator('#shape-verdict').waitFor({ timeout: 120000 });
  assert.match(await page.inputValue('#shape-hints'), /->\s*if .* then false else T/);
  // pushing the head onto itself: UNSAFE with a concrete heap
  await loadExample(page, 'shape-push-cycle');
  assert.equal(await analyse(page), 'UNSAFE');
  assert.match(await page.textContent('#shape-witness'), /x = c0/);
  assert.deepEqual(await seriousViolations(page), []);
  await page.screenshot({ path: path.join(shots, 'shape-unsafe-1280.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
