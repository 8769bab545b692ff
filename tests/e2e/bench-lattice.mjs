// Benchmark (run by hand, not a test): how long the cube-lattice view of a statement whose
// cone has 8 predicates takes to render in headless Chromium.
//   cd tests/e2e && node bench-lattice.mjs          (after a build; DIST_DIR as for the tests)
//
// The program assigns s = a + b + ... + h with one predicate per variable: WP(s, s > 0) mentions
// all eight, no cube implies it (machine integers overflow), so the lattice is as large as the
// cube-length bound allows (likewise for s < 0); the cubes one literal beyond the bound are
// recorded too. With k = 1 the view draws the Hasse diagram (129 cubes); with k = 3 (577 cubes)
// and unbounded (k = 0, all 3^8 = 6561 cubes) it collapses to per-level rows. Each figure is the time
// from the click (switching the predicate between {s < 0} and {s > 0}, or opening the tab) to the
// next frame after the DOM shows the new lattice, measured with performance.now() inside the
// page; the median of RUNS repetitions is reported.
import { serveDist, launch, open, engineVersion, setOption, runToVerdict, openTab, chooseStatement } from './harness.mjs';

const RUNS = 9;
const vars = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const source = [
  'int main(void) {',
  ...vars.map((v) => `  int ${v} = __VERIFIER_nondet_int();`),
  '  int s;',
  `  s = ${vars.join(' + ')};`,
  '  assert(s != 12345);',
  '  return 0;',
  '}',
  '',
].join('\n');
const predicates = `main {\n  ${[...vars.map((v) => `${v} > 0`), 's > 0', 's < 0'].join(',\n  ')}\n}\n`;

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Time from clicking `clickSelector` until `doneSelector` exists, plus one animation frame. */
function timeClick(page, clickSelector, doneSelector) {
  return page.evaluate(([click, done]) => new Promise((resolve) => {
    const t0 = performance.now();
    document.querySelector(click).click();
    const poll = () => {
      if (document.querySelector(done)) {
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
      } else {
        requestAnimationFrame(poll);
      }
    };
    poll();
  }), [clickSelector, doneSelector]);
}

const server = await serveDist();
const browser = await launch();
try {
  const { page } = await open(browser.context, server.base);
  await engineVersion(page);
  await page.selectOption('#mode', 'abstract');
  await page.fill('#source', source);
  await page.fill('#predicates', predicates);
  await setOption(page, '#opt-strategy', 'lattice');
  await setOption(page, '#opt-width', '8');
  for (const k of ['1', '3', '0']) {
    await setOption(page, '#opt-k', k);
    const t = Date.now();
    await runToVerdict(page, 600000);
    const engineMs = Date.now() - t;
    await openTab(page, 'lattice');
    await chooseStatement(page, 's = a + b');
    await page.click('.pred-choice[data-predicate="{s < 0}"]');
    await page.locator('#lattice-body[data-predicate="{s < 0}"]').waitFor();
    const shown = (p) => `#lattice-body[data-predicate="${p}"] #lattice-svg, #lattice-body[data-predicate="${p}"] #lattice-rows`;
    const big = shown('{s > 0}');
    const switches = [];
    const opens = [];
    for (let i = 0; i < RUNS; i++) {
      switches.push(await timeClick(page, '.pred-choice[data-predicate="{s > 0}"]', big));
      // fold the panel and open the tab again: the whole view mounts
      await page.click('#tab-lattice');
      opens.push(await timeClick(page, '#tab-lattice', big));
      switches.push(await timeClick(page, '.pred-choice[data-predicate="{s < 0}"]', shown('{s < 0}')));
    }
    await page.click('.pred-choice[data-predicate="{s > 0}"]');
    const cubes = await page.locator('#lattice-svg .cube').count();
    const rows = await page.locator('#lattice-rows .level-row').count();
    const cone = await page.locator('.lattice-toolbar .hint').first().textContent();
    console.log(`k=${k === '0' ? '∞' : k}: ${cone}; ${cubes ? `${cubes} cubes drawn` : `${rows} level rows`} (engine run ${engineMs} ms)`);
    console.log(`  switch predicate -> rendered: median ${median(switches).toFixed(1)} ms  [${switches.map((x) => x.toFixed(1)).join(', ')}]`);
    console.log(`  open tab -> rendered:         median ${median(opens).toFixed(1)} ms  [${opens.map((x) => x.toFixed(1)).join(', ')}]`);
  }
  await page.close();
} finally {
  await browser.close();
  await server.close();
}
