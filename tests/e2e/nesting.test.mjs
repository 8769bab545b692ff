// Deep nesting in the browser (issue 33, "natively and in wasm, with the same inputs"): the
// engine runs in the web worker on wasm's 1 MiB stack. The C shapes are those of c-front's
// `nesting::huge_nesting_gives_a_diagnostic_at_line_and_column` (crates/c-front/tests/it/nesting.rs),
// and the browser must give exactly the native golden lines of tests/nesting/diagnostics.txt.
// The terms the analysis builds are those of the CLI's tests/deep_inputs.rs (500 assignments
// `x = (x ^ y) + z;`: UNKNOWN with the reason; 500 `x = y - x;`: UNSAFE), and the boolean
// programs those of fuzz-targets' `deep_boolean_programs_get_a_diagnostic`. After each, the
// worker still answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useSite, open, engineVersion, runToVerdict, setOption } from './harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const site = useSite();

// c-front's nesting.rs `shape(name, n)`, character for character
function shape(name, n) {
  const head = 'int g;\nint main() { int x = __VERIFIER_nondet_int(); int a[2] = {0, 1};\n';
  const r = (s, k) => s.repeat(k);
  const body = {
    'parentheses': () => `  g = ${r('(', n)}x${r(')', n)};`,
    'blocks': () => `  ${r('{', n)} g = x; ${r('}', n)}`,
    'sum': () => `  g = x${r(' + x', n)};`,
    'and chain': () => `  g = x > 0${r(' && x > 1', n)};`,
    'else-if chain': () => `  ${Array.from({ length: n }, (_, i) => `if (x == ${i}) g = ${i}; else `).join('')} g = -1;`,
    'nested ifs': () => `  ${r('if (x) ', n)} g = 1;`,
    'nested loops': () => `  ${r('while (x-- > 0) ', n)} g = 1;`,
    'ternary chain': () => `  g = ${r('x ? 1 : ', n)} 0;`,
    'casts': () => `  g = ${r('(int)', n)}x;`,
    'negations': () => `  g = ${r('- ', n)}x;`,
    'subscripts': () => `  g = a[${r('a[', n)}0${r('&1]', n)}];`,
  }[name]();
  return `${head}${body}\n  return 0;\n}\n`;
}

// the CLI's deep_inputs.rs `program(statement, n)`
function chain(statement, n) {
  const body = Array.from({ length: n }, () => `  ${statement}\n`).join('');
  return `extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(), z = __VERIFIER_nondet_int();\n${body}  if (x == 5) reach_error();\n  return 0;\n}\n`;
}

const SMALL = 'extern void reach_error(void);\nint main(void) {\n  int x = 1;\n  if (x != 1) reach_error();\n  return 0;\n}\n';

async function stillAnswers(page) {
  await page.selectOption('#mode', 'check');
  await page.fill('#source', SMALL);
  assert.equal(await runToVerdict(page), 'SAFE', 'the worker still answers');
}

test('deeply nested C gives the native diagnostics in the browser, and the worker survives', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  const golden = fs.readFileSync(path.join(here, '../nesting/diagnostics.txt'), 'utf8').trim().split('\n');
  const lines = [];
  for (const g of golden) {
    const [, name, n] = /^(.*) \((\d+)\):/.exec(g);
    await page.fill('#source', shape(name, Number(n)));
    await page.click('#run');
    const first = page.locator('#diagnostics li').first();
    await first.waitFor({ timeout: 60000 });
    const pos = (await first.locator('.diag-pos').textContent()).trim();
    const msg = (await first.locator('.diag-msg').textContent()).trim();
    lines.push(`${name} (${n}): ${pos}: ${msg}`);
  }
  assert.deepEqual(lines, golden);
  await stillAnswers(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('terms the analysis nests past the limit end UNKNOWN with the reason; chains inside it are decided on the wasm stack', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await setOption(page, '#opt-techniques', 'cegar');
  await page.fill('#source', chain('x = (x ^ y) + z;', 500));
  assert.equal(await runToVerdict(page, 300000), 'UNKNOWN');
  assert.match(await page.locator('#verdict').textContent(), /nested more than 512 levels deep/);
  await page.fill('#source', chain('x = y - x;', 500));
  assert.equal(await runToVerdict(page, 300000), 'UNSAFE');
  await stillAnswers(page);
  assert.deepEqual(errors, []);
  await page.close();
});

test('deeply nested boolean programs give a diagnostic in the browser', async () => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  await page.selectOption('#mode', 'bp');
  const n = 20000;
  const deep = [
    `decl x; void main() begin x := ${'('.repeat(n)}x${')'.repeat(n)}; end`,
    `decl x; void main() begin x := x${' | x'.repeat(n)}; end`,
    `decl x; void main() begin x := ${'!'.repeat(n)}x; end`,
    `decl x; void main() begin ${'if (x) then '.repeat(n)} x := 1; ${'fi '.repeat(n)} end`,
    `decl x; void main() begin if (x) then skip; ${'elsif (x) then skip; '.repeat(n)} fi end`,
    `decl x; void main() begin ${'while (x) do '.repeat(n)} skip; ${'od '.repeat(n)} end`,
  ];
  for (const text of deep) {
    await page.fill('#source', text);
    assert.equal(await runToVerdict(page), 'UNKNOWN', text.slice(0, 60));
    assert.match(await page.locator('#bp-diagnostics').textContent(), /line 1, column \d+: .*too/, text.slice(0, 60));
  }
  await stillAnswers(page);
  assert.deepEqual(errors, []);
  await page.close();
});
