// Technique settings (issue 31, "technique settings"): pure CEGAR, CEGAR with candidates or the
// portfolio picked in Settings, the deciding technique on the verdict, each added predicate
// tagged with its origin (and its source form), and the choice carried by a share link into a
// fresh browser.
//   cd tests/e2e && DIST_DIR=/tmp/<you>-dist node --test techniques.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, launch, open, engineVersion, loadExample, setOption, runToVerdict } from './harness.mjs';

const site = useSite();

test('the technique setting decides who answers, predicates carry their origin, a link carries the setting', async () => {
  const b = await launch({ permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    const { page, errors } = await open(b.context, site.server.base);
    await engineVersion(page);
    // counting-loop: the portfolio decides at once (its note), the textbook loop refines
    await loadExample(page, 'counting-loop');
    await setOption(page, '#opt-techniques', 'all');
    assert.equal(await runToVerdict(page), 'SAFE');
    const portfolio = (await page.locator('#decided-by').textContent()).trim();
    assert.match(portfolio, /^Decided by: /);

    await setOption(page, '#opt-techniques', 'cegar');
    assert.equal(await runToVerdict(page), 'SAFE');
    assert.equal((await page.locator('#decided-by').textContent()).trim(), 'Decided by: the CEGAR loop');
    assert.ok((await page.locator('.timeline-entry').count()) >= 2, 'the textbook loop refines');
    // an iteration that refined: each new predicate with where it came from
    const refined = page.locator('.timeline-entry', { hasText: 'predicate' }).first();
    await refined.locator('.entry-button').click();
    await page.locator('#iteration-details .new-preds').waitFor();
    const origins = await page.locator('#iteration-details .pred-origin').allTextContents();
    assert.ok(origins.length > 0 && origins.every((o) => /\((refinement: path step \d+(, line \d+)?|error guard|branch condition|candidate: .+)\)/.test(o.trim())), origins.join(' | '));

    // the setting travels in the share link to a fresh browser
    await page.click('#share');
    await page.locator('#share-status', { hasText: /copied/ }).waitFor();
    const link = await page.locator('#share-link').inputValue();
    const fresh = await launch();
    try {
      const { page: again, errors: againErrors } = await open(fresh.context, link);
      await engineVersion(again);
      await again.click('#settings-button');
      assert.equal(await again.inputValue('#opt-techniques'), 'cegar');
      await again.keyboard.press('Escape');
      assert.equal(await runToVerdict(again), 'SAFE');
      assert.equal((await again.locator('#decided-by').textContent()).trim(), 'Decided by: the CEGAR loop');
      assert.deepEqual(againErrors, []);
    } finally {
      await fresh.close();
    }
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
