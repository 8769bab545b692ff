// Layout and display tests (issue 31, items 5 and 13): every control reachable from 640 px wide
// to 200 % zoom, font size and presenter mode, the embedded view, printing, one download per
// click, and small texts (plurals, footer, font sizes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, launch, open, engineVersion, loadExample, setOption, runToVerdict, openTab, unreachableControls } from './harness.mjs';

const site = useSite();

const SIZES = [
  ['640x720', { width: 640, height: 720 }, 1],
  ['1024x768', { width: 1024, height: 768 }, 1],
  // 200 % browser zoom of a 1280x800 window: 640x400 CSS pixels at device scale 2
  ['200 % zoom of 1280x800', { width: 640, height: 400 }, 2],
];

for (const [name, viewport, deviceScaleFactor] of SIZES) {
  test(`layout at ${name}: no control outside the window that cannot be scrolled to`, async () => {
    const b = await launch({ viewport, deviceScaleFactor });
    try {
      const { page, errors } = await open(b.context, site.server.base);
      await engineVersion(page);
      await loadExample(page, 'testdev');
      assert.equal(await runToVerdict(page), 'UNSAFE');
      await page.locator('.timeline-entry').nth(1).click();
      await openTab(page, 'trace');
      // the page never scrolls sideways; it scrolls down when it must
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1), 'no horizontal page scroll');
      assert.deepEqual(await unreachableControls(page), []);
      for (const id of ['#run', '#step', '#reset', '#share', '#download', '#settings-button', '#examples-button', '#mode', '#verdict', '#predicates']) {
        assert.equal(await page.locator(id).count(), 1, id);
      }
      // popups too
      await page.click('#settings-button');
      await page.locator('#settings').waitFor();
      assert.deepEqual(await unreachableControls(page, '#settings'), []);
      await page.keyboard.press('Escape');
      await page.click('#examples-button');
      assert.deepEqual(await unreachableControls(page, '#examples-menu'), []);
      await page.keyboard.press('Escape');
      await openTab(page, 'notes');
      assert.deepEqual(await unreachableControls(page), []);
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  });
}

for (const [name, viewport, deviceScaleFactor] of SIZES) {
  test(`layout at ${name}: every mode, explain tab, Predict question and the lab panel can be reached`, async () => {
    const b = await launch({ viewport, deviceScaleFactor });
    try {
      const { page, errors } = await open(b.context, site.server.base);
      await engineVersion(page);
      const where = async (label, scope = 'body') => {
        assert.deepEqual((await unreachableControls(page, scope)).map((c) => `[${label}] ${c}`), []);
      };
      // Abstract mode and each explain tab, with Predict's questions in them
      await loadExample(page, 'partition');
      await setOption(page, '#opt-strategy', 'lattice');
      assert.equal(await runToVerdict(page), 'SAFE');
      await page.locator('.bp-line', { hasText: '{prev == NULL}, {prev->val > v} := {curr == NULL}' }).click();
      for (const tab of ['trace', 'lattice', 'wp', 'invariants', 'solver', 'pds']) {
        if ((await page.locator(`#tab-${tab}`).count()) === 0) continue;
        await openTab(page, tab);
        await where(`Abstract, ${tab}`);
      }
      await page.check('#predict');
      await openTab(page, 'lattice');
      await page.click('.pred-choice[data-predicate="{prev == NULL}"]');
      await page.locator('#exercise-cubes').waitFor();
      await where('Predict: cubes');
      await openTab(page, 'invariants');
      await page.locator('#exercise-holds').waitFor();
      await where('Predict: holds at L');
      await page.uncheck('#predict');
      // the lab panel: the teacher view, then a gallery lab in the student view; the panes
      // make room for it (it covered 22 of their controls at 640x720 when docked over them)
      await page.click('#lab-button');
      await page.locator('#lab-teacher').waitFor();
      await where('lab, teacher view');
      await page.click('[data-lab="c2bp-partition"]');
      await page.locator('#lab-student[data-lab="c2bp-partition"]').waitFor();
      await where('lab, student view');
      await page.click('#lab-leave');
      // Hide mode's log
      await loadExample(page, 'hide-appendix');
      await page.click('#hide-closure');
      await page.locator('#iteration-5').waitFor({ timeout: 60000 });
      await where('Hide, log');
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1), 'no horizontal page scroll');
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  });
}

