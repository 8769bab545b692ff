// The playground's "Witness (.yml)" download (issue 32): Check mode's SAFE and UNSAFE verdicts
// come with the same SV-COMP witness (format 2.0) that `predabs check --witness` writes, built
// in the worker from the run's program; UNKNOWN has the button disabled with the reason.
// Each downloaded witness is re-checked with the native CLI's `predabs validate` when a
// native binary is there (target/native/predabs, else target/debug/predabs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { useSite, open, engineVersion, loadExample, runToVerdict, setOption } from './harness.mjs';

const site = useSite();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = ['target/native/predabs', 'target/debug/predabs'].map((p) => path.join(root, p)).find((p) => fs.existsSync(p));

/** Runs `id`, downloads its witness; returns the witness text and the run's source. */
async function witnessOf(page, id, verdict) {
  await loadExample(page, id);
  assert.equal(await runToVerdict(page), verdict);
  // the run's source: the editor's text, unedited since the run (the page's program.c download)
  const [program] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  const source = fs.readFileSync(await program.path(), 'utf8');
  const button = page.locator('#download-witness');
  assert.equal(await button.isEnabled(), true);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60000 }), button.click()]);
  assert.equal(download.suggestedFilename(), 'witness.yml');
  return { yaml: fs.readFileSync(await download.path(), 'utf8'), source };
}

function checkCommon(yaml, source) {
  assert.match(yaml, /^- entry_type: (invariant_set|violation_sequence)\n/);
  assert.match(yaml, /\n\s+producer:\n\s+name: predabs\n/);
  assert.match(yaml, /\n\s+format_version: '?2\.0'?\n/);
  const hash = crypto.createHash('sha256').update(source).digest('hex');
  assert.match(yaml, new RegExp(`input_file_hashes:\\n\\s+program\\.c: '?${hash}'?\\n`), 'the SHA-256 of the run\'s source');
}

function validate(yaml, source) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'predabs-witness-'));
  try {
    fs.writeFileSync(path.join(dir, 'program.c'), source);
    fs.writeFileSync(path.join(dir, 'witness.yml'), yaml);
    return execFileSync(cli, ['validate', path.join(dir, 'program.c'), '--witness', path.join(dir, 'witness.yml'), '--timeout', '60'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a SAFE run downloads an invariant set that validates', async (t) => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  const { yaml, source } = await witnessOf(page, 'testdev-fixed', 'SAFE');
  assert.match(yaml, /^- entry_type: invariant_set\n/);
  checkCommon(yaml, source);
  assert.match(await page.locator('#download-witness').getAttribute('title'), /^Downloaded witness\.yml: correctness witness with \d+ loop invariants$/);
  if (cli) {
    assert.match(validate(yaml, source), /VALIDATION: VALID \(correctness witness\)/);
  } else {
    t.diagnostic('no native predabs binary: the witness is not re-validated');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('an UNSAFE run downloads a violation sequence that validates; UNKNOWN has none', async (t) => {
  const { page, errors } = await open(site.browser.context, site.server.base);
  await engineVersion(page);
  const { yaml, source } = await witnessOf(page, 'testdev', 'UNSAFE');
  assert.match(yaml, /^- entry_type: violation_sequence\n/);
  assert.match(yaml, /\n\s+action: follow\n/);
  assert.match(yaml, /\n\s+type: target\n/);
  checkCommon(yaml, source);
  if (cli) {
    assert.match(validate(yaml, source), /VALIDATION: VALID \(violation witness\)/);
  } else {
    t.diagnostic('no native predabs binary: the witness is not re-validated');
  }

  // UNKNOWN (one iteration is not enough for testdev-fixed): the button is there, disabled, with the reason
  await loadExample(page, 'testdev-fixed');
  await setOption(page, '#opt-iterations', '1');
  assert.equal(await runToVerdict(page), 'UNKNOWN');
  const button = page.locator('#download-witness');
  assert.equal(await button.isDisabled(), true);
  assert.match(await button.getAttribute('title'), /^No witness for an UNKNOWN verdict/);
  assert.deepEqual(errors, []);
  await page.close();
});
