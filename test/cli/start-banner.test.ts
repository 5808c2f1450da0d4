import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRun } from '../../src/cli/commands/run';
import { ALERT_SAMPLE, DELIVERIES_WHILE_STARTING, bannerInput, bannerText, type BannerInput } from '../../src/cli/start-banner';
import { startPair, type Pair } from '../../src/testing';
import { captureIo } from './cli-io';

const SANDBOX = { baseUrl: 'http://127.0.0.1:4010', token: 'svc_sandbox_token', dataDir: '.intrabot' };
const input = (over: Partial<BannerInput> = {}): BannerInput => ({
  url: 'http://127.0.0.1:3000',
  bots: ['alerts', 'birthday', 'ops'],
  notLoaded: [],
  skipped: [],
  switchedOff: [],
  sandbox: SANDBOX,
  ...over,
});
const tryLines = (text: string): string[] => text.split('\n').slice(text.split('\n').indexOf('Try:') + 1);

describe('the start banner (bannerText)', () => {
  it("suggests each bot's command only when that bot is deployed", () => {
    const all = bannerText(input());
    expect(all).toContain('"body":"/oncall"');
    expect(all).toContain('npx intrabot run birthday greet');
    expect(all).toContain('/alerts/alerts/alertmanager');

    const onlyOps = bannerText(input({ bots: ['ops'] }));
    expect(onlyOps).toContain('"body":"/oncall"');
    expect(onlyOps).not.toContain('birthday');
    expect(onlyOps).not.toContain('alertmanager');
  });

  it('advertises no bot when none is deployed: no bot command, "bots: none", nothing about what bots posted', () => {
    const text = bannerText(input({ bots: [] }));
    expect(text.split('\n')[0]).toBe('intrabot runtime on http://127.0.0.1:3000  (bots: none)');
    for (const word of ['/oncall', 'intrabot run ', 'alertmanager', 'what the bots posted']) expect(text).not.toContain(word);
    // what needs no bot is still there: the console and the proxy
    expect(tryLines(text).join('\n')).toContain('in a browser: http://127.0.0.1:3000/console/');
  });

  it('leaves out the command of a bot provisioning switched off, and says why it is off', () => {
    const text = bannerText(input({ switchedOff: [{ tenant: 'sandbox', name: 'birthday', reason: 'the token lacks read:users' }] }));
    expect(text).toContain('  switched off on sandbox: birthday: the token lacks read:users\n');
    expect(text).not.toContain('intrabot run birthday');
  });

  it('lists the bots skipped and not loaded, each with why', () => {
    const text = bannerText(
      input({
        sandbox: undefined,
        bots: [],
        skipped: [{ name: 'birthday', reason: 'example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it' }],
        notLoaded: [{ name: 'kudos', reason: 'bots/kudos/bot.yaml:3 events.0: unknown event' }],
      }),
    );
    expect(text).toBe(
      [
        'intrabot runtime on http://127.0.0.1:3000  (bots: none)',
        '  not loaded: kudos: bots/kudos/bot.yaml:3 events.0: unknown event',
        '  skipped: birthday: example bot, not enabled: set INTRABOT_BOTS=birthday to deploy it',
        '',
      ].join('\n'),
    );
  });

  // issue #24, item 1: a restart waits for the rate budget, and nothing said deliveries were kept meanwhile
  it('says deliveries are accepted while the bots are provisioned, and where to see the progress', () => {
    expect(bannerText(input()).split('\n')[1]).toBe(`  ${DELIVERIES_WHILE_STARTING} (http://127.0.0.1:3000/readyz shows the progress)`);
    expect(bannerText(input({ bots: [] }))).not.toContain(DELIVERIES_WHILE_STARTING);
  });

  it('shows the data dir the sandbox keeps its state in, not a fixed .intrabot/', () => {
    const text = bannerText(input({ sandbox: { ...SANDBOX, dataDir: '/var/lib/intrabot' } }));
    expect(text).toContain('state in /var/lib/intrabot)');
    expect(text).not.toContain('.intrabot');
  });

  it('uses no platform-specific command to open a page: it says "in a browser"', () => {
    const text = bannerText(input());
    expect(text).not.toMatch(/^\s*(open|xdg-open|start) /m);
    expect(text).toContain('in a browser: http://127.0.0.1:3000/docs');
  });

  it("tells a second terminal the runtime's port when it is not the CLI's default", () => {
    expect(bannerText(input())).toContain('\n  npx intrabot run birthday greet\n');
    expect(bannerText(input({ url: 'http://127.0.0.1:3001' }))).toContain('\n  INTRABOT_PORT=3001 npx intrabot run birthday greet\n');
  });
});

describe('the start banner of a running runtime (bannerInput)', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ bots: ['ops', 'birthday', 'alerts'] });
  });
  afterAll(async () => {
    await pair?.close();
  });

  const text = () => bannerText(bannerInput(pair.runtime.inspect().url!, pair.runtime, pair.sandbox, resolve('.')));

  it('names the bots the runtime deployed and the data dir it was given', () => {
    expect(text().split('\n')[0]).toBe(`intrabot runtime on ${pair.runtime.inspect().url}  (bots: alerts, birthday, ops)`);
    expect(text()).toContain(`state in ${pair.runtime.inspect().config.data_dir})`);
  });

  it('suggests an `intrabot run` that reaches this runtime from a terminal with nothing else set', async () => {
    const line = text()
      .split('\n')
      .find((l) => l.includes('npx intrabot run birthday greet'))!
      .trim();
    // the runtime listens on a port of the OS's choice: the line must carry it
    const env = Object.fromEntries(
      line
        .split(' npx ')[0]!
        .split(' ')
        .filter((part) => part.includes('='))
        .map((part) => part.split('=') as [string, string]),
    );
    expect(env).toEqual({ INTRABOT_PORT: new URL(pair.runtime.inspect().url!).port });
    const io = captureIo(env);
    expect(await runRun(['birthday', 'greet'], io), io.err).toBe(0);
    expect(io.out).toContain('through the running runtime');
  });

  it("posts an alert the alerts bot accepts with the banner's sample", async () => {
    const res = await fetch(`${pair.runtime.inspect().url}/alerts/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-alert-token', 'content-type': 'application/json' },
      body: JSON.stringify(ALERT_SAMPLE),
    });
    expect(res.status, await res.text()).toBeLessThan(300);
    expect(text()).toContain(`-d '${JSON.stringify(ALERT_SAMPLE)}'`);
  });
});
