// Learned inconsistencies in the timeline (issue 30's refinement seam, docs/engine-notes.md):
// a spurious counterexample that gives no new predicate passes through a valuation no C state
// has; the iteration shows the cube it learned for `enforce` and the loop's note, and the next
// iterations go on to SAFE with the textbook loop alone.
//   cd tests/e2e && DIST_DIR=/tmp/<you>-dist node --test learned.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, open, engineVersion, runToVerdict, setOption } from './harness.mjs';

const site = useSite();

const FIVE_LITERALS = [
  'extern int __VERIFIER_nondet_int(void);',
  'extern void reach_error(void);',
  'int main(void) {',
  '  int x = __VERIFIER_nondet_int();',
  '  int y = __VERIFIER_nondet_int();',
  '  if (x < 0 || x > 3 || y < 0 || y > 3) return 0;',
  '  if (x + y > 10) reach_error();',
  '  return 0;',
  '}',
  ''].join('\n');
// 13 related predicates: more than `enforce` enumerates exactly while cones are bounded
const THIRTEEN = 'main { x + y > 10, x >= 0, x <= 3, y >= 0, y <= 3, x == 0, x == 1, x == 2, y == 0, y == 1, y == 2, x < y, x == y }';

test('an iteration without new predicates shows the cubes it learned for enforce', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.selectOption('#mode', 'check');
  await page.fill('#source', FIVE_LITERALS);
  await page.fill('#predicates', THIRTEEN);
  await setOption(page, '#opt-techniques', 'cegar');
  assert.equal(await runToVerdict(page), 'SAFE');
  const entries = page.locator('#timeline .timeline-entry');
  const count = await entries.count();
  assert.ok(count >= 2, `${count} iterations`);
  const first = entries.first();
  await first.click();
  const cubes = page.locator('#iteration-details .learned-cubes li');
  await cubes.first().waitFor();
  for (const text of await cubes.allTextContents()) {
    assert.match(text, /^enforce !\(.+ && .+ && .+\)$/, 'a learned cube has at least three literals');
  }
  assert.match(await page.locator('#iteration-details .loop-notes').first().textContent(), /enforce now excludes them/);
  assert.deepEqual(errors, []);
});
