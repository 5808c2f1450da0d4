import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * What the browser tests share: Debian's Chromium (never a downloaded browser; `INTRABOT_CHROMIUM` names
 * another), its flags for a headless run with no network of its own, and axe-core's WCAG 2.1 A/AA run.
 */
export const CHROMIUM = process.env.INTRABOT_CHROMIUM ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Says, once per test file, why its browser tests are skipped on this machine. */
export function noteMissingChromium(suite: string): void {
  if (HAVE_CHROMIUM) return;
  process.stderr.write(`\n[${suite}] SKIPPED: no Chromium at ${CHROMIUM}. Install Debian's package (apt-get install chromium) or set INTRABOT_CHROMIUM.\n\n`);
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2.1 A and AA violations on the page as it is, one line each (rule: elements). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  // axe's own runner in the page (the page's types are not this program's: a string, evaluated there)
  return page.evaluate<string[]>(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
}
