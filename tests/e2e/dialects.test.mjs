// The boolean program view's downloads for other boolean-program model checkers (issue 32):
// beside the .bp file and Promela for SPIN, Moped's input (the error as the label
// predabs_error) and boppo's dialect (SatAbs), each with the command that checks it.
// Screenshot at 1280x800: docs/screenshots/bp-exports-1280.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, open, engineVersion, loadExample, runToVerdict, seriousViolations } from './harness.mjs';

const site = useSite();
const shots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

test('Moped and boppo downloads beside Promela, with the commands that check them', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await loadExample(page, 'testdev');
  assert.equal(await runToVerdict(page), 'UNSAFE');
  await page.locator('#download-moped').waitFor();

  const texts = {};
  for (const tool of ['moped', 'boppo']) {
    // an accessible name that says what the button downloads
    const button = page.getByRole('button', { name: new RegExp(`^Download \\.${tool}\\.bp of iteration \\d+$`) });
    assert.equal(await button.count(), 1, `one ${tool} button`);
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const file = download.suggestedFilename();
    assert.match(file, new RegExp(`^iteration-\\d+\\.${tool}\\.bp$`));
    texts[tool] = fs.readFileSync(await download.path(), 'utf8');
    const command = (await page.locator(`#${tool}-command`).textContent()).trim();
    assert.equal(command, tool === 'moped' ? `moped -b ${file} predabs_error` : `boppo ${file}`);
  }

  // Moped: Bebop syntax, predicate names kept, no assert left, the error label in its own procedure
  const moped = texts.moped;
  assert.match(moped, /^decl \{/);
  assert.match(moped, /\nvoid predabs_fail\(\)\nbegin\n  predabs_error: skip;\nend\n$/);
  assert.doesNotMatch(moped, /assert\(/);
  assert.match(moped, /predabs_fail\(\);/);
  assert.match(moped, /fi\n/);

  // boppo: the header maps the new names back; every name is an identifier; T/F; schoose
  const boppo = texts.boppo;
  assert.match(boppo, /^\/\/ A boolean program in the input language of SatAbs' boppo, printed by predabs\.\n/);
  assert.match(boppo, /\n\/\/ b0 = \{[^}\n]+\}\n/);
  const code = boppo.split('\n').filter((l) => !l.startsWith('//')).join('\n');
  assert.doesNotMatch(code, /[{}]/, 'no brace names are left in the code');
  assert.match(code, /\n\s*assume\(T\);\n/);
  assert.match(code, /schoose\[/);
  assert.doesNotMatch(code, /\bchoose\(/);

  // the Promela row is still there, and the rows are reachable controls with no axe findings
  await page.locator('#download-promela').waitFor();
  assert.deepEqual(await seriousViolations(page, '.pane-bp'), []);
  await page.locator('#boppo-command').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'bp-exports-1280.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
