// C2BP §2.2's question in the invariants view (issue 30): does the invariant at a label imply a
// C expression? On partition (Abstract mode, the paper's 4 predicates), `L: prev != curr` HOLDS
// and the solver query γ(invariant) => prev != curr is shown; `L: prev == NULL` DOES NOT HOLD;
// a question without a label is an error message, not a crash. The engine function is
// `playground_api::query::answer` (the same as `predabs abstract --query`). Screenshot at
// 1280x800: /tmp/query-1280.png (QUERY_SHOT overrides the path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, loadExample, runToVerdict, openTab } from './harness.mjs';

const site = useSite();

async function ask(page, question) {
  await page.fill('#invariant-query', question);
  await page.click('#invariant-query-ask');
  await page.locator('#query-answer .query-answer').waitFor();
  return page.locator('#query-answer .query-answer');
}

test('partition: L: prev != curr HOLDS with the paper\'s 4 predicates, the solver query shown', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'partition');
  assert.equal(await page.locator('#mode').inputValue(), 'abstract');
  assert.equal(await runToVerdict(page), 'SAFE');
  await openTab(page, 'invariants');

  let answer = await ask(page, 'L: prev != curr');
  assert.equal(await answer.getAttribute('data-verdict'), 'holds');
  assert.equal(await answer.locator('.query-verdict').textContent(), 'HOLDS');
  const query = await answer.locator('.query-solver').textContent();
  assert.match(query, /=> prev != curr$/);
  assert.match(query, /curr/);
  assert.match(await answer.textContent(), /solver query \(wrap integers\): valid\?/);
  await page.screenshot({ path: process.env.QUERY_SHOT ?? '/tmp/query-1280.png' });

  answer = await ask(page, 'L: prev == NULL');
  assert.equal(await answer.getAttribute('data-verdict'), 'does_not_hold');
  assert.equal(await answer.locator('.query-verdict').textContent(), 'DOES NOT HOLD');

  answer = await ask(page, 'prev != curr');
  assert.equal(await answer.getAttribute('data-verdict'), 'error');
  assert.match(await answer.textContent(), /LABEL: EXPR/);

  assert.deepEqual(errors, []);
  await page.close();
});
