// Issue 31's last defects, each with the test that would have caught it:
// 1. the abstract trace's boolean statements, the feasibility table and the concrete run are in
//    the source's terms (no lowered names, no `input#0`, no `'a = a`, no `i = *;`): inputs as
//    `nondet (input 1, line 7)` and explained under the table;
// 2. a lab's locked settings are disabled in Settings (and the mode menu) with the reason, and
//    cannot be changed;
// 3. after Share the address bar holds the share link itself (with the place shown), also
//    without the clipboard API, where the link is shown selected;
// 4. the explain views explain the program the run was made from, with a notice once the
//    editor's program differs.
// 5. the cube lattice, the WP view and the solver log print predicates and C formulas over the
//    source's names (`{main::n == 0}`, not `{n_main == 0}`), the statement list an input read
//    as `x = nondet (line L);` (was `x = *;`); the boolean program pane keeps its text exact and
//    lists each renamed predicate with its source form;
// 6. NEWTON's table (refinement sp: Ω, Φ, Π columns) and the refinement sentence under it name
//    variables as the source does (`main::i ↦ 0`, `{main::i >= 2}`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, launch, open, engineVersion, loadExample, setOption, runToVerdict, openTab, chooseStatement, seriousViolations, screenshots } from './harness.mjs';

const site = useSite();

// a global and a local `n` (the local is `main::n`), an input, a call with a symbolic constant
const PROGRAM = `extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int n;
int f(int a) { int n = a; return n + 1; }
int main(void) {
  int n = 0;
  int i = __VERIFIER_nondet_int();
  int r = f(i);
  if (r == 5 && n == 0) reach_error();
  return 0;
}
`;
const LOWERED = /_main\b|_return\b|input#|\btmp\d|'a = a| = \*;/;
// an input whose value a predicate tracks
const INPUT = `extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 5) reach_error();
  return 0;
}
`;
// NEWTON learns constants; `i` is both f's parameter and main's local
const COUNTING = `extern void reach_error(void);
int f(int i) { return i; }
int main(void) {
  int i = f(0);
  while (i < 2) i = i + 1;
  if (i != 2) reach_error();
  return 0;
}
`;

async function texts(page, selector) {
  return page.locator(selector).allTextContents();
}

test('traces for students: boolean statements, feasibility rows and inputs in the source terms', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.fill('#source', PROGRAM);
  await setOption(page, '#opt-techniques', 'cegar');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await page.locator('.timeline-entry').first().click();
  await openTab(page, 'trace');
  const statements = await texts(page, '#abstract-trace .step-statement');
  assert.ok(statements.length > 3, `${statements.length} abstract steps`);
  for (const s of statements) assert.doesNotMatch(s, LOWERED, s);
  assert.ok(statements.some((s) => s.includes('{main::n == 0}')), statements.join(' | '));
  const heads = await page.locator('#abstract-trace .var-head').allTextContents();
  for (const h of heads) assert.doesNotMatch(h, LOWERED, h);

  const rows = await texts(page, '#feasibility-table .path-statement');
  const conditions = await texts(page, '#feasibility-table .cond');
  for (const t of [...rows, ...conditions]) assert.doesNotMatch(t, LOWERED, t);
  assert.ok(rows.includes('i = nondet (input 1, line 7);'), rows.join(' | '));
  assert.ok(conditions.some((c) => c.includes('input1')), conditions.join(' | '));
  assert.match(await page.locator('#symbolic-constants').textContent(), /input1.*__VERIFIER_nondet_int\(\) returned at line 7/);

  // the last iteration's concrete run
  await page.locator('.timeline-entry').last().click();
  const executed = await texts(page, '#concrete-run .executed');
  for (const t of executed) assert.doesNotMatch(t, LOWERED, t);
  assert.ok(executed.includes('i = nondet (input 1, line 7);'), executed.join(' | '));
  assert.match(await page.locator('#concrete-inputs').textContent(), /__VERIFIER_nondet_int\(\) at line 7 = 4/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('locked lab settings are disabled with the reason and cannot be changed', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await page.click('#lab-button');
  await page.click('[data-lab="c2bp-partition"]');
  await page.locator('#lab-student[data-lab="c2bp-partition"]').waitFor();
  // the mode is locked (a field of the top bar)
  assert.ok(await page.locator('#mode').isDisabled());
  const modeNote = await page.locator('#mode').getAttribute('aria-describedby');
  assert.match(await page.locator(`#${modeNote}`).textContent(), /Locked by the lab .C2BP: abstracting partition.: mode/);

  await page.click('#settings-button');
  await page.locator('#settings').waitFor();
  const strategy = page.locator('#opt-strategy');
  const before = await strategy.inputValue();
  assert.ok(await strategy.isDisabled(), 'the locked strategy is disabled');
  assert.equal(await strategy.getAttribute('aria-describedby'), 'settings-locked');
  assert.match(await strategy.getAttribute('title'), /Locked by the lab/);
  assert.match(await page.locator('#settings-locked').textContent(), /Locked by the lab .C2BP: abstracting partition.: mode, program, predicates, strategy/);
  // neither a pick nor the keyboard changes it
  await assert.rejects(page.selectOption('#opt-strategy', before === 'lattice' ? 'exact' : 'lattice', { timeout: 1500 }));
  await strategy.focus().catch(() => {});
  assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'opt-strategy', 'a disabled control takes no focus');
  await page.keyboard.press('ArrowDown');
  assert.equal(await strategy.inputValue(), before);
  // what the lab does not lock stays free
  assert.ok(!(await page.locator('#opt-refinement').isDisabled()));
  assert.equal(await page.locator('#opt-refinement').getAttribute('aria-describedby'), null);
  await page.keyboard.press('Escape');

  // the other gallery lab locks other settings
  await page.click('#lab-leave');
  assert.ok(!(await page.locator('#mode').isDisabled()), 'no lab, no lock');
  await page.click('#lab-button');
  await page.click('[data-lab="boop-testdev"]');
  await page.locator('#lab-student[data-lab="boop-testdev"]').waitFor();
  await page.click('#settings-button');
  for (const id of ['#opt-techniques', '#opt-refinement']) assert.ok(await page.locator(id).isDisabled(), `${id} is locked`);
  assert.ok(!(await page.locator('#opt-strategy').isDisabled()), 'the strategy is free in this lab');
  await page.keyboard.press('Escape');
  await page.click('#lab-leave');
  await page.click('#settings-button');
  assert.ok(!(await page.locator('#opt-techniques').isDisabled()), 'leaving the lab frees the settings');
  assert.equal(await page.locator('#settings-locked').count(), 0);
  await page.keyboard.press('Escape');
  assert.deepEqual(errors, []);
  await page.close();
});

