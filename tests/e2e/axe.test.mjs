// Accessibility audit with axe-core (issue 31): every mode after a run, every explain tab, the
// menus and dialogs, presenter mode and the embedded view, in the light and dark schemes, with
// no violation of impact "serious" or "critical" (colour contrast included). The second test
// audits what the first cannot reach: Check mode's lattice, WP and solver tabs once their
// on-demand explanations arrived, the Pushdown tab, Hide and Shape mode with each of their own
// tabs and every explain tab, and the Settings of a lab with locked settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, launch, open, engineVersion, loadExample, setOption, runToVerdict, openTab, seriousViolations } from './harness.mjs';

const site = useSite();
const TABS = ['trace', 'lattice', 'wp', 'invariants', 'solver', 'notes'];
const MODES = [
  ['Check', 'testdev', 'UNSAFE'],
  ['Abstract', 'partition', 'SAFE'],
  ['Boolean program', 'boolean-program', null],
];

/**
 * Opens the playground in a fresh browser with colour `scheme`, runs `body(page, audit, browser)`
 * and fails on every violation `audit(where, page?)` found and every page error.
 */
async function audited(scheme, body) {
  const b = await launch({ colorScheme: scheme });
  try {
    const { page, errors } = await open(b.context, site.server.base);
    await engineVersion(page);
    const found = [];
    const audit = async (where, on = page) => {
      for (const v of await seriousViolations(on)) found.push(`[${where}] ${v}`);
    };
    await body(page, audit, b);
    assert.deepEqual(found, []);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
}

for (const scheme of ['light', 'dark']) {
  test(`axe (${scheme}): every mode and explain tab, no serious or critical violations`, async () => {
    await audited(scheme, async (page, audit, b) => {
      await audit('start');
      for (const [mode, example, verdict] of MODES) {
        await loadExample(page, example);
        if (mode === 'Abstract') await setOption(page, '#opt-strategy', 'lattice');
        const got = await runToVerdict(page);
        if (verdict) assert.equal(got, verdict, example);
        if (mode === 'Abstract') {
          await page.locator('.bp-line', { hasText: '{prev == NULL}, {prev->val > v} := {curr == NULL}' }).click();
        }
        for (const tab of TABS) {
          await openTab(page, tab);
          if (mode === 'Abstract' && tab === 'lattice') {
            await page.click('.pred-choice[data-predicate="{prev == NULL}"]');
            await page.locator('#lattice-svg .cube[data-outcome="implies"]').first().click();
          }
          await audit(`${mode} / ${tab}`);
        }
      }
      await page.click('#examples-button');
      await audit('examples menu');
      await page.keyboard.press('Escape');
      await page.click('#settings-button');
      await audit('settings');
      await page.keyboard.press('Escape');
      await page.click('#share');
      await page.locator('#share-dialog').waitFor();
      await audit('share');
      await page.keyboard.press('Escape');
      await page.click('#shortcuts-button');
      await audit('shortcuts');
      await page.keyboard.press('Escape');
      // a boolean program with errors
      await page.selectOption('#mode', 'bp');
      await page.fill('#source', 'void main()\nbegin\n  x := ;\nend\n');
      await runToVerdict(page);
      await audit('boolean program errors');

      const { page: present } = await open(b.context, `${site.server.base}?present`);
      await audit('presenter', present);
      const { page: embed } = await open(b.context, `${site.server.base}?embed&example=testdev`);
      await embed.click('#run');
      await embed.locator('#verdict').waitFor({ timeout: 120000 });
      await audit('embed', embed);
    });
  });
}

/** Every explain tab (the Pushdown tab only where it exists) audited with `audit(tab)`. */
async function everyTab(page, audit, before = async () => {}) {
  for (const tab of [...TABS, 'pds']) {
    if (!(await page.locator(`#tab-${tab}`).count())) continue;
    await openTab(page, tab);
    await before(tab);
    await audit(tab);
  }
}

for (const scheme of ['light', 'dark']) {
  test(`axe (${scheme}): on-demand explanations, the Pushdown tab, Hide and Shape with all their tabs, locked settings`, async () => {
    await audited(scheme, async (page, audit) => {
      // Check mode, iteration 2: the lattice, WP and solver tabs once the worker answered
      await loadExample(page, 'testdev');
      await setOption(page, '#opt-techniques', 'cegar');
      assert.equal(await runToVerdict(page), 'UNSAFE');
      await page.locator('.timeline-entry').nth(1).click();
      await everyTab(page, (where) => audit(`Check / ${where}`), async (tab) => {
        if (['lattice', 'wp'].includes(tab)) {
          await page.locator('#explain-statement').waitFor({ timeout: 60000 });
          await page.selectOption('#explain-statement', { index: 3 });
        }
        if (tab === 'solver') await page.locator('#solver-log').waitFor({ timeout: 60000 });
      });
      // Boolean program mode's Pushdown tab
      await loadExample(page, 'boolean-program');
      await runToVerdict(page);
      await openTab(page, 'pds');
      await page.locator('#pds-heads').waitFor();
      await audit('Boolean program / pds');
      // Hide mode: its log after two steps, each of its tabs, every explain tab
      await loadExample(page, 'hide-appendix');
      await page.click('#hide-step');
      await page.locator('#iteration-1').waitFor({ timeout: 60000 });
      await page.click('#hide-step');
      await page.locator('#iteration-2').waitFor({ timeout: 60000 });
      for (const id of await page.locator('[id^="hide-tab-"]').evaluateAll((tabs) => tabs.map((t) => t.id))) {
        await page.click(`#${id}`);
        await audit(`Hide / ${id}`);
      }
      await everyTab(page, (where) => audit(`Hide / ${where}`));
      // Shape mode: insertion, each of its tabs, every explain tab
      await loadExample(page, 'shape-insert');
      await page.click('#shape-run');
      await page.locator('#shape-verdict').waitFor({ timeout: 120000 });
      for (const id of await page.locator('[id^="shape-tab-"]').evaluateAll((tabs) => tabs.map((t) => t.id))) {
        await page.click(`#${id}`);
        await audit(`Shape / ${id}`);
      }
      await everyTab(page, (where) => audit(`Shape / ${where}`));
      // a lab's locked settings
      await page.click('#lab-button');
      await page.click('[data-lab="c2bp-partition"]');
      await page.locator('#lab-student').waitFor();
      await page.click('#settings-button');
      await audit('Settings locked by a lab');
      await page.keyboard.press('Escape');
    });
  });
}
