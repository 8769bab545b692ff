// The built site as a course would host it (issue 32): served from a sub-path of a plain static
// server, cached by its service worker so that a second visit works without network, and
// offering a newer version when the folder on the server is replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { DIST, serveDist, launch, open, engineVersion, loadExample, runToVerdict } from './harness.mjs';

const PREFIX = '/courses/verif/predabs/';

/** A copy of the build in a temporary folder (tests that change files on the server). */
function copyOfDist() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'predabs-site-'));
  fs.cpSync(DIST, dir, { recursive: true });
  return dir;
}

test('from a sub-path: every request stays under it, the engine starts, nothing is missing', async () => {
  const server = await serveDist({ prefix: PREFIX });
  const browser = await launch();
  try {
    const { page, errors } = await open(browser.context, server.base);
    assert.match(await engineVersion(page), /^predabs engine /);
    const outside = server.served.filter((r) => !r.path.startsWith(PREFIX) && r.path !== '/favicon.ico');
    assert.deepEqual(outside, [], 'requests outside the site folder');
    assert.deepEqual(server.served.filter((r) => r.status !== 200), [], 'requests that failed');
    for (const file of ['worker_loader.js', 'worker.js', 'worker_bg.wasm', 'sw.js']) {
      assert.ok(server.served.some((r) => r.path === PREFIX + file), `${file} was loaded from the folder`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('second visit without network: the app and the engine come from the cache and testdev runs', async () => {
  const server = await serveDist({ prefix: PREFIX, precompressed: true });
  const browser = await launch();
  try {
    const first = await open(browser.context, server.base);
    await engineVersion(first.page);
    const cached = await first.page.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.ready;
      if (registration.active?.state !== 'activated') return false;
      const names = (await caches.keys()).filter((n) => n.startsWith('predabs-'));
      if (names.length !== 1) return false;
      const keys = (await (await caches.open(names[0])).keys()).map((r) => new URL(r.url).pathname);
      return keys.length > 0 ? keys : false;
    }, null, { timeout: 30000 }).then((h) => h.jsonValue());
    for (const file of ['index.html', 'worker_loader.js', 'worker.js', 'worker_bg.wasm']) {
      assert.ok(cached.includes(PREFIX + file), `${file} is cached (cache: ${cached.join(', ')})`);
    }
    assert.ok(cached.some((p) => /app-[0-9a-f]+_bg\.wasm$/.test(p)), 'the UI wasm is cached');
    assert.deepEqual(first.errors, []);
    await first.page.close();

    // no network at all: the server is gone and the browser is offline
    await server.close();
    await browser.context.setOffline(true);
    const servedBefore = server.served.length;
    const second = await open(browser.context, server.base);
    const cdp = await browser.context.newCDPSession(second.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    assert.equal(await second.page.evaluate(() => navigator.onLine), false);
    assert.match(await engineVersion(second.page), /^predabs engine /);
    await loadExample(second.page, 'testdev');
    assert.equal(await runToVerdict(second.page), 'UNSAFE');
    assert.equal(server.served.length, servedBefore, 'nothing reached the (closed) server');
    assert.deepEqual(second.errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a new build on the server: the page offers it, and Reload switches to it', async () => {
  const dir = copyOfDist();
  const server = await serveDist({ dir, prefix: PREFIX });
  const browser = await launch();
  try {
    const { page } = await open(browser.context, server.base);
    await engineVersion(page);
    const before = await page.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.state === 'activated' && navigator.serviceWorker.controller ? (await caches.keys()).join() : false;
    }, null, { timeout: 30000 }).then((h) => h.jsonValue());
    assert.equal(await page.locator('#update-banner').count(), 0, 'no banner while nothing changed');

    // "deploy" a new version: the post-build hook gives every build its own version in sw.js
    const sw = path.join(dir, 'sw.js');
    const text = fs.readFileSync(sw, 'utf8');
    assert.match(text, /^const BUILD = \{"version": "[0-9a-f]{16}"/m, 'the post-build hook wrote the version');
    fs.writeFileSync(sw, text.replace(/"version": "[0-9a-f]{16}"/, '"version": "0123456789abcdef"'));

    await page.reload();
    await page.locator('#update-banner').waitFor({ timeout: 30000 });
    assert.match(await page.locator('#update-banner').textContent(), /newer version/);
    await Promise.all([page.waitForEvent('load'), page.click('#update-reload')]);
    await page.locator('h1', { hasText: 'predabs' }).waitFor();
    const after = await page.evaluate(async () => (await caches.keys()).join());
    assert.notEqual(after, before);
    assert.match(after, /predabs-0123456789abcdef/);
    assert.equal(await page.locator('#update-banner').count(), 0);
    await engineVersion(page);
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the boolean program view exports Promela, and the SPIN command shown beside it finds the error of testdev', async () => {
  const server = await serveDist({ prefix: PREFIX });
  const browser = await launch();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'predabs-spin-'));
  try {
    const { page, errors } = await open(browser.context, server.base);
    await loadExample(page, 'testdev');
    assert.equal(await runToVerdict(page), 'UNSAFE');
    await page.locator('#download-promela').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-promela')]);
    const file = download.suggestedFilename();
    assert.match(file, /^iteration-\d+\.pml$/);
    await download.saveAs(path.join(dir, file));
    const command = (await page.locator('#spin-command').textContent()).trim();
    assert.equal(command, `spin -a ${file} && gcc -O2 -DSAFETY -o pan pan.c && ./pan -E`);
    // the command as shown, in a shell: the abstract error path of an UNSAFE verdict is reachable
    const out = execFileSync('bash', ['-c', command + ' || true'], { cwd: dir, encoding: 'utf8' });
    assert.match(out, /assertion violated/, out);
    assert.match(out, /errors: [1-9]/, out);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