/** Runs testdev with the textbook loop, selects iteration 2 and opens the trace tab. */
async function testdevAtIteration2(page) {
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await setOption(page, '#opt-techniques', 'cegar');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await page.locator('.timeline-entry').nth(1).click();
  await openTab(page, 'trace');
}

test('after Share the address bar holds the share link, with the place shown', async () => {
  const b = await launch({ permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    const { page, errors } = await open(b.context, `${site.server.base}?example=testdev`);
    await testdevAtIteration2(page);
    await page.click('#share');
    await page.locator('#share-status', { hasText: /copied/ }).waitFor();
    const link = await page.locator('#share-link').inputValue();
    assert.match(link, /\?(mode=check&)?iteration=2&tab=trace#v1,/);
    assert.equal(page.url(), link, 'the address bar is the link');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    // the address opens the same place in a fresh page
    const { page: again } = await open(b.context, page.url());
    await again.locator('#verdict').waitFor({ timeout: 60000 });
    await again.locator('#explain-trace').waitFor();
    assert.equal(await again.locator('.timeline-entry.selected').getAttribute('data-iteration'), '2');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('Share over plain http (no clipboard API): the address bar and the selected field hold the link', async () => {
  const b = await launch({ initScript: () => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true }) });
  try {
    const { page, errors } = await open(b.context, site.server.base);
    await testdevAtIteration2(page);
    await page.click('#share');
    await page.locator('#share-dialog').waitFor();
    const link = await page.locator('#share-link').inputValue();
    assert.match(link, /iteration=2/);
    assert.equal(page.url(), link);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'share-link');
    assert.deepEqual(await page.locator('#share-link').evaluate((e) => [e.selectionStart, e.selectionEnd]), [0, link.length]);
    assert.match(await page.locator('#share-status').textContent(), /Link copied|copy it with Ctrl\+C/);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test("the explain views explain the run's program, with a notice once the editor's differs", async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await testdevAtIteration2(page);
  const cSources = await texts(page, '#abstract-trace .step-c-source');
  assert.ok(cSources.some((c) => c.includes('MOD_INC_USE_COUNT')), cSources.join(' | '));
  assert.equal(await page.locator('#explain-stale').count(), 0, 'no notice before an edit');
  // the editor's program no longer parses: the views still explain the run's
  await page.fill('#source', 'int main( {\n');
  await page.locator('#explain-stale').waitFor();
  assert.deepEqual(await texts(page, '#abstract-trace .step-c-source'), cSources, "the C text is the run's");
  await openTab(page, 'lattice');
  await page.locator('#explain-statement').waitFor({ timeout: 60000 });
  assert.equal(await page.locator('#explanation-error').count(), 0);
  const options = await texts(page, '#explain-statement option');
  // the run's statements (line 33 is MOD_INC_USE_COUNT;), in the source's terms
  assert.ok(options.some((o) => /L33\s+usecount = usecount \+ 1;/.test(o)), options.join(' | '));
  assert.ok(options.some((o) => /L22\s+return 42;/.test(o)), options.join(' | '));
  for (const o of options) assert.doesNotMatch(o, /_main\b|_return\b/, o);
  assert.match(await page.locator('#explain-stale').textContent(), /edited after this run/);
  assert.deepEqual(errors.filter((e) => !/expected|syntax/i.test(e)), []);
  await page.close();
});

test('the lattice, WP and solver-log views and the boolean program pane in the source terms', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.fill('#source', PROGRAM);
  await setOption(page, '#opt-techniques', 'cegar');
  await setOption(page, '#opt-strategy', 'lattice');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await page.locator('.timeline-entry').last().locator('.entry-button').click();

  // the pane: the boolean program's own text, the renamed predicates listed beside it
  const pane = (await page.locator('#boolean-program').textContent()) ?? '';
  assert.match(pane, /\{n_main == 0\}/, 'the boolean program text is exact');
  await page.click('#bp-names summary');
  const names = await texts(page, '#bp-names li');
  assert.ok(names.some((n) => n.includes('{n_main == 0} is {main::n == 0}')), names.join(' | '));
  const line = page.locator('.bp-line', { hasText: '{n_main == 0}' }).first();
  assert.match(await line.getAttribute('title'), /\{n_main == 0\} is \{main::n == 0\}/, 'a line names the source form of its predicates');

  await openTab(page, 'lattice');
  await page.locator('#explain-statement').waitFor({ timeout: 60000 });
  const statements = await texts(page, '#explain-statement option');
  for (const s of statements) assert.doesNotMatch(s, LOWERED, s);
  await chooseStatement(page, 'main::n = 0;');
  await page.locator('#lattice-body').waitFor();
  const predicates = await page.locator('.pred-choice').evaluateAll((els) => els.map((e) => e.dataset.predicate));
  assert.ok(predicates.includes('{main::n == 0}'), predicates.join(', '));
  for (const p of predicates) assert.doesNotMatch(p, LOWERED, p);
  await page.click('.pred-choice[data-predicate="{main::n == 0}"]');
  await page.locator('#lattice-body[data-predicate="{main::n == 0}"]').waitFor();
  const lattice = await texts(page, '#lattice-body code');
  for (const t of lattice) assert.doesNotMatch(t, LOWERED, t);
  assert.match(await page.locator('#assigned').textContent(), /^\{main::n == 0\} := /);
  assert.deepEqual(await seriousViolations(page, '#explain-lattice'), []);
  await screenshots(page, 'explain-names-lattice', '#explain-lattice');

  await openTab(page, 'wp');
  await page.locator('#wp-view').waitFor();
  const wp = await texts(page, '#wp-view code, #wp-view li');
  for (const t of wp) assert.doesNotMatch(t, LOWERED, t);
  assert.ok(wp.some((t) => t.includes('{main::n == 0}')), wp.join(' | '));
  await screenshots(page, 'explain-names-wp', '#explain-wp');

  await openTab(page, 'solver');
  await chooseStatement(page, 'assume(r == 5 && main::n == 0);');
  await page.locator('#solver-log').waitFor({ timeout: 60000 });
  const queries = await texts(page, '#solver-log .query-text');
  assert.ok(queries.length > 2, `${queries.length} queries`);
  for (const q of queries) assert.doesNotMatch(q, LOWERED, q);
  assert.ok(queries.some((q) => /\bmain::n\b|\bf::n\b/.test(q)), queries.join(' | '));
  await screenshots(page, 'explain-names-solver', '#explain-solver');

  // an input read, in the statement list as the trace shows it
  await page.fill('#source', INPUT);
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await page.locator('.timeline-entry').last().locator('.entry-button').click();
  await openTab(page, 'wp');
  await page.locator('#explain-statement').waitFor({ timeout: 60000 });
  const inputs = await texts(page, '#explain-statement option');
  assert.ok(inputs.some((s) => s.includes('x = nondet (line 4);')), inputs.join(' | '));
  for (const s of inputs) assert.doesNotMatch(s, / = \*;/, s);
  assert.deepEqual(errors, []);
  await page.close();
});

test("NEWTON's table and the refinement sentence in the source terms", async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.fill('#source', COUNTING);
  await setOption(page, '#opt-techniques', 'cegar');
  await setOption(page, '#opt-refinement', 'sp');
  assert.equal(await runToVerdict(page), 'SAFE');
  await page.locator('.timeline-entry').first().locator('.entry-button').click();
  await openTab(page, 'trace');
  await page.locator('#feasibility-table').waitFor();
  const heads = await texts(page, '#feasibility-table th');
  assert.ok(heads.some((h) => h.includes('Ω')) && heads.some((h) => h.includes('Φ')), heads.join(' | '));
  const conditions = await texts(page, '#feasibility-table .cond');
  for (const c of conditions) assert.doesNotMatch(c, /_main\b|_f\b|_return\b/, c);
  assert.ok(conditions.some((c) => c.startsWith('main::i ↦ ')), conditions.join(' | '));
  const sentence = await page.locator('#refinement-why').textContent();
  assert.match(sentence, /refinement adds \{main::i/);
  assert.doesNotMatch(sentence, /i_main/);
  assert.deepEqual(errors, []);
  await page.close();
});
