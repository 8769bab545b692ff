// Accessibility audit with axe-core (issue 31): every mode after a run, every explain tab, the
// menus and dialogs, presenter mode and the embedded view, in the light and dark schemes, with
// no violation of impact "serious" or "critical" (colour contrast included).
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

for (const scheme of ['light', 'dark']) {
  test(`axe (${scheme}): every mode and explain tab, no serious or critical violations`, async () => {
    const b = await launch({ colorScheme: scheme });
    try {
      const { page, errors } = await open(b.context, site.server.base);
      await engineVersion(page);
      const found = [];
      const audit = async (where) => {
        for (const v of await seriousViolations(page)) found.push(`[${where}] ${v}`);
      };
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
      for (const v of await seriousViolations(present)) found.push(`[presenter] ${v}`);
      const { page: embed } = await open(b.context, `${site.server.base}?embed&example=testdev`);
      await embed.click('#run');
      await embed.locator('#verdict').waitFor({ timeout: 120000 });
      for (const v of await seriousViolations(embed)) found.push(`[embed] ${v}`);
      assert.deepEqual(found, []);
      assert.deepEqual(errors, []);
    } finally {
      await b.close();
    }
  });
}
