// Screenshots of the main views into docs/screenshots/ (run after a build):
//   cd tests/e2e && node screenshots.mjs        (OUT_DIR=... to write elsewhere)
// Each mode (Check, Abstract, Boolean program, Shape) and the embedded view at 1280x800 and at
// 683x768 (half of a 1366x768 screen), then the explain views and dialogs at 1280x800; then
// Hide mode, the teacher view with the gallery labs, both gallery labs in the student view
// (one with its locked settings shown) and the embedded view of a share link, at both sizes.
// ONLY=labs-hide takes only that last part.
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, open, engineVersion, loadExample, setOption, runToVerdict, openTab, chooseStatement } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(process.env.OUT_DIR ?? path.join(here, '../../docs/screenshots'));
fs.mkdirSync(OUT, { recursive: true });

const server = await serveDist();
const shots = [];
async function shot(page, name) {
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  shots.push(file);
}

const ONLY = process.env.ONLY ?? '';
try {
  for (const [w, h] of ONLY ? [] : [[1280, 800], [683, 768]]) {
    const b = await launch({ viewport: { width: w, height: h } });
    try {
      const size = `${w}x${h}`;
      const { page } = await open(b.context, server.base);
      await engineVersion(page);
      await loadExample(page, 'testdev');
      await runToVerdict(page);
      await page.locator('.timeline-entry').nth(1).click();
      await openTab(page, 'trace');
      await page.mouse.move(1, 1);
      await shot(page, `mode-check-testdev-${size}`);
      await loadExample(page, 'partition');
      await setOption(page, '#opt-strategy', 'lattice');
      await runToVerdict(page);
      await page.locator('.bp-line', { hasText: '{prev == NULL}, {prev->val > v} := {curr == NULL}' }).click();
      await openTab(page, 'lattice');
      await page.click('.pred-choice[data-predicate="{prev == NULL}"]');
      await page.mouse.move(1, 1);
      await shot(page, `mode-abstract-partition-${size}`);
      await loadExample(page, 'boolean-program');
      await runToVerdict(page);
      await openTab(page, 'trace');
      await page.mouse.move(1, 1);
      await shot(page, `mode-boolean-program-${size}`);
      await page.fill('#source', 'void main()\nbegin\n  decl x;\n  x := ;\nend\n');
      await runToVerdict(page);
      await shot(page, `mode-boolean-program-error-${size}`);
      const { page: embed } = await open(b.context, `${server.base}?embed&example=partition`);
      await runToVerdict(embed);
      await shot(embed, `embed-partition-${size}`);
      const { page: present } = await open(b.context, `${server.base}?present`);
      await engineVersion(present);
      await loadExample(present, 'testdev');
      await runToVerdict(present);
      await shot(present, `presenter-testdev-${size}`);
      await present.click('#examples-button');
      await shot(present, `examples-menu-presenter-${size}`);
      // Shape mode: the reversal with the paper's two hints (SAFE), a pair reduced by one; the
      // explain panel (the other modes' views) folded
      if (await page.locator('#explain-fold').count()) await page.click('#explain-fold');
      await loadExample(page, 'shape-reverse');
      await page.fill('#shape-hints', 'reach[{&(y->n), &(x->n->n)};n](t,x->n)@n5 -> if !dshared[n](t,x) then false else T\nx == x->n@n4 -> if !cyclic[n](x) then false else T\n');
      await page.fill('#shape-bound', '20');
      await page.click('#shape-run');
      await page.waitForFunction(() => document.querySelector('#shape-verdict .verdict-label')?.textContent.trim() === 'SAFE', null, { timeout: 180000 });
      await page.locator('.shape-pair .var-ref', { hasText: 'reach[{&(x->n)};n](t,x)' }).first().click();
      await page.evaluate(() => { document.querySelector('.shape-inputs').scrollTop = 0; });
      await page.mouse.move(1, 1);
      await shot(page, `mode-shape-reverse-${size}`);
      await loadExample(page, 'shape-insert');
      await page.click('#shape-run');
      await page.locator('#shape-verdict').waitFor({ timeout: 120000 });
      await page.click('#shape-tab-program');
      await page.evaluate(() => { document.querySelector('.shape-inputs').scrollTop = 0; });
      await page.mouse.move(1, 1);
      await shot(page, `mode-shape-insert-program-${size}`);
    } finally {
      await b.close();
    }
  }
  for (const scheme of ONLY ? [] : ['light', 'dark']) {
    const b = await launch({ colorScheme: scheme });
    try {
      const { page } = await open(b.context, server.base);
      await engineVersion(page);
      await shot(page, `shell-${scheme}`);

      // testdev: run to UNSAFE, then iteration 1 with a hover link
      await page.click('#examples-button');
      await page.click('[data-example="testdev"]');
      await page.click('#run');
      await page.locator('#verdict').waitFor({ timeout: 120000 });
      await page.mouse.move(640, 795);
      await shot(page, `testdev-unsafe-${scheme}`);
      await page.locator('.timeline-entry').first().click();
      await page.locator('#boolean-program .bp-line[data-c-line]').nth(6).hover();
      await shot(page, `testdev-iteration1-hover-${scheme}`);

      if (scheme === 'light') {
        await page.click('#examples-button');
        await page.click('[data-example="testdev-fixed"]');
        await page.click('#run');
        await page.locator('#verdict').waitFor({ timeout: 120000 });
        await page.mouse.move(640, 795);
        await shot(page, 'testdev-fixed-safe-light');

        await page.fill('#source', 'int main(void) {\n  int x = 1;\n  x = x + ;\n  return 0;\n}\n');
        await page.click('#run');
        await page.locator('#diagnostics').waitFor();
        await shot(page, 'syntax-error-light');

        await page.click('#settings-button');
        await shot(page, 'settings-light');
        await page.keyboard.press('Escape');
        await page.keyboard.press('?');
        await shot(page, 'shortcuts-light');
        await page.keyboard.press('Escape');
        await page.click('#examples-button');
        await shot(page, 'examples-light');

        // explain views on real engine runs
        const { page: ex } = await open(b.context, server.base);
        await engineVersion(ex);
        await loadExample(ex, 'partition');
        await setOption(ex, '#opt-strategy', 'lattice');
        await runToVerdict(ex);
        await ex.locator('.bp-line', { hasText: '{prev == NULL}, {prev->val > v} := {curr == NULL}' }).click();
        await openTab(ex, 'lattice');
        await ex.click('.pred-choice[data-predicate="{prev == NULL}"]');
        await ex.locator('#lattice-svg .cube[data-outcome="implies"]').click();
        await ex.mouse.move(640, 795);
        await shot(ex, 'lattice-partition-light');
        await openTab(ex, 'wp');
        await chooseStatement(ex, 'prev = curr;');
        await shot(ex, 'wp-partition-light');
        await openTab(ex, 'invariants');
        await ex.locator('.invariant-row', { has: ex.locator('td', { hasText: /^at L$/ }) }).click();
        await shot(ex, 'invariants-partition-light');
        await openTab(ex, 'solver');
        await shot(ex, 'solver-log-partition-light');
        await openTab(ex, 'notes');
        await shot(ex, 'lab-notes-partition-light');

        await loadExample(ex, 'increment');
        await runToVerdict(ex);
        await openTab(ex, 'lattice');
        await chooseStatement(ex, 'x = x + 1;');
        await ex.click('.pred-choice[data-predicate="{x < 5}"]');
        await shot(ex, 'lattice-increment-light');

        await loadExample(ex, 'testdev');
        await setOption(ex, '#opt-strategy', 'exact');
        await runToVerdict(ex);
        await ex.locator('.timeline-entry').nth(1).click();
        await openTab(ex, 'trace');
        await ex.locator('.feasibility-row.contradiction').scrollIntoViewIfNeeded();
        await ex.locator('#abstract-trace .step-row').nth(4).click();
        await ex.locator('.feasibility-row.contradiction').scrollIntoViewIfNeeded();
        await ex.mouse.move(640, 795);
        await shot(ex, 'trace-testdev-light');

        const { page: broken } = await open(b.context, `${server.base}#v1,broken-link`);
        await shot(broken, 'broken-share-link-light');
        const { page: small } = await open(b.context, server.base);
        await small.setViewportSize({ width: 1280, height: 720 });
        await engineVersion(small);
        await shot(small, 'shell-1280x720-light');
      }
    } finally {
      await b.close();
    }
  }
  for (const [w, h] of [[1280, 800], [683, 768]]) {
    const b = await launch({ viewport: { width: w, height: h } });
    try {
      const size = `${w}x${h}`;
      const { page } = await open(b.context, server.base);
      await engineVersion(page);
      // Hide mode: the appendix example after its closure, the log of the last step
      await loadExample(page, 'hide-appendix');
      await page.click('#hide-closure');
      await page.locator('#hide-status', { hasText: /closed/ }).waitFor({ timeout: 120000 });
      await page.locator('.hide-step').first().waitFor({ timeout: 120000 });
      await page.mouse.move(1, 1);
      await shot(page, `mode-hide-appendix-${size}`);
      // the teacher view (its gallery labs listed), then each gallery lab as a student sees it
      await page.click('#lab-button');
      await page.locator('#lab-teacher').waitFor();
      await shot(page, `lab-teacher-gallery-${size}`);
      await page.click('[data-lab="c2bp-partition"]');
      await page.locator('#lab-student[data-lab="c2bp-partition"]').waitFor();
      await runToVerdict(page);
      await page.click('#settings-button');
      await page.mouse.move(1, 1);
      await shot(page, `lab-gallery-partition-locked-${size}`);
      await page.keyboard.press('Escape');
      await page.click('#lab-leave');
      await page.click('#lab-button');
      await page.click('[data-lab="boop-testdev"]');
      await page.locator('#lab-student[data-lab="boop-testdev"]').waitFor();
      await runToVerdict(page);
      // the open panel covers no pane (beside them from 1400 px wide, below the explain panel
      // here): iteration 2's trace picked with it open, then the page scrolled so that the
      // trace and the panel's first tasks share the window
      await page.locator('.timeline-entry').nth(1).click();
      await openTab(page, 'trace');
      await page.locator('#lab-student').waitFor();
      await page.evaluate(() => window.scrollTo(0, document.querySelector('#lab-panel').getBoundingClientRect().top + window.scrollY - window.innerHeight * 0.4));
      await page.mouse.move(1, 1);
      await shot(page, `lab-gallery-testdev-${size}`);
      // the embedded view of a share link (testdev, run)
      await page.click('#lab-leave');
      await page.click('#share');
      const link = await page.locator('#share-link').inputValue();
      const { page: embed } = await open(b.context, link.replace('#', link.includes('?') ? '&embed#' : '?embed#'));
      await runToVerdict(embed);
      await embed.mouse.move(1, 1);
      await shot(embed, `embed-share-testdev-${size}`);
    } finally {
      await b.close();
    }
  }
} finally {
  await server.close();
}
console.log(shots.join('\n'));
