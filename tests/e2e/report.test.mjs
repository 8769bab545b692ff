// Browser tests of the explained refinement (BOOP Fig 7.3's decisive row in one sentence), the
// boolean-program diff between iterations and the exported report: `node --test` in tests/e2e.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useSite, open, engineVersion, loadExample, runToVerdict, openTab } from './harness.mjs';

const site = useSite();

test('testdev iteration 2: the sentence names line 59 and the lock predicate; the diff of iteration 3 adds it', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await page.locator('.timeline-entry').nth(1).click();
  await openTab(page, 'trace');
  const why = await page.locator('#refinement-why').textContent();
  assert.match(why, /`locked != 0`, become false at line 59 `locked = 0;`/);
  assert.match(why, /refinement adds \{locked == 0\}\./);
  // the decisive row's number is the path step the verdict names
  const decisive = await page.locator('.feasibility-row.contradiction .num').first().textContent();
  assert.match(await page.locator('#feasibility-verdict').textContent(), new RegExp(`step ${decisive}\\b`));

  await page.locator('.timeline-entry').nth(2).click();
  await page.locator('#bp-diff summary').click();
  const added = await page.locator('#bp-diff .diff-add').allTextContents();
  assert.ok(added.some((l) => l.includes('locked == 0')), added.join('\n'));
  assert.deepEqual(errors, []);
  await page.close();
});

test('Export report downloads one self-contained HTML file with every iteration', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-report')]);
  assert.equal(download.suggestedFilename(), 'predabs-report.html');
  const html = fs.readFileSync(await download.path(), 'utf8');
  const n = await page.locator('.timeline-entry').count();
  for (let i = 1; i <= n; i++) assert.ok(html.includes(`<h2>Iteration ${i}</h2>`), `iteration ${i}`);
  assert.ok(html.includes('Why it is spurious:'));
  assert.ok(!html.includes('<script'), 'no script in the report');
  // the report opens on its own and shows the verdict
  const report = await site.browser.context.newPage();
  await report.setContent(html);
  assert.equal((await report.locator('.verdict').textContent()).trim(), 'UNSAFE');
  await report.close();
  assert.deepEqual(errors, []);
  await page.close();
});
