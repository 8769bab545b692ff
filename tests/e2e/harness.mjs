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

/**
 * Serves DIST on an ephemeral port of 127.0.0.1; resolves to { base, close, served }.
 * Options: `dir` (another build folder), `prefix` (serve the folder at a sub-path such as
 * '/courses/verif/predabs/'; everything outside it is 404), `precompressed` (send FILE.br or
 * FILE.gz when the browser accepts it and the file exists, like nginx's gzip_static), `cache`
 * (the cache-control header; 'no-store' by default), `throttle` ({ bytesPerSecond, latencyMs }:
 * one shared link, for load-time benchmarks). `served` lists every request as
 * { path, status, bytes } and `close()` also drops open connections (the server is gone, as offline).
 */
export async function serveDist({ dir = DIST, prefix = '/', precompressed = false, cache = 'no-store', throttle = null } = {}) {
  const root = path.resolve(dir);
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    throw new Error(`no build in ${root}: run scripts/test.sh (or trunk build) first`);
  }
  const served = [];
  const link = { free: 0 };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const finish = (status, bytes = 0) => { served.push({ path: url.pathname, status, bytes }); };
    if (!url.pathname.startsWith(prefix)) {
      finish(404);
      res.writeHead(404).end();
      return;
    }
    const inner = url.pathname.slice(prefix.length);
    const rel = inner === '' ? 'index.html' : decodeURIComponent(inner).replace(/^\/+/, '');
    const file = path.resolve(root, rel);
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      finish(404);
      res.writeHead(404).end();
      return;
    }
    const headers = { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': cache };
    let body = file;
    if (precompressed) {
      const accepts = String(req.headers['accept-encoding'] ?? '');
      for (const [encoding, ext] of [['br', '.br'], ['gzip', '.gz']]) {
        if (accepts.includes(encoding) && fs.existsSync(file + ext)) {
          body = file + ext;
          headers['content-encoding'] = encoding;
          headers.vary = 'accept-encoding';
          break;
        }
      }
    }
    const stat = fs.statSync(body);
    headers.etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    if (req.headers['if-none-match'] === headers.etag) {
      finish(304);
      res.writeHead(304, { etag: headers.etag, 'cache-control': cache }).end();
      return;
    }
    headers['content-length'] = stat.size;
    finish(200, headers['content-length']);
    res.writeHead(200, headers);
    if (throttle) sendThrottled(fs.readFileSync(body), res, throttle, link);
    else fs.createReadStream(body).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}${prefix}`,
    served,
    close: () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections?.(); }),
  };
}

/** Writes `data` in 16 KiB chunks as if through one link of `bytesPerSecond` shared by all responses. */
function sendThrottled(data, res, { bytesPerSecond, latencyMs = 0 }, link) {
  let offset = 0;
  const next = () => {
    if (offset >= data.length) { res.end(); return; }
    const chunk = data.subarray(offset, offset + 16384);
    offset += chunk.length;
    link.free = Math.max(link.free, Date.now()) + (chunk.length / bytesPerSecond) * 1000;
    setTimeout(() => { res.write(chunk); next(); }, Math.max(0, link.free - Date.now()));
  };
  setTimeout(next, latencyMs);
}

/**
 * A persistent Chromium context with a fresh user-data-dir; `close()` removes the profile.
 * `deviceScaleFactor: 2` with half the viewport is what 200 % browser zoom looks like to the page;
 * `initScript` runs before the page's own scripts (e.g. to remove the clipboard API).
 */
export async function launch({ colorScheme = 'light', viewport = VIEWPORT, deviceScaleFactor = 1, initScript = null, permissions = [] } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'predabs-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    deviceScaleFactor,
    colorScheme,
    acceptDownloads: true,
    permissions,
  });
  if (initScript) await context.addInitScript(initScript);
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

/** Waits until the worker has reported its version (the wasm engine is up); returns the full string. */
export async function engineVersion(page) {
  await page.waitForFunction(() => /predabs engine/.test(document.querySelector('#engine-version')?.dataset.version ?? ''), null, { timeout: 30000 });
  return page.locator('#engine-version').getAttribute('data-version');
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

/** The axe-core violations of impact "serious" or "critical" on the page, as readable lines. */
export async function seriousViolations(page, context = 'document') {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ path: path.join(here, 'node_modules/axe-core/axe.min.js') });
  }
  const violations = await page.evaluate(async (ctx) => {
    const result = await window.axe.run(ctx === 'document' ? document : document.querySelector(ctx), { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`).join(' | ')}`);
  }, context);
  return violations;
}

/**
 * Every visible control (buttons, fields, links, focusable elements) inside `scope` that cannot be
 * brought into the viewport by scrolling, or is covered or clipped there: their descriptions.
 */
export async function unreachableControls(page, scope = 'body') {
  return page.evaluate((scope) => {
    const selector = 'button, select, input, textarea, a[href], [tabindex]:not([tabindex="-1"]), [role=menuitem], [role=tab]';
    const bad = [];
    for (const el of document.querySelector(scope).querySelectorAll(selector)) {
      if (el.closest('[aria-hidden="true"], .visually-hidden')) continue;
      if (!el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) continue;
      const r0 = el.getBoundingClientRect();
      if (r0.width < 1 || r0.height < 1) continue;
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      // the part of the element left visible by the window and every clipping ancestor
      let r = el.getBoundingClientRect();
      let [left, top, right, bottom] = [Math.max(r.left, 0), Math.max(r.top, 0), Math.min(r.right, innerWidth), Math.min(r.bottom, innerHeight)];
      for (let a = el.parentElement; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top), Math.min(right, c.right), Math.min(bottom, c.bottom)];
      }
      const inView = right - left >= 1 && bottom - top >= 1;
      const [x, y] = [(left + right) / 2, (top + bottom) / 2];
      const hit = inView ? document.elementFromPoint(x, y) : null;
      const reached = hit && (hit === el || el.contains(hit));
      if (!reached) {
        const name = el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
        bad.push(`${name} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" at ${Math.round(r.left)},${Math.round(r.top)} hit ${hit ? hit.tagName + '.' + [...hit.classList].join('.') : 'nothing'}`);
      }
    }
    return bad;
  }, scope);
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

/**
 * When SHOTS_DIR is set, screenshots of the page at 1280×800 and 683×768 (split screen) as
 * SHOTS_DIR/NAME-1280.png and NAME-683.png, with `scrollTo` (a selector) scrolled into view
 * first; the viewport is 1280×800 again afterwards.
 */
export async function screenshots(page, name, scrollTo = null) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  for (const [width, height] of [[1280, 800], [683, 768]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    if (scrollTo) await page.locator(scrollTo).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
  }
  await page.setViewportSize(VIEWPORT);
}
