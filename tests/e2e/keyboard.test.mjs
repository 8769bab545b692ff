// Keyboard and screen-reader tests (issue 31, items 1 and 11): the examples menu, dialogs that
// take and return the focus, focusable timeline entries, boolean lines, trace rows and cubes,
// the live region, the shortcuts overlay and the explain panel's resize bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, launch, open, engineVersion, loadExample, setOption, runToVerdict, openTab } from './harness.mjs';

const site = useSite();

const active = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return a ? (a.id || a.dataset.example || a.dataset.bpLine || a.dataset.step || a.className) : null;
});

for (const [name, viewport, deviceScaleFactor] of [['1280x800', { width: 1280, height: 800 }, 1], ['200 % zoom', { width: 640, height: 400 }, 2]]) {
  test(`examples menu at ${name}: fits the window, scrolls, every example reachable`, async () => {
    const b = await launch({ viewport, deviceScaleFactor });
    try {
      const { page, errors } = await open(b.context, site.server.base);
      await page.click('#examples-button');
      const menu = page.locator('#examples-menu');
      await menu.waitFor();
      const box = await menu.boundingBox();
      assert.ok(box.y + box.height <= viewport.height + 0.5, `menu bottom ${box.y + box.height} > ${viewport.height}`);
      assert.ok(box.x >= 0 && box.x + box.width <= viewport.width + 0.5, `menu x ${box.x}..${box.x + box.width}`);
      const ids = await page.locator('#examples-menu [role=menuitem]').evaluateAll((els) => els.map((e) => e.dataset.example));
      assert.ok(ids.length >= 8, `${ids.length} examples`);
      // the menu scrolls to every item; each is then inside the window and on top
      for (const id of ids) {
        const item = page.locator(`#examples-menu [data-example="${id}"]`);
        await item.scrollIntoViewIfNeeded();
        const r = await item.boundingBox();
        assert.ok(r.y >= 0 && r.y + Math.min(r.height, 20) <= viewport.height, `${id} at ${r.y}`);
        const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-example]')?.dataset.example, [r.x + 10, r.y + Math.min(r.height, 20) / 2]);
        assert.equal(hit, id);
      }
      // the last one can be clicked
      await page.locator(`#examples-menu [data-example="${ids.at(-1)}"]`).click();
      assert.equal(await page.locator('#example-chip').textContent(), ids.at(-1));
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  });
}

test('examples menu: arrow keys, Home/End, Enter and Escape, with the focus managed', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await loadExample(page, 'lock');
  await page.locator('#examples-button').focus();
  await page.keyboard.press('Enter');
  await page.locator('#examples-menu').waitFor();
  assert.equal(await page.locator('#examples-button').getAttribute('aria-expanded'), 'true');
  // the focus is on the open example
  assert.equal(await active(page), 'lock');
  const ids = await page.locator('#examples-menu [role=menuitem]').evaluateAll((els) => els.map((e) => e.dataset.example));
  await page.keyboard.press('Home');
  assert.equal(await active(page), ids[0]);
  await page.keyboard.press('ArrowDown');
  assert.equal(await active(page), ids[1]);
  await page.keyboard.press('End');
  assert.equal(await active(page), ids.at(-1));
  await page.keyboard.press('ArrowUp');
  assert.equal(await active(page), ids.at(-2));
  // Escape closes and gives the focus back to the button
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#examples-menu').count(), 0);
  assert.equal(await active(page), 'examples-button');
  // ArrowDown opens it too; Enter opens the focused example
  await page.keyboard.press('ArrowDown');
  await page.locator('#examples-menu').waitFor();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#examples-menu').count(), 0);
  assert.equal(await page.locator('#example-chip').textContent(), ids[1]);
  assert.equal(await active(page), 'examples-button');
  assert.deepEqual(errors, []);
  await page.close();
});

test('settings dialog takes the focus, Escape closes it and the focus returns', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await page.click('#settings-button');
  await page.locator('#settings').waitFor();
  assert.equal(await active(page), 'opt-width');
  await page.keyboard.press('Tab');
  assert.equal(await active(page), 'opt-strategy');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#settings').count(), 0);
  assert.equal(await active(page), 'settings-button');
  // the close button too
  await page.keyboard.press('Enter');
  await page.locator('#settings').waitFor();
  await page.click('#settings-close');
  assert.equal(await page.locator('#settings').count(), 0);
  assert.equal(await active(page), 'settings-button');
  assert.deepEqual(errors, []);
  await page.close();
});

