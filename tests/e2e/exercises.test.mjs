// Predict, then reveal (issue 31, "exercises"; web/src/exercise.rs): with the Predict toggle on,
// Step's reveal asks whether the abstract counterexample is feasible before showing it and which
// predicates refinement adds before showing them; the cube lattice asks which cubes imply
// WP(s, φ); the invariants view asks which facts hold at a label. Each kind is answered wrong
// (a hint appears) and then right, against the engine's answer read from the same engine by
// another way (a step without Predict, the lattice shown without Predict, the invariants
// view's own LABEL: EXPR question); axe on each question.
//   cd tests/e2e && DIST_DIR=/tmp/<you>-dist node --test exercises.test.mjs
// SHOTS_DIR=dir also writes exercise-*-1280.png and -683.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, loadExample, runToVerdict, openTab, setOption, seriousViolations, screenshots } from './harness.mjs';

const site = useSite();

const mark = async (page, kind) => {
  const el = page.locator(`#exercise-${kind} .exercise-mark`);
  await el.waitFor({ timeout: 60000 });
  return { mark: await el.getAttribute('data-mark'), text: (await el.textContent()).trim() };
};
const score = async (page) => {
  const chip = page.locator('#predict-score');
  return [Number(await chip.getAttribute('data-right')), Number(await chip.getAttribute('data-asked'))];
};
/** Ticks exactly the checkboxes of `kind` whose data-answer is in `answers`, then Check. */
async function choose(page, kind, answers) {
  for (const box of await page.locator(`#exercise-${kind} input[type=checkbox]`).all()) {
    const want = answers.includes(await box.getAttribute('data-answer'));
    if ((await box.isChecked()) !== want) {
      // keyboard: focus the box, Space toggles it
      await box.focus();
      await page.keyboard.press('Space');
    }
  }
  await page.focus(`#exercise-${kind}-check`);
  await page.keyboard.press('Enter');
}
const answersOf = (page, kind) =>
  page.locator(`#exercise-${kind} input[type=checkbox]`).evaluateAll((els) => els.map((e) => e.dataset.answer));

