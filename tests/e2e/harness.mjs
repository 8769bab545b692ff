// Shared harness for the browser tests: a static server for the built site (web/dist) on
// 127.0.0.1 and Debian's headless Chromium driven by playwright-core, each browser context
// with a fresh profile directory.
import { before, after } from 'node:test';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DIST = path.resolve(process.env.DIST_DIR ?? path.join(here, '../../web/dist'));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const VIEWPORT = { width: 1280, height: 800 };
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
};
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Serves DIST on an ephemeral port of 127.0.0.1; resolves to { base, close }. */
export async function serveDist() {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    throw new Error(`no build in ${DIST}: run scripts/test.sh (or trunk build) first`);
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = path.resolve(DIST, rel);
    if (!file.startsWith(DIST + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A persistent Chromium context with a fresh user-data-dir; `close()` removes the profile. */
export async function launch({ colorScheme = 'light', viewport = VIEWPORT } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'predabs-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    colorScheme,
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens `url` in a new page, collecting page errors and console errors. */
export async function open(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.locator('h1', { hasText: 'predabs' }).waitFor({ timeout: 20000 });
  return { page, errors };
}

/** Waits until the worker has reported its version (the wasm engine is up). */
export async function engineVersion(page) {
  const locator = page.locator('#engine-version');
  await page.waitForFunction(() => /predabs engine/.test(document.querySelector('#engine-version')?.textContent ?? ''), null, { timeout: 30000 });
  return locator.textContent();
}

/** Opens a gallery example from the Examples menu. */
export async function loadExample(page, id) {
  await page.click('#examples-button');
  await page.click(`[data-example="${id}"]`);
}

/** Picks a setting in the settings dialog (a select or a number input) and closes it. */
export async function setOption(page, selector, value) {
  await page.click('#settings-button');
  if (await page.locator(`select${selector}`).count()) {
    await page.selectOption(selector, value);
  } else {
    await page.fill(selector, value);
    await page.locator(selector).dispatchEvent('change');
  }
  await page.keyboard.press('Escape');
}

/** Clicks Run and waits for the verdict; returns its label. */
export async function runToVerdict(page, timeout = 120000) {
  await page.click('#run');
  await page.locator('#verdict').waitFor({ timeout });
  return (await page.locator('#verdict .verdict-label').textContent()).trim();
}

/** Opens an explain tab (trace, lattice, wp, invariants, solver, notes) unless it is open. */
export async function openTab(page, key) {
  if ((await page.locator(`#tab-${key}`).getAttribute('aria-selected')) !== 'true') {
    await page.click(`#tab-${key}`);
  }
  await page.locator(`#explain-${key}`).waitFor();
}

/** Chooses the explained statement by its C text in the statement picker. */
export async function chooseStatement(page, cText) {
  const value = await page.locator('#explain-statement option', { hasText: cText }).first().getAttribute('value');
  await page.selectOption('#explain-statement', value);
}

/**
 * Serves web/dist and launches Chromium once for a test file (node:test `before`/`after`
 * hooks); the returned object's `server` and `browser` are set before the first test runs.
 */
export function useSite() {
  const site = { server: null, browser: null };
  before(async () => {
    site.server = await serveDist();
    site.browser = await launch();
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}
