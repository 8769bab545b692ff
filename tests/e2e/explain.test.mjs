// Browser tests of the explain views (cube lattice, WP, trace, invariants, solver log, lab
// notes), each on a real engine run in the worker: `node --test` in tests/e2e.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, loadExample, setOption, runToVerdict, openTab, chooseStatement } from './harness.mjs';

const site = useSite();

/** A fresh page with `id` loaded and run in Abstract mode with the cube-lattice strategy. */
async function latticeRun(id) {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, id);
  await setOption(page, '#opt-strategy', 'lattice');
  assert.equal(await runToVerdict(page), 'SAFE');
  return { page, errors };
}

const cubes = (page, outcome) =>
  page.locator(`#lattice-svg .cube[data-outcome="${outcome}"]`).evaluateAll((els) => els.map((e) => e.dataset.cube));

test('partition lattice: prev = curr strengthens {prev == NULL} to choose({curr == NULL}, !{curr == NULL})', async () => {
  const { page, errors } = await latticeRun('partition');
  // click the boolean line of `prev = curr` (the statement with both prev predicates)
  await page.locator('.bp-line', { hasText: '{prev == NULL}, {prev->val > v} := {curr == NULL}' }).click();
  await openTab(page, 'lattice');
  const chosen = await page.locator('#explain-statement').evaluate((s) => s.options[s.selectedIndex].textContent);
  assert.match(chosen, /prev = curr;/);
  // the C line is pinned
  assert.match(await page.locator('.code-line.focused').textContent(), /prev = curr;/);

  await page.click('.pred-choice[data-predicate="{prev == NULL}"]');
  await page.locator('#lattice-body[data-predicate="{prev == NULL}"]').waitFor();
  assert.equal(await page.locator('#lattice-target').textContent(), 'curr == NULL');
  assert.deepEqual(await cubes(page, 'implies'), ['{curr == NULL}']);
  const negative = await cubes(page, 'implies_negation');
  assert.ok(negative.includes('!{curr == NULL}'), JSON.stringify(negative));
  assert.ok((await cubes(page, 'neither')).length > 0);
  // coloured by outcome: green for implies φ, red for implies ¬φ
  const stroke = (outcome) =>
    page.locator(`#lattice-svg .cube[data-outcome="${outcome}"] rect`).first().evaluate((r) => getComputedStyle(r).stroke);
  assert.equal(await stroke('implies'), 'rgb(43, 138, 62)');
  assert.equal(await stroke('implies_negation'), 'rgb(201, 42, 42)');
  assert.equal(await page.locator('#lattice-legend .legend-item').count(), 6);
  // Hasse edges join cubes of consecutive lengths
  assert.ok(await page.locator('#lattice-svg .edge').count() > 0);
  assert.equal(await page.locator('#f-goal').textContent(), '{curr == NULL}');
  assert.equal(await page.locator('#f-negated').textContent(), '!{curr == NULL}');
  assert.equal(await page.locator('#assigned').textContent(), '{prev == NULL} := choose({curr == NULL}, !{curr == NULL})');

  // a cube's solver query, answer and time
  await page.locator('#lattice-svg .cube[data-outcome="implies"]').click();
  const query = await page.locator('#cube-query').textContent();
  assert.match(query, /curr == NULL/);
  assert.match(query, /answer: valid · \d+ µs/);

  // the BFS replay hides the cubes not visited yet, then shows them all again
  await page.click('#lattice-animate');
  await page.locator('#lattice-svg .cube.unvisited').first().waitFor({ timeout: 5000 });
  await page.waitForFunction(() => /animate/.test(document.querySelector('#lattice-animate').textContent), null, { timeout: 20000 });
  assert.equal(await page.locator('#lattice-svg .cube.unvisited').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('increment lattice: after x = x + 1, {x == 2} is among the cubes implying x < 5', async () => {
  const { page, errors } = await latticeRun('increment');
  await openTab(page, 'lattice');
  await chooseStatement(page, 'x = x + 1;');
  await page.click('.pred-choice[data-predicate="{x < 5}"]');
  await page.locator('#lattice-body[data-predicate="{x < 5}"]').waitFor();
  assert.equal(await page.locator('#lattice-target').textContent(), 'x + 1 < 5');
  const implying = await cubes(page, 'implies');
  assert.ok(implying.includes('{x == 2}'), JSON.stringify(implying));
  assert.ok(!implying.includes('{x < 5}'), 'x = 4 satisfies x < 5 but not x + 1 < 5');
  assert.equal(await page.locator('#f-goal').textContent(), '{x == 2}');
  assert.match(await page.locator('#assigned').textContent(), /^\{x < 5\} := choose\(\{x == 2\}, /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('exact strategy: the lattice view shows valuations and prime implicants instead', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'increment');
  await setOption(page, '#opt-strategy', 'exact');
  assert.equal(await runToVerdict(page), 'SAFE');
  await openTab(page, 'lattice');
  await chooseStatement(page, 'x = x + 1;');
  await page.click('.pred-choice[data-predicate="{x < 5}"]');
  await page.locator('#exact-view').waitFor();
  assert.equal(await page.locator('#lattice-svg').count(), 0);
  assert.ok(await page.locator('#exact-view .valuations tbody tr').count() >= 1);
  assert.match(await page.locator('#exact-view .primes').textContent(), /\{x == 2\}/);
  assert.equal(await page.locator('#f-goal').textContent(), '{x == 2}');
  assert.deepEqual(errors, []);
  await page.close();
});

test('testdev trace: step table, pinned lines, and the contradiction at locked = FALSE (BOOP Fig 7.3)', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  const n = await page.locator('.timeline-entry').count();
  const spurious = [];
  for (let i = 0; i < n; i++) {
    const entry = page.locator('.timeline-entry').nth(i);
    if (!/spurious/.test(await entry.textContent())) continue;
    await entry.click();
    await openTab(page, 'trace');
    spurious.push({ i, contradiction: await page.locator('.feasibility-row.contradiction .c-source').allTextContents() });
  }
  assert.ok(spurious.length >= 1, 'at least one spurious counterexample');
  const locked = spurious.find((s) => s.contradiction.includes('locked = FALSE;'));
  assert.ok(locked, JSON.stringify(spurious));

  await page.locator('.timeline-entry').nth(locked.i).click();
  await openTab(page, 'trace');
  assert.match(await page.locator('#feasibility-verdict').textContent(), /^spurious: infeasible/);
  assert.equal(await page.locator('#feasibility-table').getAttribute('data-method'), 'wp');
  const row = page.locator('.feasibility-row.contradiction');
  assert.equal(await row.count(), 1, 'exactly one row is marked');
  assert.match(await row.textContent(), /⟂ contradiction/);
  // one column per condition thread (BOOP Fig 7.3): the contradiction is `false` in one of them
  assert.match((await row.locator('.conditions-cell').allTextContents()).join(' | '), /false/);
  assert.match(await page.locator('#feasibility-table').textContent(), /thread 1/);
  // the row after it still has a satisfiable condition about locked
  assert.match((await page.locator('.feasibility-row').nth(1).locator('.conditions-cell').allTextContents()).join(' | '), /locked != 0/);

  // the abstract counterexample: one row per step, a column per boolean variable, T/F values
  const steps = page.locator('#abstract-trace .step-row');
  assert.ok(await steps.count() > 5);
  assert.ok(await page.locator('#abstract-trace .var-head').count() >= 2);
  assert.ok(await page.locator('#abstract-trace td.bit.val-true, #abstract-trace td.bit.val-false').count() > 0);
  // clicking a step pins its C and boolean lines
  const step = page.locator('#abstract-trace .step-row', { has: page.locator('td.line-ref', { hasText: /^L\d+$/ }) }).nth(2);
  const cRef = (await step.locator('td.line-ref').first().textContent()).slice(1);
  const bRef = (await step.locator('td.line-ref').nth(1).textContent()).slice(1);
  await step.click();
  assert.equal(await step.getAttribute('class'), 'step-row selected');
  assert.deepEqual(await page.locator('.code-line.focused').evaluateAll((els) => els.map((e) => e.dataset.line)), [cRef]);
  assert.deepEqual(await page.locator('.bp-line.focused').evaluateAll((els) => els.map((e) => e.dataset.bpLine)), [bRef]);

  // the last iteration is the real bug: its concrete run
  await page.locator('.timeline-entry').nth(n - 1).click();
  await openTab(page, 'trace');
  assert.match(await page.locator('#feasibility-verdict').textContent(), /^feasible/);
  assert.ok(await page.locator('#concrete-run .concrete-row').count() > 5);
  assert.match(await page.locator('#concrete-run').textContent(), /unregister_chrdev|usecount/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('WP view: Morris rule, aliasing cases and simplification for an assignment; prm/ret/E_u for a call', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'foo-bar');
  assert.equal(await runToVerdict(page), 'SAFE');
  await openTab(page, 'wp');
  await chooseStatement(page, '*p = *p + x;');
  const row = page.locator('.wp-row[data-predicate="{*p <= 0}"]');
  await row.waitFor();
  assert.equal(await row.locator('.wp-simplified').textContent(), '*p + x <= 0');
  assert.ok((await row.locator('.wp-raw').textContent()).length > 0);
  assert.ok(await row.locator('.alias-cases li').count() >= 1);
  assert.match(await row.locator('.alias-cases').textContent(), /\*p/);
  assert.match(await row.locator('.wp-assigned').textContent(), /^choose\(/);

  await chooseStatement(page, 'bar(p, x)');
  await page.locator('#call-notes').waitFor();
  const notes = await page.locator('#call-notes li').allTextContents();
  assert.ok(notes.some((n) => /prm|E_f/.test(n)), JSON.stringify(notes));
  assert.ok(notes.some((n) => /E_u/.test(n)), JSON.stringify(notes));
  assert.deepEqual(errors, []);
  await page.close();
});

test('invariants view: the invariant at label L reads as C and links to its line', async () => {
  const { page, errors } = await latticeRun('partition');
  await openTab(page, 'invariants');
  const row = page.locator('.invariant-row', { has: page.locator('td', { hasText: /^at L$/ }) });
  assert.equal(await row.locator('.invariant-formula').textContent(), 'curr != NULL ∧ curr->val > v ∧ (prev->val <= v ∨ prev == NULL)');
  assert.equal(await row.locator('.invariant-formula').getAttribute('title'), '!{curr == NULL} && {curr->val > v} && (!{prev->val > v} || {prev == NULL})');
  const line = await row.getAttribute('data-line');
  await row.click();
  assert.deepEqual(await page.locator('.code-line.focused').evaluateAll((els) => els.map((e) => e.dataset.line)), [line]);
  assert.match(await page.locator('.code-line.focused').textContent(), /L:/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('solver log: the statement\'s queries with answers and times, totals and cache-hit rate', async () => {
  const { page, errors } = await latticeRun('partition');
  await openTab(page, 'solver');
  const whole = (await page.locator('#solver-totals').textContent()).match(/Whole abstraction: (\d+) queries/);
  const all = Number(whole[1]);
  assert.ok(all > 10);
  // the table shows the first 400 rows at most
  assert.equal(await page.locator('#solver-log .query-row').count(), Math.min(all, 400));
  await chooseStatement(page, 'prev = curr;');
  const rows = page.locator('#solver-log .query-row');
  const k = await rows.count();
  assert.ok(k >= 1 && k < all, `${k} of ${all}`);
  const answers = await rows.locator('.answer').allTextContents();
  assert.ok(answers.every((a) => ['valid', 'invalid', 'unknown'].includes(a)), JSON.stringify(answers));
  assert.ok(answers.includes('valid'));
  assert.match(await rows.first().locator('.query-text').textContent(), /==>/);
  const totals = await page.locator('#solver-totals').textContent();
  assert.match(totals, new RegExp(`Whole abstraction: ${all} queries, [\\d.]+ ms, \\d+ answered by the cache \\(hit rate \\d+%\\)`));
  assert.match(totals, new RegExp(`This statement: ${k} queries`));
  assert.deepEqual(errors, []);
  await page.close();
});

test('solver log in Check mode: solver work per CEGAR iteration', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'lock');
  assert.equal(await runToVerdict(page), 'SAFE');
  await openTab(page, 'solver');
  const n = await page.locator('.timeline-entry').count();
  assert.equal(await page.locator('#solver-iterations tbody tr').count(), n);
  assert.match(await page.locator('#solver-totals').textContent(), /^Total: \d+ solver queries/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('lab notes: the example\'s markdown is rendered (headings, emphasis, inline code)', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await loadExample(page, 'partition');
  await openTab(page, 'notes');
  const notes = page.locator('#lab-notes');
  assert.equal(await notes.getAttribute('data-example'), 'partition');
  assert.equal(await notes.locator('h3').textContent(), 'partition');
  assert.deepEqual(await notes.locator('strong').allTextContents(), ['Predict.', 'Click.', 'Observe.']);
  assert.ok((await notes.locator('code').allTextContents()).includes('prev = curr'));
  assert.ok(await notes.locator('em').count() >= 1);
  assert.ok(!(await notes.textContent()).includes('**'), 'no raw markdown left');
  // another example, other notes
  await loadExample(page, 'testdev');
  assert.equal(await page.locator('#lab-notes h3').textContent(), 'testdev');
  assert.deepEqual(errors, []);
  await page.close();
});
