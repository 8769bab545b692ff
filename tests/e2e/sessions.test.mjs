// Share links, local storage and the clipboard (issue 31, items 3 and 10): the user's program is
// never silently replaced, shared options are validated, and Share works without the clipboard
// API (plain http).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { useSite, launch, open, loadExample } from './harness.mjs';

const site = useSite();

/** A share link for `session` (the app's format: `#v1,` + base64url(raw deflate(JSON))). */
function shareLink(base, session) {
  const json = JSON.stringify({ source: '', predicates: '', boolean_program: '', mode: 'Check', selected_iteration: null, example: null, ...session });
  return `${base}#v1,${zlib.deflateRawSync(Buffer.from(json), { level: 9 }).toString('base64url')}`;
}

const saved = (page, text) => page.waitForFunction((t) => (localStorage.getItem('predabs.session.v1') ?? '').includes(t), text);

const SHARED = 'int main(void) {\n  int shared_version = 0;\n  return 0;\n}\n';

test('after opening a share link and editing, a reload keeps the edits; the shared version is one click away', async () => {
  const b = await launch();
  try {
    const link = shareLink(site.server.base, { source: SHARED });
    const { page, errors } = await open(b.context, link);
    assert.equal(await page.locator('#source').inputValue(), SHARED);
    assert.match(await page.locator('#notice').textContent(), /Opened a shared session/);
    const edited = SHARED.replace('shared_version = 0', 'shared_version = 1; /* my edit */');
    await page.fill('#source', edited);
    await saved(page, 'my edit');
    await page.reload();
    await page.locator('h1').waitFor();
    assert.equal(page.url(), link, 'the address still carries the link');
    assert.equal(await page.locator('#source').inputValue(), edited, 'the edits survive the reload');
    assert.match(await page.locator('#notice').textContent(), /Restored your edits/);
    // the shared version, and back
    assert.equal(await page.locator('#notice-action').textContent(), 'Open the shared version');
    await page.click('#notice-action');
    assert.equal(await page.locator('#source').inputValue(), SHARED);
    await page.click('#notice-action');
    assert.equal(await page.locator('#source').inputValue(), edited);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('opening a share link keeps the program that was there before (restorable)', async () => {
  const b = await launch();
  try {
    const { page, errors } = await open(b.context, site.server.base);
    const mine = 'int main(void) {\n  int my_own_work = 7;\n  return 0;\n}\n';
    await page.fill('#source', mine);
    await saved(page, 'my_own_work');
    await page.goto(shareLink(site.server.base, { source: SHARED }));
    await page.locator('h1').waitFor();
    assert.equal(await page.locator('#source').inputValue(), SHARED);
    assert.match(await page.locator('#notice').textContent(), /Your previous program is kept/);
    assert.ok((await page.evaluate(() => localStorage.getItem('predabs.backup.v1'))).includes('my_own_work'));
    await page.click('#notice-action');
    assert.equal(await page.locator('#source').inputValue(), mine);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('after Share, later edits survive a reload of the shared address', async () => {
  const b = await launch();
  try {
    const { page, errors } = await open(b.context, site.server.base);
    await page.fill('#source', SHARED);
    await page.click('#share');
    await page.locator('#share-dialog').waitFor();
    await page.keyboard.press('Escape');
    const edited = `${SHARED}/* edited after sharing */\n`;
    await page.fill('#source', edited);
    await saved(page, 'edited after sharing');
    await page.reload();
    await page.locator('h1').waitFor();
    assert.equal(await page.locator('#source').inputValue(), edited);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('shared options out of range are rejected with a notice (int_width 3 is not shown as 64 bits)', async () => {
  const b = await launch();
  try {
    const link = shareLink(site.server.base, { source: SHARED, options: { int_width: 3, max_iterations: 0 } });
    const { page, errors } = await open(b.context, link);
    const notice = await page.locator('#notice').textContent();
    assert.match(notice, /integer width 3/);
    assert.match(notice, /max iterations 0/);
    await page.click('#settings-button');
    assert.equal(await page.locator('#opt-width').inputValue(), '0');
    assert.equal(await page.locator('#opt-width option:checked').textContent(), "C's own widths");
    assert.equal(await page.locator('#opt-iterations').inputValue(), '100');
    await page.keyboard.press('Escape');
    // a link to an iteration the run does not have says so
    await loadExample(page, 'lock');
    const lock = await page.locator('#source').inputValue();
    const far = shareLink(site.server.base, { source: lock, selected_iteration: 9 });
    const { page: other } = await open(b.context, far);
    await other.locator('#verdict').waitFor({ timeout: 60000 });
    assert.match(await other.locator('#notice').textContent(), /asked for iteration 9/);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('Share copies the link where the clipboard API exists', async () => {
  const b = await launch({ permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    const { page, errors } = await open(b.context, site.server.base);
    await page.click('#share');
    await page.locator('#share-status', { hasText: /copied/ }).waitFor();
    const link = await page.locator('#share-link').inputValue();
    assert.equal(link, page.url());
    assert.match(link, /#v1,[A-Za-z0-9_-]+$/);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('Share without the clipboard API (plain http): no error, the link is shown selected, the user is told', async () => {
  // over plain http on another host navigator.clipboard is undefined; simulate that here
  const b = await launch({ initScript: () => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true }) });
  try {
    const { page, errors } = await open(b.context, site.server.base);
    assert.equal(await page.evaluate(() => navigator.clipboard), undefined);
    await page.click('#share');
    await page.locator('#share-dialog').waitFor();
    const link = await page.locator('#share-link').inputValue();
    assert.equal(link, page.url());
    // the field has the focus and the whole link is selected, ready for Ctrl+C
    assert.equal(await page.evaluate(() => document.activeElement.id), 'share-link');
    assert.deepEqual(await page.locator('#share-link').evaluate((e) => [e.selectionStart, e.selectionEnd]), [0, link.length]);
    // execCommand("copy") either worked or the user is told to copy by hand
    assert.match(await page.locator('#share-status').textContent(), /Link copied|copy it with Ctrl\+C/);
    assert.deepEqual(errors, []);
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#share-dialog').count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'share');
  } finally {
    await b.close();
  }
});
