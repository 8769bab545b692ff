// End-to-end tests of the built playground (web/dist) in headless Chromium:
// `node --test` in tests/e2e (scripts/test.sh runs it after `trunk build`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, launch, open, engineVersion, loadExample, runToVerdict } from './harness.mjs';

const site = useSite();

test('the engine worker reports a version only the running wasm can compute', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  const version = await engineVersion(page);
  assert.match(version, /^predabs engine \d+\.\d+\.\d+ \(wasm32; c-ir: 1 procedure, 2 statements, \d+ bytes printed\)$/);
  // the footer shows the version number only (the full string is the tooltip)
  assert.match(await page.locator('#engine-version').textContent(), /^predabs engine \d+\.\d+\.\d+$/);
  assert.match(await page.locator('.worker').textContent(), /engine ready/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the shell shows the product name, the C editor and the panes', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  assert.equal(await page.locator('h1').textContent(), 'predabs');
  assert.ok((await page.locator('#source').inputValue()).length > 0);
  for (const name of ['C program', 'Boolean program', 'Predicates', 'Iterations']) {
    assert.equal(await page.getByRole('region', { name }).count(), 1, `pane ${name}`);
  }
  for (const id of ['#examples-button', '#run', '#step', '#reset', '#share', '#settings-button']) {
    assert.ok(await page.locator(id).isVisible(), id);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('the source survives a reload (local storage)', async () => {
  const { page } = await open(site.browser.context, site.server.base);
  const text = 'int main(void) {\n  int survives_reload = 1;\n  return 0;\n}\n';
  await page.fill('#source', text);
  // the save runs in an effect after the render
  await page.waitForFunction(() => (localStorage.getItem('predabs.session.v1') ?? '').includes('survives_reload'));
  await page.reload();
  await page.locator('h1').waitFor();
  assert.equal(await page.locator('#source').inputValue(), text);
  // colouring overlay and gutter follow the text
  assert.equal(await page.locator('.gutter-line').count(), 5);
  assert.equal(await page.locator('.code-line').nth(1).textContent(), '  int survives_reload = 1;\u200b');
  await page.close();
});

test('Run (Ctrl+Enter) goes to the worker and always comes back with an answer', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.click('#reset');
  await page.locator('#source').focus();
  await page.keyboard.press('Control+Enter');
  await page.locator('#verdict, #run-error').first().waitFor({ timeout: 30000 });
  assert.equal(await page.locator('#run').isDisabled(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('examples menu loads a program', async () => {
  const { page } = await open(site.browser.context, site.server.base);
  await page.click('#examples-button');
  await page.click('[data-example="partition"]');
  assert.ok((await page.locator('#source').inputValue()).includes('list partition(list *l, int v)'));
  assert.equal(await page.locator('#example-chip').textContent(), 'partition');
  assert.ok((await page.locator('#predicates').inputValue()).includes('curr == NULL'));
  assert.equal(await page.locator('#examples-menu').count(), 0);
  assert.equal(await page.locator('#mode').inputValue(), 'abstract');
  await page.close();
});

test('partition (engine run): SAFE, boolean program linked to C lines both ways', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'partition');
  assert.equal(await runToVerdict(page), 'SAFE');
  assert.equal(await page.locator('.timeline-entry').count(), 1);
  assert.equal(await page.locator('#iteration-position').textContent(), '1 / 1');
  assert.match(await page.locator('.pane-bp h2').textContent(), /iteration 1/);

  // the C line of `prev = NULL;` and a boolean line produced from it
  const source = await page.locator('#source').inputValue();
  const cLine = String(source.split('\n').findIndex((l) => l.includes('prev = NULL;')) + 1);
  const bpLine = page.locator(`.bp-line[data-c-line="${cLine}"]`).first();
  assert.match(await bpLine.textContent(), /prev == NULL/);

  // hover the boolean line -> its C line lights up
  await bpLine.hover();
  assert.deepEqual(await page.locator('.gutter-line.lit').evaluateAll((els) => els.map((e) => e.dataset.line)), [cLine]);
  assert.match(await page.locator(`.code-line[data-line="${cLine}"]`).textContent(), /prev = NULL;/);

  // hover the C line -> the boolean lines it produced light up
  const box = await page.locator(`.code-line[data-line="${cLine}"]`).boundingBox();
  await page.mouse.move(box.x + 40, box.y + box.height / 2);
  const lit = await page.locator('.bp-line.lit').evaluateAll((els) => els.map((e) => e.dataset.cLine));
  assert.ok(lit.length >= 1 && lit.every((l) => l === cLine), JSON.stringify(lit));
  assert.deepEqual(errors, []);
  await page.close();
});

test('testdev: run to UNSAFE with its trace, step back to iteration 1, hover-link a boolean line', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await page.click('#run');
  await page.locator('#verdict').waitFor({ timeout: 120000 });
  assert.equal(await page.locator('#verdict .verdict-label').textContent(), 'UNSAFE');
  assert.ok(await page.locator('#verdict .trace-step').count() >= 1, 'UNSAFE verdict shows the C trace');
  const n = await page.locator('.timeline-entry').count();
  assert.ok(n >= 1);
  assert.equal(await page.locator('#iteration-position').textContent(), `${n} / ${n}`);

  await page.locator('.timeline-entry').first().click();
  assert.equal(await page.locator('#iteration-position').textContent(), `1 / ${n}`);
  assert.match(await page.locator('.pane-bp h2').textContent(), /iteration 1/);
  assert.ok(await page.locator('#boolean-program .bp-line').count() > 3);
  // Alt+. steps forward, Alt+, back; ] and [ too outside text fields
  await page.keyboard.press('Alt+Period');
  assert.equal(await page.locator('#iteration-position').textContent(), `2 / ${n}`);
  await page.keyboard.press('Alt+Comma');
  assert.equal(await page.locator('#iteration-position').textContent(), `1 / ${n}`);
  await page.locator('#step-back').focus();
  await page.keyboard.press(']');
  assert.equal(await page.locator('#iteration-position').textContent(), `2 / ${n}`);
  await page.keyboard.press('[');
  assert.equal(await page.locator('#iteration-position').textContent(), `1 / ${n}`);

  const linked = page.locator('#boolean-program .bp-line[data-c-line]').nth(2);
  const cLine = await linked.getAttribute('data-c-line');
  await linked.hover();
  assert.deepEqual(await page.locator('.gutter-line.lit').evaluateAll((els) => els.map((e) => e.dataset.line)), [cLine]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a SLAM-style boolean program (constrain, SLIC_ERROR) model-checks to UNSAFE at its error label', async () => {
  // a browser of its own: the mode is part of the stored session the other tests share
  const fresh = await launch();
  try {
    const { page, errors } = await open(fresh.context, site.server.base);
    await engineVersion(page);
    await page.selectOption('#mode', 'bp');
    await page.fill('#source', [
      'decl g;',
      'void main()',
      'begin',
      '  decl t;',
      '  t := T;',
      'L1: L2: if (?) then',
      "    t := ? constrain ('t != t);",
      '    goto L1;',
      '  fi',
      '  if (!t) then',
      'SLIC_ERROR: skip;',
      '  fi',
      'end',
      '',
    ].join('\n'));
    assert.equal(await runToVerdict(page), 'UNSAFE');
    assert.match(await page.locator('#verdict').textContent(), /the error label `SLIC_ERROR` is reachable/);
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});

test('boolean program mode: a parse error shows line, column and message in the boolean program pane, never on a C line', async () => {
  const fresh = await launch();
  try {
    const { page, errors } = await open(fresh.context, site.server.base);
    await engineVersion(page);
    await page.selectOption('#mode', 'bp');
    await page.fill('#source', 'void main()\nbegin\n  decl x;\n  x := ;\nend\n');
    assert.equal(await runToVerdict(page), 'UNKNOWN');
    const pane = page.locator('.pane-bp #bp-diagnostics');
    await pane.waitFor();
    assert.match(await pane.textContent(), /line 4, column \d+: \S/);
    assert.equal(await page.locator('.pane-bp .bp-error').first().getAttribute('data-line'), '4');
    assert.match(await page.locator('#verdict-errors').textContent(), /^line 4, column \d+: \S/);
    // in the editor of the boolean program: gutter mark and the list with line:column
    assert.deepEqual(await page.locator('.gutter-line.diag-error').evaluateAll((els) => els.map((e) => e.dataset.line)), ['4']);
    assert.match(await page.locator('#diagnostics').textContent(), /^4:\d+error/);
    // back to Check: the C program shows no trace of the boolean program's error
    await page.selectOption('#mode', 'check');
    assert.equal(await page.locator('.gutter-line.diag-error').count(), 0);
    assert.equal(await page.locator('#diagnostics').count(), 0);
    assert.equal(await page.locator('#bp-diagnostics').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});

test('a syntax error shows as a diagnostic at its line', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.fill('#source', 'int main(void) {\n  int x = 1;\n  x = x + ;\n  return 0;\n}\n');
  await page.click('#run');
  await page.locator('#diagnostics').waitFor({ timeout: 30000 });
  assert.equal(await page.locator('.gutter-line.diag-error').getAttribute('data-line'), '3');
  assert.match(await page.locator('#diagnostics').textContent(), /^3:\d+error/);
  assert.ok(await page.locator('.code-line[data-line="3"] .squiggle').count() >= 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test('cancel stops a long run and the page stays responsive', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  // a sum of squares: no affine or zone candidate proves it, so the loop runs to its budget
  // (a plain counter loop is proved within a few iterations, racing the click on Cancel)
  await page.fill('#source', [
    'extern unsigned int __VERIFIER_nondet_uint(void);',
    'void reach_error(void);',
    'int main(void) {',
    '  unsigned int n = __VERIFIER_nondet_uint();',
    '  unsigned int i = 0, s = 0;',
    '  while (i < n) { i++; s = s + i * i; }',
    '  if (i > 0 && s == 0) reach_error();',
    '  return 0;',
    '}',
    ''].join('\n'));
  await page.selectOption('#mode', 'check');
  await page.click('#settings-button');
  await page.fill('#opt-iterations', '1000');
  await page.fill('#opt-time', '3600');
  await page.keyboard.press('Escape');
  await page.click('#run');
  await page.locator('#cancel').waitFor();
  await page.waitForFunction(() => /Iteration [1-9]/.test(document.querySelector('#run-progress')?.textContent ?? ''), null, { timeout: 60000 });
  await page.click('#cancel');
  await page.locator('#run-cancelled').waitFor({ timeout: 5000 });
  assert.equal(await page.locator('#run').isDisabled(), false);
  // the UI thread is free: typing updates the gutter at once
  await page.fill('#source', 'int main(void) {\n  return 0;\n}\n');
  assert.equal(await page.locator('.gutter-line').count(), 4);
  // a fresh worker answers
  await page.locator('.worker-ready').waitFor({ timeout: 30000 });
  await page.click('#run');
  await page.locator('#verdict, #run-error').first().waitFor({ timeout: 60000 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a share link re-opens the same state, re-run to the selected iteration', async () => {
  const { page } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await page.click('#run');
  await page.locator('#verdict').waitFor({ timeout: 120000 });
  const n = await page.locator('.timeline-entry').count();
  await page.locator('.timeline-entry').first().click();
  await page.click('#share');
  const url = page.url();
  const source = await page.locator('#source').inputValue();
  await page.close();

  const fresh = await launch();
  try {
    const { page: other, errors } = await open(fresh.context, url);
    assert.equal(await other.locator('#source').inputValue(), source);
    await other.locator('#verdict').waitFor({ timeout: 120000 });
    assert.equal(await other.locator('#iteration-position').textContent(), `1 / ${n}`);
    assert.match(await other.locator('.pane-bp h2').textContent(), /iteration 1/);
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});

test('a share link restores the session in a fresh browser', async () => {
  const { page } = await open(site.browser.context, site.server.base);
  const text = 'int shared_program(void) { return 42; }\n';
  await page.fill('#source', text);
  await page.fill('#predicates', 'shared_program { 1 == 1 }');
  await page.click('#settings-button');
  await page.selectOption('#opt-width', '16');
  await page.keyboard.press('Escape');
  await page.click('#share');
  await page.locator('#share-dialog').waitFor();
  const url = page.url();
  assert.equal(await page.locator('#share-link').inputValue(), url);
  assert.match(url, /#v1,[A-Za-z0-9_-]+$/);
  await page.close();

  const fresh = await launch();
  try {
    const { page: other, errors } = await open(fresh.context, url);
    assert.equal(await other.locator('#source').inputValue(), text);
    assert.equal(await other.locator('#predicates').inputValue(), 'shared_program { 1 == 1 }');
    await other.click('#settings-button');
    assert.equal(await other.locator('#opt-width').inputValue(), '16');
    assert.match(await other.locator('#notice').textContent(), /Opened a shared session/);
    assert.deepEqual(errors, []);
  } finally {
    await fresh.close();
  }
});

test('a broken share link shows a clear message and the page stays usable', async () => {
  const { page, errors } = await open(site.browser.context, `${site.server.base}#v1,eJzLSM3JyQcABiwCFQ`);
  assert.match(await page.locator('#notice').textContent(), /truncated or damaged/);
  const { page: junk } = await open(site.browser.context, `${site.server.base}#v1,<img src=x onerror=alert(1)>`);
  assert.match(await junk.locator('#notice').textContent(), /share link/);
  assert.equal(await junk.locator('img').count(), 0);
  await page.fill('#source', 'int main(void) { return 0; }\n');
  assert.equal(await page.locator('.gutter-line').count(), 2);
  await page.click('#notice .notice-close');
  assert.equal(await page.locator('#notice').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
  await junk.close();
});

test('time to first interactive paint (median of 5)', async () => {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const page = await site.browser.context.newPage();
    const t0 = Date.now();
    await page.goto(site.server.base);
    await page.locator('#run:not([disabled])').waitFor();
    times.push(Date.now() - t0);
    await page.close();
  }
  times.sort((a, b) => a - b);
  console.log(`# navigation to interactive (ms): ${times.join(', ')}; median ${times[2]}`);
  assert.ok(times[2] < 10000);
});
