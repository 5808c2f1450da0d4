import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildRuntime, type Runtime } from '../../src/runtime/build-runtime';
import { loadConfig } from '../../src/runtime/config/config';
import { runtimePartsOf } from '../../src/runtime/runtime-parts';
import { axeViolations, CHROMIUM, CHROMIUM_ARGS, HAVE_CHROMIUM, noteMissingChromium } from '../helpers/chromium';
import { startPair, type Pair } from '../../src/testing';

/**
 * The console in a real browser: Debian's Chromium driven by playwright-core (never a downloaded
 * browser), against a runtime on the sandbox. Skipped, with the reason printed, where Chromium is not
 * installed (`.ci/run` installs it). Screenshots of each page go to test-results/console/.
 */
noteMissingChromium('console browser tests');
const OUT = resolve('test-results/console');
const PAGES = ['overview', 'bots', 'deliveries', 'outbox', 'rate', 'jobs', 'alerts', 'audit'] as const;
const ALERT = readFileSync('test/fixtures/alerts/alertmanager-firing.json', 'utf8');

// a browser and a runtime on two shared cores: each step may wait on the live stream, so more time than the default
describe.skipIf(!HAVE_CHROMIUM)('the console in headless Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pair: Pair;
  let status: Server;
  let statusHealthy = false;
  const visited: { url: string; body: string }[] = [];
  /** What the browser reported as errors: a script error, a refused resource, a CSP violation. */
  const browserErrors: string[] = [];

  const open = async (route: string): Promise<void> => {
    await page.goto(`${pair.runtime.inspect().url}/console/#/${route}`);
    await page.locator('.live.on').waitFor();
  };
  const shoot = async (name: string): Promise<void> => {
    // no hover left over from a click in the picture
    await page.mouse.move(640, 5);
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
  };
  const row = (status: string, text: string) => page.locator(`#deliveries tr[data-status="${status}"]`, { hasText: text });

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    // the ops bot's /status reads this service's health: down at first, so its deliveries fail
    status = createServer((_req, res) => {
      if (statusHealthy) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ api: 'ok', web: 'ok', database: 'degraded' }));
      else res.writeHead(503, { 'content-type': 'text/plain' }).end('status page down');
    });
    await new Promise<void>((done) => status.listen(0, '127.0.0.1', done));
    const { port } = status.address() as { port: number };
    pair = await startPair({ env: { OPS_STATUS_URL: `http://127.0.0.1:${port}/health` } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light', locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => browserErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') browserErrors.push(message.text());
    });
    page.on('response', (response) => {
      const url = response.url();
      if (url.includes('/console/') && !url.endsWith('/console/api/stream'))
        void response.text().then(
          (body) => visited.push({ url, body }),
          () => undefined,
        );
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await pair?.close();
    await new Promise((done) => status?.close(done));
  });

  it('loads against a runtime on the sandbox and lists the example bots', async () => {
    await open('overview');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
    await shoot('overview');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Bots' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bots' }).waitFor();
    const names = pair.runtime.inspect().bots.map((b) => b.manifest.display_name);
    expect(names.length).toBeGreaterThanOrEqual(8);
    for (const name of names) await page.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) }).waitFor();
    expect(await page.locator('.badge', { hasText: 'running' }).count()).toBe(names.length);
    // each card leads with its state, then what the bot does (issue #24, item 3)
    for (const bot of pair.runtime.inspect().bots) {
      const card = page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: new RegExp(`^${bot.manifest.display_name}`) }) });
      const lead = (await card.locator(':scope > p').allInnerTexts()).slice(0, 2).map((text) => text.replace(/\s+/g, ' ').trim());
      expect(lead).toEqual(['running on sandbox', bot.manifest.description]);
    }
    // a chip is one name: the list wraps between chips, never inside one
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('.chips li')).whiteSpace")).toBe('nowrap');
    await shoot('bots');
  });

  it("shows an employee's post arrive and be handled, live", async () => {
    await open('deliveries?bot=ops');
    const post = await pair.platform.employeePost(10, { wall_id: 1, body: '/oncall' });
    await row('handled', 'post.created').filter({ hasText: 'oncall' }).waitFor();
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    // what the bot said, not only that it sent a comment (issue #24, item 4)
    const said = comments[0]!.body!.replace(/\s+/g, ' ').slice(0, 40);
    await row('handled', 'post.created')
      .filter({ hasText: `comment to post ${post.id}` })
      .filter({ hasText: said })
      .waitFor();
    await shoot('deliveries');
  });

  it('shows a failing delivery retried, then dead, and replays it once its cause is fixed', async () => {
    await open('deliveries?bot=ops');
    const post = await pair.platform.employeePost(10, { wall_id: 1, body: '/status' });
    const retrying = row('retrying', 'post.created');
    await retrying.filter({ hasText: 'status page' }).waitFor();
    const delivery = (await retrying.first().getAttribute('data-delivery'))!;
    const mine = page.locator(`#deliveries tr[data-delivery="${delivery}"]`);
    // the inbox retries after 5 s and 60 s (on the shared clock), then gives up
    pair.clock.advance(5_000);
    await mine.filter({ has: page.locator('td.num', { hasText: /^2$/ }) }).waitFor();
    pair.clock.advance(60_000);
    await page.locator(`#deliveries tr[data-delivery="${delivery}"][data-status="dead"]`).waitFor();
    await page.getByRole('link', { name: /Deliveries 1 dead/ }).waitFor();
    await shoot('deliveries-dead');
    await open('overview');
    await page.getByRole('link', { name: '1 delivery in the dead letters' }).waitFor();
    await shoot('overview-attention');
    await open('deliveries?bot=ops');

    statusHealthy = true;
    await page.getByRole('button', { name: `Replay delivery ${delivery} to ops` }).click();
    await page.getByRole('status').filter({ hasText: 'Replay ops post.created: done.' }).waitFor();
    await page.locator(`#deliveries tr[data-delivery="${delivery}"][data-status="handled"]`).waitFor();
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments[0]?.body).toContain('database: degraded');
  });

  it('runs a job now and shows its run', async () => {
    await open('jobs');
    const job = page.locator('tr[data-job="birthday/greet"]');
    await job.getByText('never').waitFor();
    await page.getByRole('button', { name: 'Run now birthday/greet' }).click();
    await page.getByRole('status').filter({ hasText: 'Run birthday/greet: started' }).waitFor();
    await job.locator('.runs li', { hasText: 'manual' }).locator('.badge', { hasText: 'ok' }).waitFor();
    await shoot('jobs');
  });

  it('pauses a bot with its reason and resumes it, showing the pause on the bots page and the overview', async () => {
    await open('bots');
    const pause = page.getByRole('button', { name: 'Pause kudos on sandbox' });
    const kudos = page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: /^Kudos/ }) });
    // folded away until asked for: the card does not lead with a form
    expect(await pause.isVisible()).toBe(false);
    await kudos.locator('summary', { hasText: 'Pause' }).click();
    await page.locator('form', { has: pause }).getByLabel('Why').fill('too chatty');
    await pause.click();
    await page.getByRole('status').filter({ hasText: 'Pause kudos on sandbox: paused' }).waitFor();
    const card = page.locator('section.card', { has: page.getByRole('heading', { level: 2, name: /^Kudos/ }) });
    await card.locator('.badge', { hasText: 'paused' }).waitFor();
    await card.getByText('too chatty').waitFor();
    expect(await pair.runtime.inspect().store.kv('runtime:paused').list()).toHaveLength(1);
    await open('overview');
    await page.getByRole('link', { name: 'Bot kudos is paused on sandbox: too chatty' }).waitFor();
    await open('bots');
    await page.getByRole('button', { name: 'Resume kudos on sandbox', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Resume kudos on sandbox: resumed' }).waitFor();
    // folded away again once resumed
    await page.locator('button[aria-label="Pause kudos on sandbox"]').waitFor({ state: 'attached' });
    expect(await pair.runtime.inspect().store.kv('runtime:paused').list()).toEqual([]);
  });

  it('shows the outbox, the rate budgets over time and what the alert inputs were sent', async () => {
    const sent = await fetch(`${pair.runtime.inspect().url}/alerts/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-alert-token', 'content-type': 'application/json' },
      body: ALERT,
    });
    expect(sent.status).toBe(202);
    await open('alerts');
    await page.locator('#alert-notifications tr', { hasText: 'alerts/alertmanager' }).getByText('202 accepted').waitFor();
    await shoot('alerts');
    await open('rate');
    await page.getByRole('heading', { level: 2, name: 'Token of tenant sandbox' }).waitFor();
    await page.locator('meter').first().waitFor();
    await page.getByRole('heading', { level: 2, name: /Incoming webhook of alerts, target oncall/ }).waitFor();
    await shoot('rate');
    // a post to a wall that does not exist: the platform refuses it, and it waits in the dead letters
    const refused = await runtimePartsOf(pair.runtime).delivery.outbox.enqueue({
      kind: 'post',
      tenant: 'sandbox',
      wallId: 987_654,
      body: 'Release 4.2 is out',
    });
    await open('outbox');
    await page.locator('#outbox tr[data-status="dead"]', { hasText: 'Release 4.2 is out' }).waitFor();
    await page.getByRole('button', { name: `Retry message ${refused.id} to sandbox:wall:987654` }).waitFor();
    await page.getByRole('button', { name: `Drop message ${refused.id} to sandbox:wall:987654` }).waitFor();
    await shoot('outbox');
  });

  it('shows what the ops bot did in the audit log: a failed run marked with its error, new runs live, filters by outcome and bot', async () => {
    const run = (outcome: string, text: string) => page.locator(`#audit tr[data-outcome="${outcome}"]`, { hasText: text });
    await open('audit');
    // the tests above: /oncall answered, /status failed while the status page was down, then done once replayed
    await run('done', '/oncall').first().waitFor();
    const failed = run('failed', '/status').first();
    await failed.getByText('not valid JSON').waitFor();
    expect(await failed.getAttribute('class')).toBe('failed');
    await failed.locator('.badge', { hasText: 'failed' }).waitFor();
    await run('done', '/status').first().waitFor();
    // live: a /deploy, then the answer to its question, appear as they happen
    const post = await pair.platform.employeePost(10, { wall_id: 1, body: '/deploy api staging' });
    await run('done', '/deploy')
      .filter({ hasText: `post ${post.id} on wall 1` })
      .waitFor();
    await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    await pair.platform.employeeComment(10, { post_id: post.id, body: 'yes' });
    await run('done', 'conversation confirm-deploy')
      .filter({ hasText: `comment to post ${post.id}` })
      .waitFor();
    await shoot('audit');
    await page.locator('#filter-outcome').selectOption('failed');
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/audit?outcome=failed');
    await run('failed', '/status').first().waitFor();
    await expect.poll(() => page.locator('#audit tr[data-outcome="done"]').count()).toBe(0);
    await page.locator('#filter-bot').selectOption('ops');
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#/audit?outcome=failed&bot=ops');
    await run('failed', '/status').first().waitFor();
  });

  it('works from the keyboard: a skip link, the sections in order, the focus on the new page', async () => {
    // a fresh load: the focus starts at the top of the document
    await page.goto('about:blank');
    await open('overview');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement?.textContent?.trim()')).toMatch(/^Deliveries/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();
    await expect.poll(() => page.evaluate<string>('document.activeElement?.id')).toBe('page-title');
    expect(await page.evaluate<string>('document.title')).toBe('Deliveries · intrabot console');
  });

  it("passes axe's WCAG 2.1 A and AA checks (labels, names, contrast) on every page, light and dark", async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const name of PAGES) {
        await open(name);
        await page.locator('#page-title').waitFor();
        const violations = await axeViolations(page);
        expect(violations, `${name} (${colorScheme})`).toEqual([]);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('renders no secret: not in any page, not in any answer the page read, not in the live stream', async () => {
    const secrets = await configuredSecrets(pair.runtime);
    for (const name of PAGES) {
      await open(name);
      await page.locator('#page-title').waitFor();
      const html = await page.content();
      for (const secret of secrets) expect(html.includes(secret), `${name} shows a secret`).toBe(false);
    }
    expect(visited.some((v) => v.url.endsWith('/console/api/session'))).toBe(true);
    for (const { url, body } of visited) for (const secret of secrets) expect(body.includes(secret), `${url} holds a secret`).toBe(false);
    const stream = await readStream(`${pair.runtime.inspect().url}/console/api/stream`);
    expect(stream).toContain('"section":"alerts"');
    for (const secret of secrets) expect(stream.includes(secret), 'the stream holds a secret').toBe(false);
  });

  it('ran without a script error, a refused resource or a content-security-policy violation', () => {
    expect(browserErrors).toEqual([]);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('the console outside sandbox mode, in headless Chromium', { timeout: 60_000 }, () => {
  const ADMIN = 'console-admin-token-0123456789';
  let pair: Pair;
  let runtime: Runtime;
  let dataDir: string;
  let browser: Browser;

  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
    dataDir = mkdtempSync(join(tmpdir(), 'intrabot-console-'));
    const env = {
      INTRABOT_BASE_URL: pair.sandbox.baseUrl,
      INTRABOT_TOKEN: pair.sandbox.token,
      INTRABOT_SECRET_KEY: 'console-browser-test-key',
      INTRABOT_DATA_DIR: dataDir,
      INTRABOT_BOTS_DIR: resolve('test/fixtures/bots'),
      INTRABOT_LOG_LEVEL: 'silent',
      INTRABOT_REDIS_URL: '',
      INTRABOT_PORT: '0',
      INTRABOT_ADMIN_TOKEN: ADMIN,
    };
    runtime = await buildRuntime({ config: loadConfig({ env, cwd: dataDir }), clock: new AdjustableClock(), env, only: ['echo'] });
    await runtime.start();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
    await pair?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('asks for the admin token, refuses a wrong one, and keeps the session in a cookie no script can read', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme: 'light' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${runtime.inspect().url}/console/`);
    await page.getByRole('heading', { level: 1, name: 'Sign in to the intrabot console' }).waitFor();
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'wrong admin token' }).waitFor();
    await page.screenshot({ path: join(OUT, 'sign-in.png') });
    await page.getByLabel('Admin token').fill(ADMIN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.live.on').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'intrabot_console', httpOnly: true, sameSite: 'Strict', path: '/console' });
    expect(await page.evaluate<string>("[document.cookie, JSON.stringify(sessionStorage), JSON.stringify(localStorage)].join('')")).not.toContain(ADMIN);
    expect(await page.content()).not.toContain(ADMIN);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to the intrabot console' }).waitFor();
    await context.close();
  });
});

/** Every secret the runtime holds: the tenant's token, stored secrets (signing secrets, webhook URLs), the sandbox's published ones. */
async function configuredSecrets(runtime: Runtime): Promise<string[]> {
  const stored = await Promise.all((await runtime.inspect().store.secrets.names()).map((name) => runtime.inspect().store.secrets.get(name)));
  const tokens = stored.flatMap((value) => (value ? [value, ...(/\/incoming\/([^/?#]+)/.exec(value)?.slice(1) ?? [])] : []));
  const all = [
    ...tokens,
    ...runtime.inspect().config.tenants.map((t) => t.token),
    runtime.inspect().config.secret_key,
    'sandbox-alert-token',
    'sandbox-report-secret',
    'sandbox-proxy-key',
  ];
  return all.filter((s): s is string => typeof s === 'string' && s.length >= 8);
}

/** What a server-sent event stream sends until every section came once. */
async function readStream(url: string): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!PAGES.filter((p) => p !== 'overview').every((section) => text.includes(`"section":"${section}"`))) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  return text;
}
