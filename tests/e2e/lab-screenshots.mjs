// Screenshots of the two gallery labs (issue 31) into docs/screenshots/, at 1280x800 and at
// 683x768 (half of a 1366x768 screen), run after a build:
//   cd tests/e2e && node lab-screenshots.mjs      (DIST_DIR=..., OUT_DIR=... to change folders)
// Each lab is opened from the Lab panel's gallery, run, and one task answered wrong (the hint shows)
// and one right; the teacher view is shot once with a task filled from the run.
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, open, engineVersion, loadExample, runToVerdict } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(process.env.OUT_DIR ?? path.join(here, '../../docs/screenshots'));
fs.mkdirSync(OUT, { recursive: true });
const server = await serveDist();
const shots = [];
async function shot(page, name) {
  const file = path.join(OUT, `${name}.png`);
  await page.mouse.move(1, 1);
  await page.evaluate(() => document.getElementById('lab-panel')?.scrollTo(0, 0));
  await page.screenshot({ path: file });
  shots.push(file);
}

async function openLab(page, id) {
  if (await page.locator('#lab-leave').count()) await page.click('#lab-leave');
  await page.click('#lab-button');
  await page.click(`[data-lab="${id}"]`);
  await page.locator(`#lab-student[data-lab="${id}"]`).waitFor();
  await runToVerdict(page);
}

try {
  for (const [w, h] of [[1280, 800], [683, 768]]) {
    const size = `${w}x${h}`;
    const b = await launch({ viewport: { width: w, height: h } });
    try {
      const { page } = await open(b.context, server.base);
      await engineVersion(page);
      await openLab(page, 'c2bp-partition');
      await page.fill('#lab-answer-1', '{prev == NULL}');
      await page.click('#lab-check-1');
      await page.locator('#lab-hint-1').waitFor();
      await page.fill('#lab-answer-2', '!{curr == NULL}');
      await page.click('#lab-check-2');
      await page.locator('#lab-mark-2', { hasText: 'Right.' }).waitFor();
      await shot(page, `lab-partition-${size}`);
      await openLab(page, 'boop-testdev');
      await page.fill('#lab-answer-1', 'feasible');
      await page.click('#lab-check-1');
      await page.locator('#lab-hint-1').waitFor();
      await page.click('#lab-check-3');
      await page.locator('#lab-mark-3', { hasText: 'Right.' }).waitFor();
      await shot(page, `lab-testdev-${size}`);
      if (w === 1280) {
        await page.click('#lab-leave');
        await loadExample(page, 'testdev');
        await runToVerdict(page);
        await page.click('#lab-button');
        await page.click('#lab-take');
        await page.selectOption('#lab-new-kind', 'new_predicates');
        await page.click('#lab-add-task');
        await page.fill('#lab-t1-iteration', '2');
        await page.locator('#lab-t1-iteration').dispatchEvent('change');
        await page.click('#lab-fill');
        await page.click('#lab-make-link');
        await page.locator('#lab-link').waitFor();
        await shot(page, `lab-teacher-${size}`);
      }
    } finally {
      await b.close();
    }
  }
} finally {
  await server.close();
}
console.log(shots.join('\n'));