test('font size setting scales the text; hover links still find the right lines', async () => {
  const b = await launch();
  try {
    const { page, errors } = await open(b.context, site.server.base);
    await engineVersion(page);
    await page.click('#settings-button');
    await page.selectOption('#opt-font-size', '150');
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize), '21px');
    await loadExample(page, 'partition');
    assert.equal(await runToVerdict(page), 'SAFE');
    const source = await page.locator('#source').inputValue();
    const cLine = String(source.split('\n').findIndex((l) => l.includes('prev = NULL;')) + 1);
    const line = page.locator(`.code-line[data-line="${cLine}"]`);
    await line.scrollIntoViewIfNeeded();
    const box = await line.boundingBox();
    await page.mouse.move(box.x + 40, box.y + box.height / 2);
    const lit = await page.locator('.bp-line.lit').evaluateAll((els) => els.map((e) => e.dataset.cLine));
    assert.ok(lit.length >= 1 && lit.every((l) => l === cLine), JSON.stringify(lit));
    // kept for the next visit
    await page.reload();
    await page.locator('h1').waitFor();
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize), '21px');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('presenter mode (?present or the setting): large type, high contrast even in the dark scheme', async () => {
  const b = await launch({ colorScheme: 'dark' });
  try {
    const { page, errors } = await open(b.context, `${site.server.base}?present`);
    assert.equal(await page.evaluate(() => document.documentElement.className), 'presenter');
    assert.ok(parseFloat(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)) >= 21);
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');
    assert.equal(await page.evaluate(() => getComputedStyle(document.body).color), 'rgb(0, 0, 0)');
    await page.click('#settings-button');
    assert.equal(await page.locator('#opt-presenter').isChecked(), true);
    await page.locator('#opt-presenter').uncheck();
    assert.equal(await page.evaluate(() => document.documentElement.className), '');
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('embed mode: a read-only compact view of an example that never touches the stored session', async () => {
  const b = await launch({ viewport: { width: 800, height: 500 } });
  try {
    const { page, errors } = await open(b.context, `${site.server.base}?embed&example=partition`);
    assert.equal(await page.locator('.topbar-embed').count(), 1);
    assert.equal(await page.locator('#source').evaluate((e) => e.readOnly), true);
    assert.ok((await page.locator('#source').inputValue()).includes('partition'));
    for (const id of ['#share', '#settings-button', '#examples-button', '#mode', '.footer']) {
      assert.equal(await page.locator(id).count(), 0, id);
    }
    assert.equal(await runToVerdict(page), 'SAFE');
    assert.match(await page.locator('#open-full').getAttribute('href'), /#v1,[A-Za-z0-9_-]+$/);
    assert.equal(await page.evaluate(() => localStorage.getItem('predabs.session.v1')), null);
    assert.deepEqual(await unreachableControls(page), []);
    // a share link embeds too; an unknown example is reported
    const { page: bad } = await open(b.context, `${site.server.base}?embed&example=nope`);
    assert.match(await bad.locator('#notice').textContent(), /no example called "nope"/);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('print stylesheet: no toolbar, nothing clipped', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await runToVerdict(page);
  await openTab(page, 'trace');
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.locator('.toolbar').evaluate((e) => getComputedStyle(e).display), 'none');
  assert.equal(await page.locator('.editor-scroll').evaluate((e) => getComputedStyle(e).overflowY), 'visible');
  // the whole program is laid out (taller than the window)
  const [scroll, lines] = await page.evaluate(() => [document.documentElement.scrollHeight, document.querySelectorAll('.code-line').length]);
  assert.ok(scroll > lines * 12, `${scroll} px for ${lines} lines`);
  await page.emulateMedia({ media: 'screen' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('⤓ starts exactly one download; the boolean program has its own', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await runToVerdict(page);
  const names = [];
  page.on('download', (d) => names.push(d.suggestedFilename()));
  await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  await Promise.all([page.waitForEvent('download'), page.click('#download-bp')]);
  // later downloads would have arrived by the time a round trip through the page completes
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.deepEqual(names, ['program.c', `iteration-${await page.locator('.timeline-entry').count()}.bp`]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('plurals, a plain footer and no text below 12 px', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.fill('#source', 'int main(void) {\n  int x = 0;\n  assert(x == 0);\n  return 0;\n}\n');
  await page.fill('#predicates', 'main { x == 0 }');
  await page.selectOption('#mode', 'abstract');
  await runToVerdict(page);
  assert.match(await page.locator('#predicate-count').textContent(), /: 1 predicate$/);
  assert.match(await page.locator('.timeline-entry').first().textContent(), /1 predicate ·/);
  assert.doesNotMatch(await page.locator('body').textContent(), /\b1 (predicates|steps|iterations|invariants|solver calls)\b/);
  assert.doesNotMatch(await page.locator('.footer').textContent(), /wasm32|c-ir|bytes printed/);
  await openTab(page, 'trace');
  const small = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const el = walker.currentNode.parentElement;
      if (!walker.currentNode.textContent.trim() || !el.checkVisibility() || el.closest('[aria-hidden="true"], .visually-hidden')) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 12) out.push(`${el.tagName}.${el.className}: ${size}px`);
    }
    return out;
  });
  assert.deepEqual(small, []);
  assert.deepEqual(errors, []);
  await page.close();
});
