// Traces for students (issue 31 item 12): the trace view and the verdict speak the source's
// terms — C lines and names (no `inode_main`, `'x = x`, `f_return`), pointers as `&x` /
// `&heap cell N` / NULL, each input with the call and line that read it, symbolic constants
// explained — and an out-of-bounds read on a feasible path is an UNKNOWN with its line:column,
// the inputs that reach it and what to try next.
//   cd tests/e2e && DIST_DIR=/tmp/<you>-dist node --test students.test.mjs
// SHOTS_DIR=dir also writes screenshots at 1280×800 and 683×768.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, loadExample, runToVerdict, openTab, seriousViolations, screenshots, setOption } from './harness.mjs';

const site = useSite();

const INPUTS = [
  'extern int __VERIFIER_nondet_int(void);',
  'extern void reach_error(void);',
  '#include <stdlib.h>',
  'int main(void) {',
  '  int *p = malloc(sizeof(int));',
  '  int *q = 0;',
  '  int a = __VERIFIER_nondet_int();',
  '  int b = __VERIFIER_nondet_int();',
  '  if (p != 0 && q == 0 && a == 5 && b == a + 2) reach_error();',
  '  return 0;',
  '}',
  ''].join('\n');

const OUT_OF_BOUNDS = [
  'extern int __VERIFIER_nondet_int(void);',
  'extern void reach_error(void);',
  'int main(void) {',
  '  int a[4];',
  '  int i = __VERIFIER_nondet_int();',
  '  if (i >= 0) {',
  '    int x = a[i];',
  '    if (i > 5) reach_error();',
  '  }',
  '  return 0;',
  '}',
  ''].join('\n');


async function cegarOnly(page, source) {
  await page.selectOption('#mode', 'check');
  await page.fill('#source', source);
  await page.fill('#predicates', '');
}

test('testdev: the trace shows C lines and source names, pointers as &x, symbolic constants explained', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await openTab(page, 'trace');
  const run = page.locator('#concrete-run');
  await run.waitFor();
  const text = await run.textContent();
  for (const lowered of ['inode_main', 'count_main', '_return', "'inode", 'register_chrdev_return']) {
    assert.ok(!text.includes(lowered), `no lowered name ${lowered} in the concrete run`);
  }
  assert.match(text, /MOD_INC_USE_COUNT;/, 'the C line of each step');
  assert.match(text, /testdev_open::inode=&main::inode/, 'a pointer is what it points to');
  // the feasibility table of the last iteration names symbolic constants and explains them
  const legend = page.locator('#symbolic-constants');
  await legend.waitFor();
  assert.match(await legend.textContent(), /'inode.*the value parameter inode had when testdev_open was called/s);
  const table = await page.locator('#feasibility-table').textContent();
  assert.ok(!/inode_main|_return\b/.test(table), 'the feasibility table is in source names');
  assert.deepEqual(await seriousViolations(page, '#explain-trace'), []);
  await screenshots(page, 'trace-students', '#concrete-run');
  assert.deepEqual(errors, []);
  await page.close();
});

test('inputs are labelled with the call and line that read them; heap cells and NULL', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await cegarOnly(page, INPUTS);
  assert.equal(await runToVerdict(page), 'UNSAFE');
  const inputs = await page.locator('#verdict .inputs li').allTextContents();
  assert.deepEqual(inputs.map((t) => t.replace(/\s+/g, ' ').trim()), [
    '__VERIFIER_nondet_int() at line 7 = 5',
    '__VERIFIER_nondet_int() at line 8 = 7',
  ]);
  // the line is a link to the editor
  await page.locator('#verdict .inputs li').nth(1).locator('button').click();
  await openTab(page, 'trace');
  const values = await page.locator('#concrete-run .concrete-row').allTextContents();
  const test9 = values.find((r) => /p=&heap cell 1/.test(r));
  assert.ok(test9, `a heap pointer is &heap cell 1: ${values.join(' | ')}`);
  assert.ok(values.some((r) => /q=NULL/.test(r)), 'the null pointer is NULL');
  assert.deepEqual(await seriousViolations(page, '#verdict'), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('an out-of-bounds read on a feasible path: UNKNOWN with line:column, the inputs that reach it and a next step', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await cegarOnly(page, OUT_OF_BOUNDS);
  assert.equal(await runToVerdict(page), 'UNKNOWN');
  const verdict = await page.locator('#verdict').textContent();
  assert.match(verdict, /line 7:13/);
  assert.match(verdict, /out of bounds/);
  assert.match(await page.locator('#verdict-runtime-error').textContent(), /line 7:13: a\[i\]/);
  const inputs = await page.locator('#verdict .inputs li').allTextContents();
  assert.equal(inputs.length, 1);
  assert.match(inputs[0], /__VERIFIER_nondet_int\(\)\s*at\s*line 5\s*=\s*\d+/);
  assert.match(await page.locator('#next-step').textContent(), /What to try next: fix the undefined behaviour/);
  // the run to it, in the trace view
  await page.click('#verdict button:has-text("The run in the trace view")');
  await page.locator('#runtime-error').waitFor();
  const rows = page.locator('#concrete-run .concrete-row');
  assert.match(await rows.last().textContent(), /L7.*int x = a\[i\];/);
  assert.deepEqual(await seriousViolations(page, '#explain-trace'), []);
  assert.deepEqual(await seriousViolations(page, '#verdict'), []);
  await screenshots(page, 'trace-out-of-bounds', '#runtime-error');
  await screenshots(page, 'verdict-out-of-bounds', '#verdict');
  assert.deepEqual(errors, []);
  await page.close();
});

test('every UNKNOWN says what to try next: an iteration bound, a C error', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await setOption(page, '#opt-iterations', '1');
  assert.equal(await runToVerdict(page), 'UNKNOWN');
  assert.match(await page.locator('#next-step').textContent(), /What to try next: .+/);
  await page.fill('#source', 'int main(void) { x = ; }');
  assert.equal(await runToVerdict(page), 'UNKNOWN');
  assert.match(await page.locator('#next-step').textContent(), /What to try next: fix the errors/);
  assert.deepEqual(errors, []);
  await page.close();
});
