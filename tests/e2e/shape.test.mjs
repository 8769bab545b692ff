// Shape mode (shape analysis by iterated WP, seed 004) in the real UI: list insertion to SAFE
// with its 4 rounds, a WP derivation, the round stepper; the reversal's growing families with a
// suggested hint; the paper's hint plus a suggested one to SAFE, restored from a share link in a
// fresh browser; pushing the head onto itself to UNSAFE with a heap; axe stays clean;
// screenshots at 1280x800 and 640x800 (docs/screenshots/shape-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, launch, open, engineVersion, loadExample, seriousViolations } from './harness.mjs';

const site = useSite();
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

/** Waits until the verdict of a run started by a click reads `word`. */
async function verdictIs(page, word) {
  await page.waitForFunction((w) => document.querySelector('#shape-verdict .verdict-label')?.textContent.trim() === w, word, { timeout: 180000 });
}

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

// The paper's hint at n5 (Dams-Namjoshi section 5) typed in, then the n4 hint the UI suggests for
// the growing family x == x->n, x == x->n->n: SAFE at bound 20 (the condition of each hint also
// reduces the other growing predicates at its location). A share link restores the hints, the
// bound, the rounds and the verdict in a fresh browser.
test('Shape: the reversal reaches SAFE with a suggested hint, and a share link restores it', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'shape-reverse');
  const paperHint = 'reach[{&(y->n), &(x->n->n)};n](t,x->n)@n5 -> if !dshared[n](t,x) then false else T';
  await page.fill('#shape-hints', paperHint + '\n');
  await page.fill('#shape-bound', '20');
  assert.equal(await analyse(page), 'UNKNOWN');
  const family = page.locator('#shape-families li', { hasText: 'x == x->n@n4' });
  assert.match(await family.textContent(), /if !cyclic\[n\]\(x\) then false else T/);
  await family.locator('.add-hint').click();
  await verdictIs(page, 'SAFE');
  const hints = await page.inputValue('#shape-hints');
  assert.equal(hints, paperHint + '\nx == x->n@n4 -> if !cyclic[n](x) then false else T\n');
  const status = (await page.textContent('#shape-status')).trim();
  assert.match(status, /^20 rounds · 40 predicates · \d+ pairs · bound reached/);
  assert.equal((await page.textContent('#shape-round')).trim(), 'round 20 of 20');
  // a pair the n4 hint reduces rather than cuts shows its approximation
  await page.locator('.shape-pair .var-ref', { hasText: 'reach[{&(x->n)};n](t,x)' }).first().click();
  assert.match(await page.textContent('#shape-derivation .shape-approximation'), /if !cyclic\[n\]\(x\) then reach\[;n\]\(t,x\) else T/);
  assert.deepEqual(await seriousViolations(page), []);
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  assert.deepEqual(errors, []);
  await page.close();
  const fresh = await launch();
  try {
    const { page: other, errors: otherErrors } = await open(fresh.context, link);
    await verdictIs(other, 'SAFE');
    assert.equal(await other.inputValue('#mode'), 'shape');
    assert.equal(await other.inputValue('#shape-hints'), hints);
    assert.equal(await other.inputValue('#shape-bound'), '20');
    assert.equal(await other.inputValue('#shape-properties'), '!cyclic[n](y)@n8\n');
    assert.equal(await other.inputValue('#shape-preconditions'), '!cyclic[n](x)@n1\n');
    assert.equal((await other.textContent('#shape-status')).trim(), status);
    assert.equal((await other.textContent('#shape-round')).trim(), 'round 20 of 20');
    await other.click('#shape-round-back');
    assert.equal((await other.textContent('#shape-round')).trim(), 'round 19 of 20');
    assert.deepEqual(otherErrors, []);
  } finally {
    await fresh.close();
  }
});
