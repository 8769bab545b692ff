// Screenshots of the main views at 1280x800 into docs/screenshots/ (run after a build):
//   cd tests/e2e && node screenshots.mjs        (OUT_DIR=... to write elsewhere)
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serveDist, launch, open, engineVersion } from './harness.mjs';

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

try {
  for (const scheme of ['light', 'dark']) {
    const b = await launch({ colorScheme: scheme });
    try {
      const { page } = await open(b.context, server.base);
      await engineVersion(page);
      await shot(page, `shell-${scheme}`);

      const { page: demo } = await open(b.context, `${server.base}?demo`);
      await demo.locator('#verdict').waitFor();
      await demo.click('#step-back');
      const bp = demo.locator('.bp-line', { hasText: '{prev==NULL} = {curr==NULL};' });
      await bp.hover();
      await shot(demo, `demo-iteration1-hover-${scheme}`);
      if (scheme === 'light') {
        await demo.click('#step-forward');
        await demo.mouse.move(5, 790);
        await shot(demo, 'demo-verdict-light');
        await demo.click('#settings-button');
        await shot(demo, 'settings-light');
        await demo.keyboard.press('Escape');
        await demo.click('#examples-button');
        await shot(demo, 'examples-light');
        const { page: broken } = await open(b.context, `${server.base}#v1,broken-link`);
        await shot(broken, 'broken-share-link-light');
        const { page: small } = await open(b.context, server.base);
        await small.setViewportSize({ width: 1280, height: 720 });
        await shot(small, 'shell-1280x720-light');
      }
    } finally {
      await b.close();
    }
  }
} finally {
  await server.close();
}
console.log(shots.join('\n'));