test('testdev, Step with Predict: feasibility and new predicates, each wrong with a hint, then right', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  // the engine's answers for iteration 1, from a step without Predict
  await page.click('#step');
  await page.locator('#run-paused').waitFor({ timeout: 60000 });
  const word = (await page.locator('#iteration-details .feasibility-word').textContent()).trim();
  const engineFeasible = word.startsWith('feasible') ? 'feasible' : 'infeasible';
  const added = (await page.locator('#iteration-details .new-preds code').allTextContents()).map((t) => t.replace(/^\+ /, '').trim());
  assert.ok(added.length > 0, 'iteration 1 refines');

  await loadExample(page, 'testdev');
  await page.check('#predict');
  assert.ok(await page.isChecked('#reveal-phases'), 'Predict turns phase by phase on');
  await page.click('#step');
  await page.locator('#run-paused').waitFor({ timeout: 60000 });
  await page.locator('#reveal-bar').waitFor();
  assert.equal(await page.locator('#exercise-feasibility').count(), 0, 'no question before the counterexample is shown');
  await page.click('#reveal-next');
  await page.locator('#exercise-feasibility').waitFor();
  assert.equal(await page.locator('#iteration-details .feasibility-word').count(), 0, 'the feasibility is not shown yet');
  assert.deepEqual(await seriousViolations(page, '#reveal-bar'), []);

  const wrongWord = engineFeasible === 'feasible' ? 'infeasible' : 'feasible';
  await page.focus(`#exercise-${wrongWord}`);
  await page.keyboard.press('Enter');
  let m = await mark(page, 'feasibility');
  assert.equal(m.mark, 'wrong');
  assert.match(m.text, /Not right\. Not quite: .{40,}/, 'a hint');
  assert.deepEqual(await score(page), [0, 1]);
  await screenshots(page, 'exercise-feasibility', '#reveal-bar');
  await page.click(`#exercise-${engineFeasible}`);
  await page.locator('#exercise-feasibility .exercise-mark[data-mark="right"]').waitFor();
  assert.deepEqual(await score(page), [0, 1], 'the first answer counts');

  // the feasibility phase, then the predicates question
  await page.click('#reveal-next');
  await page.locator('#reveal-status[data-phase="feasibility"]').waitFor();
  await page.locator('#exercise-predicates').waitFor();
  assert.equal(await page.locator('#iteration-details .new-preds').count(), 0, 'the predicates wait');
  const offered = await answersOf(page, 'predicates');
  for (const p of added) assert.ok(offered.includes(p), `${p} among ${JSON.stringify(offered)}`);
  const distractors = offered.filter((a) => !added.includes(a));
  assert.ok(distractors.length > 0, `the path's atoms give other choices: ${JSON.stringify(offered)}`);
  await choose(page, 'predicates', [distractors[0]]);
  m = await mark(page, 'predicates');
  assert.equal(m.mark, 'wrong');
  assert.match(m.text, /1 choice of yours is not added and \d+ predicates? the engine adds (is|are) missing/);
  assert.deepEqual(await seriousViolations(page, '#reveal-bar'), []);
  await screenshots(page, 'exercise-predicates', '#reveal-bar');
  await choose(page, 'predicates', added);
  await page.locator('#exercise-predicates .exercise-mark[data-mark="right"]').waitFor();
  assert.deepEqual(await score(page), [0, 2]);
  await page.click('#reveal-next');
  await page.locator('#iteration-details .new-preds').waitFor();
  assert.equal(await page.locator('#exercise-predicates').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('partition, Abstract mode with Predict: the cube lattice and the invariant at L, each wrong then right', async () => {
  // predict=on in the link turns the toggle on
  const { page, errors } = await open(site.browser.context, `${site.server.base}?predict=on`);
  await engineVersion(page);
  assert.ok(await page.isChecked('#predict'), 'predict=on');
  await page.uncheck('#predict');
  await loadExample(page, 'partition');
  await setOption(page, '#opt-strategy', 'lattice');
  assert.equal(await runToVerdict(page), 'SAFE');

  // the engine's implying cubes, from the lattice shown without Predict
  await page.locator('.bp-line', { hasText: '{prev == NULL}, {prev->val > v} := {curr == NULL}' }).click();
  await openTab(page, 'lattice');
  await page.click('.pred-choice[data-predicate="{prev == NULL}"]');
  await page.locator('#lattice-body[data-predicate="{prev == NULL}"]').waitFor();
  const implying = await page.locator('#lattice-svg .cube[data-outcome="implies"]').evaluateAll((els) => els.map((e) => e.dataset.cube));
  assert.ok(implying.length > 0);

  await page.check('#predict');
  await page.locator('#exercise-cubes').waitFor();
  assert.equal(await page.locator('#lattice-body').count(), 0, 'the lattice waits for the answer');
  const labels = await page.locator('#exercise-cubes label code').allTextContents();
  const answers = await answersOf(page, 'cubes');
  // only the cubes over the cone's first layer (C2BP §5.2): the predicates sharing a variable
  // with WP(s, φ) = curr == NULL, so {prev == NULL} and {prev->val > v} are in no choice
  const intro = await page.locator('#exercise-cubes .hint').first().textContent();
  assert.match(intro, /share a variable with WP\(s, φ\) — .*\{curr == NULL\}/);
  assert.doesNotMatch(intro, /prev/);
  for (const l of labels) assert.doesNotMatch(l, /prev/, `${l} is over the first layer`);
  assert.ok(labels.length >= 3 && labels.length <= 9, `${labels.length} choices: ${JSON.stringify(labels)}`);
  // the engine's implying cubes among them (checked against the lattice shown without Predict)
  const right = answers.filter((_, i) => implying.includes(labels[i]));
  const implyingOverLayer = implying.filter((c) => !/prev/.test(c));
  assert.equal(right.length, implyingOverLayer.length, `${JSON.stringify(labels)} vs ${JSON.stringify(implying)}`);
  assert.ok(right.length > 0);
  const wrong = answers.filter((a) => !right.includes(a));
  await choose(page, 'cubes', [...right, wrong[0]]);
  let m = await mark(page, 'cubes');
  assert.equal(m.mark, 'wrong');
  assert.match(m.text, /1 cube of yours does not imply WP\(s, φ\) = curr == NULL/);
  assert.deepEqual(await seriousViolations(page, '#explain-lattice'), []);
  await screenshots(page, 'exercise-cubes', '#exercise-cubes');
  await choose(page, 'cubes', right);
  await page.locator('#lattice-body[data-predicate="{prev == NULL}"]').waitFor();
  assert.equal(await page.locator('#exercise-cubes-done .exercise-mark').getAttribute('data-mark'), 'right', 'the mark stays above the lattice');
  assert.deepEqual(await page.locator('#lattice-svg .cube[data-outcome="implies"]').evaluateAll((els) => els.map((e) => e.dataset.cube)), implying);
  assert.deepEqual(await score(page), [0, 1]);

  // the invariant at L: hidden, asked, decided by the worker
  await openTab(page, 'invariants');
  await page.locator('#exercise-holds').waitFor();
  assert.ok(await page.locator('#invariants-table .invariant-hidden').count() >= 1, 'the invariant at L is hidden');
  const facts = await answersOf(page, 'holds');
  assert.ok(facts.length >= 4, JSON.stringify(facts));
  // while the question is open the view's own question does not answer about L (it would show
  // the invariant at L)
  await page.fill('#invariant-query', `L: ${facts[0]}`);
  await page.click('#invariant-query-ask');
  await page.locator('#query-refused').waitFor();
  assert.equal(await page.locator('#query-answer .query-answer').count(), 0);
  assert.equal(await page.locator('#query-answer .query-invariant').count(), 0, 'no invariant at L shown');
  // the engine's answer by the view's own question with Predict off, one fact at a time, after
  // emptying the predicates pane: the question brings the run's predicates, not the editor's
  const editorPredicates = await page.inputValue('#predicates');
  await page.fill('#predicates', '');
  await page.uncheck('#predict');
  const holding = [];
  for (const fact of facts) {
    await page.fill('#invariant-query', `L: ${fact}`);
    await page.click('#invariant-query-ask');
    const answer = page.locator(`#query-answer .query-answer`, { hasText: `L: ${fact}` });
    await answer.waitFor({ timeout: 60000 });
    if ((await answer.getAttribute('data-verdict')) === 'holds') holding.push(fact);
  }
  assert.ok(holding.length > 0 && holding.length < facts.length, JSON.stringify(holding));
  await page.fill('#predicates', editorPredicates);
  await page.check('#predict');
  await page.locator('#exercise-holds').waitFor();
  await choose(page, 'holds', facts.filter((f) => !holding.includes(f)).slice(0, 1));
  m = await mark(page, 'holds');
  assert.equal(m.mark, 'wrong');
  assert.match(m.text, /1 choice of yours does not follow from the invariant at L/);
  assert.deepEqual(await seriousViolations(page, '#explain-invariants'), []);
  await screenshots(page, 'exercise-holds', '#exercise-holds');
  await choose(page, 'holds', holding);
  // the worker's answers arrive: the question gives way to its mark
  await page.waitForFunction(() => !document.querySelector('#exercise-holds .hint + .exercise-choices ~ .exercise-feedback p.hint'), null, { timeout: 60000 });
  await page.locator('#exercise-holds-done, #exercise-holds .exercise-mark').first().waitFor({ timeout: 60000 });
  assert.equal(await page.locator('#exercise-holds-done .exercise-mark').count(), 1, (await page.locator('#explain-invariants').textContent()).slice(0, 1500));
  assert.equal(await page.locator('#exercise-holds-done .exercise-mark').getAttribute('data-mark'), 'right');
  assert.equal(await page.locator('#exercise-holds').count(), 0);
  assert.equal(await page.locator('#invariants-table .invariant-hidden').count(), 0, 'answered right: the invariant is shown');
  assert.deepEqual(await score(page), [0, 2]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('testdev, Run with Predict: the iterations are walked through, asked before each reveal, one picked in the timeline', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await page.check('#predict');
  await page.click('#run');
  // Run computes every iteration; the walk starts at the first
  await page.locator('#reveal-bar').waitFor({ timeout: 60000 });
  await page.waitForFunction(() => document.querySelector('#run')?.disabled === false, null, { timeout: 120000 });
  const entries = await page.locator('.timeline-entry').count();
  assert.ok(entries >= 3, `${entries} iterations`);
  assert.equal(await page.locator('#verdict').count(), 0, 'the verdict waits');
  assert.doesNotMatch(await page.locator('#run-status').textContent(), /SAFE|UNSAFE|UNKNOWN/, 'the top bar does not tell it');
  assert.equal(await page.locator('#reveal-status').getAttribute('data-phase'), 'boolean-program');
  assert.match(await page.locator('#reveal-status').textContent(), /^Iteration 1:/);
  assert.equal((await page.locator('.timeline-entry').nth(1).locator('.entry-summary').textContent()).trim(), 'not revealed yet', 'later iterations are hidden, even their predicate counts');
  await page.click('#reveal-next');
  await page.locator('#exercise-feasibility').waitFor();
  assert.equal(await page.locator('#iteration-details .feasibility-word').count(), 0, 'the feasibility is not shown yet');
  await page.click('#exercise-infeasible');
  await page.locator('#exercise-feasibility .exercise-mark[data-mark="right"]').waitFor();
  await page.click('#reveal-next');
  await page.locator('#exercise-predicates').waitFor();
  assert.equal(await page.locator('#iteration-details .new-preds').count(), 0, 'the predicates wait');
  assert.deepEqual(await seriousViolations(page, '#reveal-bar'), []);
  await screenshots(page, 'exercise-run-walk', '#reveal-bar');
  // the student picks the last iteration in the timeline: asked about it before its phases
  await page.locator('.timeline-entry').last().locator('.entry-button').click();
  assert.match(await page.locator('#reveal-status').textContent(), new RegExp(`^Iteration ${entries}:`));
  await page.click('#reveal-next');
  await page.locator('#exercise-feasibility').waitFor();
  await page.click('#exercise-feasible');
  await page.locator('#exercise-feasibility .exercise-mark[data-mark="right"]').waitFor();
  // the rest of its phases, then the verdict
  for (let k = 0; k < 6 && (await page.locator('#reveal-bar').count()) > 0; k++) {
    await page.click('#reveal-next');
  }
  await page.locator('#verdict').waitFor();
  assert.equal((await page.locator('#verdict .verdict-label').textContent()).trim(), 'UNSAFE');
  assert.match(await page.locator('#run-status').textContent(), /UNSAFE/);
  assert.deepEqual(errors, []);
  await page.close();
});
