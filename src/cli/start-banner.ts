import { isAbsolute, relative } from 'node:path';
import { SANDBOX_ALERT_TOKEN } from '../alerts/alert-input';
import { SANDBOX_PROXY_KEY } from '../proxy/proxy-keys';
import type { Runtime } from '../runtime/build-runtime';
import type { Sandbox } from '../sandbox/sandbox';

/** The port `intrabot run` and the other CLI commands reach the runtime on when `INTRABOT_PORT` is not set. */
const CLI_DEFAULT_PORT = 3000;

/** A small Alertmanager notification the banner suggests posting (one firing warning). */
export const ALERT_SAMPLE = {
  version: '4',
  groupKey: 'banner-demo',
  status: 'firing',
  alerts: [{ status: 'firing', labels: { alertname: 'DiskAlmostFull', severity: 'warning' }, annotations: { summary: 'Disk almost full on db-1' } }],
};

/** What happens to deliveries before a (re)start has provisioned every bot. */
export const DELIVERIES_WHILE_STARTING = 'deliveries are accepted while bots are provisioned at start, and handled once that is done';

/** What the banner says, gathered from the runtime (and the sandbox) once it listens. */
export interface BannerInput {
  /** Where the runtime listens. */
  url: string;
  /** The bots loaded and deployed (to some tenant; `switchedOff` says where provisioning switched one off). */
  bots: readonly string[];
  /** Bots present whose manifest or module failed to load. */
  notLoaded: readonly { name: string; reason: string }[];
  /** Bots deliberately left out (examples in connected mode, bots not in `INTRABOT_BOTS`). */
  skipped: readonly { name: string; reason: string }[];
  /** Bots provisioning switched off on a tenant (missing scopes...). */
  switchedOff: readonly { tenant: string; name: string; reason: string }[];
  /** In sandbox mode: the emulated platform, and where its state is kept (as the user would type it). */
  sandbox?: { baseUrl: string; token: string; dataDir: string };
}

/**
 * What `intrabot start` prints once the runtime listens: its URL and bots, the bots not loaded,
 * switched off or skipped (and why), and in sandbox mode what to try. A "Try" line that needs a bot
 * is there only when that bot is deployed, and each command works as printed, from a second terminal
 * too (`INTRABOT_PORT=... npx intrabot run ...` when the runtime is not on the CLI's default port).
 *
 * @example
 * bannerText({ url: 'http://127.0.0.1:3000', bots: [], notLoaded: [], skipped: [], switchedOff: [] })
 * // => 'intrabot runtime on http://127.0.0.1:3000  (bots: none)\n'
 */
export function bannerText(input: BannerInput): string {
  const lines = [`intrabot runtime on ${input.url}  (bots: ${input.bots.join(', ') || 'none'})`];
  // a restart provisions again, waiting for the rate budget when it is spent: nothing sent meanwhile is lost
  if (input.bots.length > 0) lines.push(`  ${DELIVERIES_WHILE_STARTING} (${input.url}/readyz shows the progress)`);
  for (const bot of input.notLoaded) lines.push(`  not loaded: ${bot.name}: ${bot.reason}`);
  for (const bot of input.switchedOff) lines.push(`  switched off on ${bot.tenant}: ${bot.name}: ${bot.reason}`);
  for (const bot of input.skipped) lines.push(`  skipped: ${bot.name}: ${bot.reason}`);
  if (input.sandbox) lines.push(...sandboxLines(input, input.sandbox));
  return `${lines.join('\n')}\n`;
}

function sandboxLines(input: BannerInput, sandbox: NonNullable<BannerInput['sandbox']>): string[] {
  const { url } = input;
  const s = sandbox.baseUrl;
  const off = new Set(input.switchedOff.map((bot) => bot.name));
  const has = (bot: string): boolean => input.bots.includes(bot) && !off.has(bot);
  const lines = [`sandbox platform on ${s}  (token: ${sandbox.token}; state in ${sandbox.dataDir})`, '', 'Try:'];
  lines.push(
    `  # the playground: the intranet as employees see it; act as anyone, talk to the bots, move the clock`,
    `  in a browser: ${s}/`,
    `  # the web console: bots, deliveries as they happen, the outbox, rate budgets, jobs, alert inputs`,
    `  in a browser: ${url}/console/`,
  );
  if (has('ops')) {
    lines.push(
      `  # an employee asks the ops bot who is on call; the answer is a comment on that post`,
      `  curl -s -X POST ${s}/_sandbox/users/10/posts -H 'content-type: application/json' -d '{"wall_id":1,"body":"/oncall"}'`,
    );
  }
  if (has('birthday')) lines.push(`  # greet today's birthdays now (the demo data has some)`, `  ${cliEnv(url)}npx intrabot run birthday greet`);
  if (has('alerts')) {
    lines.push(
      `  # forward an Alertmanager alert to the Operations wall`,
      `  curl -s ${url}/alerts/alerts/alertmanager -H 'Authorization: Bearer ${SANDBOX_ALERT_TOKEN}' -H 'content-type: application/json' -d '${JSON.stringify(ALERT_SAMPLE)}'`,
    );
  }
  lines.push(
    `  # the platform API through the proxy, and its reference`,
    `  curl -s -H 'Authorization: Bearer ${SANDBOX_PROXY_KEY}' ${url}/api/open/v1/walls`,
    `  in a browser: ${url}/docs`,
  );
  if (input.bots.length > 0) lines.push(`  # what the bots posted on the Company wall`, `  curl -s ${s}/_sandbox/walls/1/posts`);
  return lines;
}

/** The environment a second terminal's CLI needs to reach this runtime: its port, unless it is the default. */
function cliEnv(url: string): string {
  const port = new URL(url).port;
  return port === '' || Number(port) === CLI_DEFAULT_PORT ? '' : `INTRABOT_PORT=${port} `;
}

/** The banner's input, read from a runtime that listens (and the sandbox beside it, in sandbox mode). */
export function bannerInput(url: string, runtime: Runtime, sandbox: Sandbox | undefined, cwd = process.cwd()): BannerInput {
  const seen = runtime.inspect();
  const switchedOff = seen.provisionResults.flatMap((result) =>
    Object.values(result.bots)
      .filter((bot) => !bot.enabled)
      .map((bot) => ({ tenant: result.tenant, name: bot.name, reason: bot.reason ?? '' })),
  );
  const deployed = new Set(seen.deployments.map((d) => d.bot));
  return {
    url,
    bots: seen.bots.map((b) => b.name).filter((name) => deployed.has(name)),
    notLoaded: seen.failures.map((f) => ({ name: f.name ?? f.dir, reason: f.error.message })),
    skipped: seen.skipped.map((s) => ({ name: s.name, reason: s.reason })),
    switchedOff,
    ...(sandbox ? { sandbox: { baseUrl: sandbox.baseUrl, token: sandbox.token, dataDir: shown(seen.config.data_dir, cwd) } } : {}),
  };
}

/** A folder as the user would type it: relative when it is under the working directory. */
function shown(dir: string, cwd: string): string {
  const rel = relative(cwd, dir);
  if (rel === '') return '.';
  return rel.startsWith('..') || isAbsolute(rel) ? dir : rel;
}

/** Prints the banner (`intrabot start`). */
export function printBanner(url: string, runtime: Runtime, sandbox: Sandbox | undefined): void {
  process.stdout.write(bannerText(bannerInput(url, runtime, sandbox)));
}