test('? shows the shortcuts overlay (no F10), which takes the focus and closes with Escape', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await page.locator('#run').focus();
  await page.keyboard.press('?');
  await page.locator('#shortcuts').waitFor();
  assert.equal(await active(page), 'shortcuts-close');
  const text = await page.locator('#shortcuts').textContent();
  assert.match(text, /Ctrl\+Enter/);
  assert.match(text, /Alt\+\./);
  assert.ok(!/F10/.test(text) && !/F10/.test(await page.locator('.footer').textContent()), 'no F10 shortcut');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#shortcuts').count(), 0);
  // typing ? in the editor types it
  await page.locator('#source').focus();
  await page.keyboard.press('End');
  await page.keyboard.press('?');
  assert.equal(await page.locator('#shortcuts').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('testdev by keyboard: timeline entries, boolean lines and trace rows; the live region announces the verdict', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  await page.locator('#source').focus();
  await page.keyboard.press('Control+Enter');
  await page.locator('#verdict').waitFor({ timeout: 120000 });
  const n = await page.locator('.timeline-entry').count();
  assert.match(await page.locator('#announcer').textContent(), new RegExp(`^Verdict: UNSAFE after ${n} iterations?\\.$`));
  assert.equal(await page.locator('#announcer').getAttribute('aria-live'), 'polite');

  // timeline entries are buttons
  await page.locator('.timeline-entry .entry-button').first().focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#iteration-position').textContent(), `1 / ${n}`);
  await page.locator('.timeline-entry .entry-button').nth(1).focus();
  await page.keyboard.press('Space');
  assert.equal(await page.locator('#iteration-position').textContent(), `2 / ${n}`);

  // boolean program lines: one tab stop, arrows move (lighting the C partner), Enter pins
  assert.equal(await page.locator('#boolean-program .bp-line[tabindex="0"]').count(), 1);
  await page.locator('#boolean-program .bp-line[tabindex="0"]').focus();
  const linked = await page.locator('#boolean-program .bp-line[data-c-line]').first().getAttribute('data-bp-line');
  for (let k = 1; k < Number(linked); k++) await page.keyboard.press('ArrowDown');
  assert.equal(await active(page), linked);
  const cLine = await page.locator(`#boolean-program .bp-line[data-bp-line="${linked}"]`).getAttribute('data-c-line');
  assert.deepEqual(await page.locator('.gutter-line.lit').evaluateAll((els) => els.map((e) => e.dataset.line)), [cLine]);
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.locator('.bp-line.focused').evaluateAll((els) => els.map((e) => e.dataset.bpLine)), [linked]);

  // trace rows
  await openTab(page, 'trace');
  await page.locator('#abstract-trace .step-row[tabindex="0"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await active(page), '2');
  await page.keyboard.press('Enter');
  assert.match(await page.locator('#abstract-trace .step-row[data-step="2"]').getAttribute('class'), /selected/);
  // explain tabs: arrows move between tabs
  await page.locator('#tab-trace').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await active(page), 'tab-lattice');
  assert.deepEqual(errors, []);
  await page.close();
});

test('cube lattice by keyboard: a focused cube shows its query on Enter', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'partition');
  await setOption(page, '#opt-strategy', 'lattice');
  assert.equal(await runToVerdict(page), 'SAFE');
  await page.locator('.bp-line', { hasText: '{prev == NULL}, {prev->val > v} := {curr == NULL}' }).click();
  await openTab(page, 'lattice');
  await page.click('.pred-choice[data-predicate="{prev == NULL}"]');
  const cube = page.locator('#lattice-svg .cube[data-outcome="implies"]').first();
  await cube.focus();
  assert.match(await cube.locator('title').textContent(), /^\{curr == NULL\} — /);
  await page.keyboard.press('Enter');
  await page.locator('#cube-query').waitFor();
  assert.match(await page.locator('#cube-query').textContent(), /answer: valid/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the explain panel resizes with the keyboard and the mouse, and keeps its height after a reload', async () => {
  const b = await launch();
  try {
    const { page, errors } = await open(b.context, site.server.base);
    await openTab(page, 'notes');
    const height = () => page.locator('.explain').evaluate((e) => e.getBoundingClientRect().height);
    const h0 = await height();
    await page.locator('#explain-resize').focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    const h1 = await height();
    assert.ok(Math.abs(h1 - (h0 + 64)) <= 2, `${h0} -> ${h1}`);
    const bar = await page.locator('#explain-resize').boundingBox();
    await page.mouse.move(bar.x + bar.width / 2, bar.y + 4);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width / 2, bar.y + 104, { steps: 4 });
    await page.mouse.up();
    const h2 = await height();
    assert.ok(Math.abs(h2 - (h1 - 100)) <= 3, `${h1} -> ${h2}`);
    await page.reload();
    await page.locator('h1').waitFor();
    await openTab(page, 'notes');
    assert.ok(Math.abs((await height()) - h2) <= 3);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});
