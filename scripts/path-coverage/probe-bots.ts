import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The bearer token of the probe's alert input (given to the runtime as `PROBE_ALERT_TOKEN`). */
export const PROBE_ALERT_TOKEN = 'path-coverage-probe-alert-token';

/** The wall the ticker and the alerter post to, by name (the demo seed has it). */
export const PROBE_TARGET_WALL = 'Engineering';

/**
 * One bot per path, each doing the least its path needs, so a window holds one path only:
 * - `pinger` answers `/ping` with a comment; it subscribes to `post.created` on one wall alone (a
 *   platform-side filter), so the posts the other two make fire no delivery into the runtime;
 * - `ticker` posts once an hour (`0 * * * *`), from a cron slot;
 * - `alerter` forwards an Alertmanager input to the same wall, with no code of its own.
 * They import the framework by the path of its sources, as the repository's test fixtures do.
 */
export function writeProbeBots(botsDir: string, srcDir: string, pingWallId: number): void {
  const framework = JSON.stringify(pathToFileURL(join(srcDir, 'index.ts')).href);
  writeBot(botsDir, 'pinger', {
    manifest: ['name: pinger', 'display_name: Path Probe Pinger', `events: [{ event: post.created, walls: [${pingWallId}] }]`, 'reply: comment'],
    code: `export default defineBot({ commands: { ping: async (_cmd, ctx) => ctx.reply('pong') } });`,
    framework,
  });
  writeBot(botsDir, 'ticker', {
    manifest: [
      'name: ticker',
      'display_name: Path Probe Ticker',
      'schedules: [{ job: tick, cron: "0 * * * *" }]',
      `targets: { team: { wall: ${PROBE_TARGET_WALL} } }`,
    ],
    code: `export default defineBot({ jobs: { tick: async (ctx) => ctx.post('team', 'tick') } });`,
    framework,
  });
  writeBot(botsDir, 'alerter', {
    manifest: [
      'name: alerter',
      'display_name: Path Probe Alerter',
      `targets: { team: { wall: ${PROBE_TARGET_WALL} } }`,
      'alerts: [{ input: alertmanager, format: alertmanager, auth: { bearer: "${env:PROBE_ALERT_TOKEN}" }, targets: [team] }]',
    ],
    code: 'export default defineBot({});',
    framework,
  });
}

function writeBot(botsDir: string, name: string, bot: { manifest: string[]; code: string; framework: string }): void {
  const dir = join(botsDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bot.yaml'), `${bot.manifest.join('\n')}\n`);
  writeFileSync(join(dir, 'index.ts'), `import { defineBot } from ${bot.framework};\n\n${bot.code}\n`);
}
