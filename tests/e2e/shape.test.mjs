// Shape mode (shape analysis by iterated WP, seed 004) in the real UI: list insertion to SAFE
// with its 4 rounds, a WP derivation, the round stepper; the reversal's growing families with a
// suggested hint; the paper's hint plus a suggested one to SAFE, restored from a share link in a
// fresh browser; pushing the head onto itself to UNSAFE with a heap; the Heaps tab's
// boxes-and-arrows pictures of concrete runs of insertion and reversal with every predicate's
// value beside its boolean; axe stays clean; screenshots at 1280x800 and 640x800
// (docs/screenshots/shape-*.png) and, with SHOTS_DIR, of the Heaps tab at 1280x800 and 683x768
// in both themes (mode-shape-heaps-*.png); a deep link to the Heaps tab (`?tab=heaps`), carried
// by Share, with bad tabs named in the notice; the empty fields' placeholders as examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, launch, open, engineVersion, loadExample, seriousViolations, screenshots } from './harness.mjs';

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

/** The picture's boxes, arrows and roots, and the predicate table, of the state shown. */
async function picture(page) {
  return page.evaluate(() => ({
    cells: [...document.querySelectorAll('#shape-heap-svg .heap-cell')].map((g) => g.dataset.cell),
    arrows: [...document.querySelectorAll('#shape-heap-svg .heap-arrow')].map((g) => `${g.dataset.from}->${g.dataset.to}`),
    roots: [...document.querySelectorAll('#shape-heap-svg .heap-root')].map((g) => `${g.dataset.root}=${g.dataset.to}`),
    values: Object.fromEntries([...document.querySelectorAll('#shape-heap-values tbody tr')].map((tr) => {
      const td = [...tr.querySelectorAll('td')].map((x) => x.textContent.trim());
      return [td[1], { concrete: td[2], allowed: td[3], check: td[5] }];
    })),
  }));
}

/** Chooses the input heap whose title contains `text`. */
async function chooseHeap(page, text) {
  const value = await page.locator('#shape-heap-run option', { hasText: text }).first().getAttribute('value');
  await page.selectOption('#shape-heap-run', value);
}

// The Heaps tab: concrete runs from small input heaps, drawn as boxes and arrows at each location
// with every predicate's concrete value beside the values its boolean may take (computed in the
// worker with the analysis). Insertion of a new first cell, and the reversal of a 3-cell list.
test('Shape: heap pictures of list insertion and reversal with each predicate beside its boolean', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'shape-insert');
  assert.equal(await analyse(page), 'SAFE');
  await page.click('#shape-tab-heaps');
  await page.locator('#shape-heap-svg').waitFor();
  assert.match(await page.textContent('#shape-heap-sound'), /Every concrete value is one its boolean allows/);
  // x = c0 -> c1 -> NULL with k = c1: after the insertion the new cell c2 heads the list
  await chooseHeap(page, 'x = c0, c0->n = c1, c1->n = NULL, k = c1');
  let p = await picture(page);
  assert.deepEqual(p.cells, ['c0', 'c1']);
  assert.deepEqual(p.arrows, ['c0.n->c1', 'c1.n->NULL']);
  assert.ok(p.roots.includes('x=c0') && p.roots.includes('k=c1') && p.roots.includes('t=NULL'), p.roots.join(' '));
  assert.deepEqual(p.values['reach[;n](x,k)'], { concrete: 'true', allowed: 'false or true', check: '✓' });
  // keyboard: the location buttons are buttons in tab order; Enter on ne shows the state there
  const ne = page.locator('.heap-step[data-location="ne"]');
  await ne.focus();
  await page.keyboard.press('Enter');
  assert.equal(await ne.getAttribute('aria-pressed'), 'true');
  assert.match(await page.textContent('#shape-heap-where'), /at ne .*after x = t/);
  p = await picture(page);
  assert.deepEqual(p.cells, ['c0', 'c1', 'c2']);
  assert.deepEqual(p.arrows, ['c0.n->c1', 'c1.n->NULL', 'c2.n->c0']);
  assert.ok(p.roots.includes('x=c2') && p.roots.includes('t=c2'), p.roots.join(' '));
  assert.deepEqual(p.values['reach[;n](x,k)'], { concrete: 'true', allowed: 'true', check: '✓' });
  // at n4 the boolean of reach[;n](t,k) is computed from b2 || b3 at n3: true here
  await page.click('.heap-step[data-location="n4"]');
  p = await picture(page);
  assert.deepEqual(p.values['reach[;n](t,k)'], { concrete: 'true', allowed: 'true', check: '✓' });
  assert.equal(await page.locator('#shape-heap-values .heap-mismatch').count(), 0);
  assert.deepEqual(await seriousViolations(page), []);
  await page.mouse.move(1, 1);
  await screenshots(page, 'mode-shape-heaps-insert', '#shape-heap-values');
  // the reversal of x = c0 -> c1 -> c2: at n8, y = c2 -> c1 -> c0 -> NULL and cyclic[n](y) is false
  await loadExample(page, 'shape-reverse');
  await analyse(page);
  await page.click('#shape-tab-heaps');
  await page.locator('#shape-heap-svg').waitFor();
  const titles = await page.locator('#shape-heap-run option').allTextContents();
  assert.equal(titles.length, 4, titles.join(' | '));
  await chooseHeap(page, 'x = c0, c0->n = c1, c1->n = c2, c2->n = NULL');
  assert.deepEqual((await picture(page)).arrows, ['c0.n->c1', 'c1.n->c2', 'c2.n->NULL']);
  await page.locator('.heap-step[data-location="n8"]').click();
  p = await picture(page);
  assert.deepEqual(p.arrows, ['c0.n->NULL', 'c1.n->c0', 'c2.n->c1']);
  assert.ok(p.roots.includes('y=c2') && p.roots.includes('x=NULL'), p.roots.join(' '));
  assert.equal(p.values['cyclic[n](y)'].concrete, 'false');
  assert.equal(p.values['cyclic[n](y)'].check, '✓');
  assert.equal(await page.locator('#shape-heap-mismatch').count(), 0);
  assert.deepEqual(await seriousViolations(page), []);
  await page.mouse.move(1, 1);
  await screenshots(page, 'mode-shape-heaps-reverse', '#shape-heap-svg');
  assert.deepEqual(errors, []);
  await page.close();
  const dark = await launch({ colorScheme: 'dark' });
  try {
    const { page: d, errors: darkErrors } = await open(dark.context, site.server.base);
    await engineVersion(d);
    await loadExample(d, 'shape-reverse');
    await analyse(d);
    await d.click('#shape-tab-heaps');
    await chooseHeap(d, 'x = c0, c0->n = c1, c1->n = c2, c2->n = NULL');
    await d.locator('.heap-step').nth(4).click();
    assert.deepEqual(await seriousViolations(d), []);
    await d.mouse.move(1, 1);
    await screenshots(d, 'mode-shape-heaps-reverse-dark', '#shape-heap-svg');
    assert.deepEqual(darkErrors, []);
  } finally {
    await dark.close();
  }
});

// Deep links to the Shape mode's views: `?tab=heaps` next to a share link opens the Heaps tab
// once the shared run is in; Share carries the open view; a tab name that is no tab, another
// mode's tab in Shape mode and a Shape view in another mode are named in the notice. The
// placeholders of the empty fields read as examples ("none; e.g. …", italic, muted): screenshots
// with SHOTS_DIR at 1280x800 and 683x768 (shape-placeholders-*.png).
test('Shape: a deep link opens the Heaps tab, Share carries the view, bad tabs are named', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'shape-insert');
  await page.click('#share');
  const link = await page.inputValue('#share-link');
  await page.keyboard.press('Escape');
  const fragment = link.slice(link.indexOf('#'));
  await page.goto(`${site.server.base}?tab=heaps${fragment}`);
  await page.locator('#shape-heap-svg').waitFor({ timeout: 120000 });
  assert.equal(await page.locator('#shape-tab-heaps').getAttribute('aria-selected'), 'true');
  assert.equal(await page.locator('#shape-tab-rounds').getAttribute('aria-selected'), 'false');
  assert.equal((await page.textContent('#shape-verdict .verdict-label')).trim(), 'SAFE');
  const notice = page.locator('#notice');
  if (await notice.count()) assert.ok(!/not applied/.test(await notice.textContent()), 'nothing was out of range');
  // Share puts the open view into the link; a fresh page opens it
  await page.click('#shape-tab-promela');
  await page.click('#share');
  const promelaLink = await page.inputValue('#share-link');
  await page.keyboard.press('Escape');
  assert.match(promelaLink, /\?tab=promela#/);
  const { page: other, errors: otherErrors } = await open(site.browser.context, promelaLink);
  await other.locator('#shape-promela').waitFor({ timeout: 120000 });
  assert.equal(await other.locator('#shape-tab-promela').getAttribute('aria-selected'), 'true');
  assert.match(await other.textContent('#shape-promela'), /proctype/);
  assert.deepEqual(otherErrors, []);
  await other.close();
  // out of range: not a tab; another mode's tab in Shape mode; a Shape view in Check mode
  for (const [query, expected] of [
    ['?tab=heap', /tab=heap is not a tab \(trace, .*; in Shape mode rounds, program, heaps, promela\)/],
    ['?tab=wp', /tab wp \(Shape mode's views are rounds, program, heaps, promela\)/],
    ['?mode=check&tab=heaps', /tab heaps \(a view of Shape mode; this link opens Check mode\)/],
  ]) {
    await page.goto(`${site.server.base}${query}${fragment}`);
    await page.locator('#notice').waitFor({ timeout: 60000 });
    assert.match(await page.textContent('#notice'), expected, query);
    assert.match(await page.textContent('#notice'), /Parts of this link were not applied/, query);
    // Shape mode stays on its default view when the tab was not applied
    if (query === '?tab=wp') assert.equal(await page.locator('#shape-tab-rounds').getAttribute('aria-selected'), 'true');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('Shape: empty fields show their placeholder as an example, not as contents', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'shape-reverse');
  await page.fill('#shape-preconditions', '');
  await page.fill('#shape-hints', '');
  for (const id of ['#shape-preconditions', '#shape-hints']) {
    assert.equal(await page.inputValue(id), '');
    assert.match(await page.getAttribute(id, 'placeholder'), /^none.*; e\.g\. /, id);
    const style = await page.evaluate((sel) => {
      const el = document.querySelector(sel);
      const ph = getComputedStyle(el, '::placeholder');
      return { phStyle: ph.fontStyle, phFont: ph.fontFamily, font: getComputedStyle(el).fontFamily };
    }, id);
    assert.equal(style.phStyle, 'italic', id);
    assert.notEqual(style.phFont, style.font, `${id}: the placeholder is not in the code font`);
  }
  assert.deepEqual(await seriousViolations(page), []);
  await page.mouse.move(1, 1);
  await screenshots(page, 'shape-placeholders', '#shape-preconditions');
  assert.deepEqual(errors, []);
  await page.close();
});
