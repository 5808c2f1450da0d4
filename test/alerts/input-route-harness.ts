/** A route under test: the alerts plugin on a bare Fastify app, a real SQLite store and a recording `send`. */
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterEach } from 'vitest';
import { alertInputFromManifest } from '../../src/alerts/alert-input';
import type { AlertDeployments, AlertSendMessage } from '../../src/alerts/alert-deployments';
import { AlertInputState } from '../../src/alerts/alert-input-state';
import { registerAlertInputs } from '../../src/alerts/input-route';
import type { SnsFetch } from '../../src/alerts/sns/sns-fetch';
import { BotManifestSchema } from '../../src/bots/manifest';
import { AdjustableClock } from '../../src/clock';
import type { Store } from '../../src/store';
import { createTemplateEngine } from '../../src/templates/template-engine';
import { tempStore } from '../helpers/temp-store';

const TEMPLATES = new URL('../../templates', import.meta.url).pathname;
export const BEARER = { authorization: 'Bearer am-token' };

export const manifest = BotManifestSchema.parse({
  name: 'alerts',
  display_name: 'Alerts',
  targets: { 'ops-wall': { wall: 1 }, oncall: { chat: 2 } },
  alerts: [
    {
      input: 'alertmanager',
      format: 'alertmanager',
      auth: { bearer: 'am-token' },
      targets: ['ops-wall'],
      route: [{ match: { severity: 'critical' }, targets: ['oncall'] }],
    },
    { input: 'grafana', format: 'grafana', auth: { basic: { username: 'grafana', password: 'gf-pass' } }, targets: ['ops-wall'] },
    { input: 'slack', format: 'slack', auth: { query_token: 'slack-token' }, targets: ['ops-wall'] },
    { input: 'kuma', format: 'generic', auth: { bearer: 'kuma-token' }, targets: ['ops-wall'], options: { mapping: 'uptime-kuma' } },
    { input: 'custom', format: 'alertmanager', auth: { bearer: 'am-token' }, targets: ['ops-wall'], template: 'oncall' },
    { input: 'small', format: 'alertmanager', auth: { bearer: 'am-token' }, targets: ['ops-wall'], options: { max_length: 300 } },
    {
      input: 'grafana-signed',
      format: 'grafana',
      auth: { bearer: 'am-token' },
      signing: { secret: 'gf-hmac-secret', timestamp_header: 'X-Grafana-Alerting-Timestamp' },
      targets: ['ops-wall'],
    },
    {
      input: 'sentry',
      format: 'generic',
      auth: { query_token: 'sentry-token' },
      signing: { secret: 'sentry-client-secret' },
      targets: ['ops-wall'],
      options: { mapping: 'sentry' },
    },
    { input: 'sns', format: 'sns', targets: ['ops-wall'], options: { topics: ['arn:aws:sns:eu-west-1:123456789012:intranet-alarms'] } },
  ],
});

export interface Harness {
  app: FastifyInstance;
  store: Store;
  sent: AlertSendMessage[];
  /** The inputs' memory, where the runtime's sender records a firing message's post (`recordPost`). */
  state: AlertInputState;
  clock: AdjustableClock;
  logs: string[];
  /** Make the next `n` calls of `send` throw (after `after` successful ones). */
  failSends(n: number, after?: number): void;
}

const opened: Array<{ app: FastifyInstance; store: Store }> = [];

afterEach(async () => {
  for (const { app, store } of opened.splice(0)) {
    await app.close();
    await store.close();
  }
});

export interface HarnessOptions {
  bodyLimit?: number;
  store?: Store;
  gate?: () => Promise<void>;
  botTemplates?: string;
  /** Why a target cannot receive messages (the runtime answers it from the stored wall listing). */
  targetProblem?: (tenant: string, bot: string, target: string) => Promise<string | undefined>;
  /** Told which bot and tenant each template engine is asked for. */
  onTemplates?: (bot: string, tenant: string) => void;
  /** The GET of SNS certificates and confirmations (`registerAlertInputs({ snsFetch })`). */
  snsFetch?: SnsFetch;
  /** Where the frozen clock stands (default 2026-08-20T09:30:00Z). */
  start?: number;
}

export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = new AdjustableClock({ start: options.start ?? Date.parse('2026-08-20T09:30:00Z'), frozen: true });
  const store = options.store ?? (await tempStore(clock));
  const logs: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (logs.push(chunk.toString()), done()) });
  const app = Fastify({ logger: { level: 'info', stream } });
  if (options.store) opened.unshift({ app, store: { close: async () => undefined } as unknown as Store });
  else opened.push({ app, store });
  const engine = createTemplateEngine({
    dirs: [...(options.botTemplates ? [options.botTemplates] : []), TEMPLATES],
    timezone: 'Europe/Berlin',
    locale: 'en-GB',
  });
  const sent: AlertSendMessage[] = [];
  let failing = { skip: 0, count: 0 };
  const logger = {
    warn: (d: object, m: string) => logs.push(JSON.stringify({ ...d, m })),
    error: (d: object, m: string) => logs.push(JSON.stringify({ ...d, m })),
  };
  const state = new AlertInputState(store);
  // one bot, `alerts`, on every tenant; sends are recorded instead of queued
  const send = async (message: AlertSendMessage): Promise<{ id: string }> => {
    await options.gate?.();
    if (failing.count > 0 && failing.skip-- <= 0) {
      failing.count -= 1;
      throw new Error('outbox unavailable');
    }
    sent.push(message);
    return { id: `entry-${sent.length}` };
  };
  const deployments: AlertDeployments = {
    resolve: (tenant, bot, name) => {
      const input = bot === 'alerts' ? alertInputFromManifest(manifest, name) : undefined;
      if (!input) return undefined;
      return {
        tenant,
        input,
        get templates() {
          options.onTemplates?.(bot, tenant);
          return engine;
        },
        targetProblem: async (target) => options.targetProblem?.(tenant, bot, target),
        send,
      };
    },
  };
  await registerAlertInputs(app, {
    deployments,
    clock,
    state,
    logger,
    defaultTenant: 'sandbox',
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.snsFetch === undefined ? {} : { snsFetch: options.snsFetch }),
  });
  await app.ready();
  return { app, store, sent, state, clock, logs, failSends: (count, after = 0) => (failing = { skip: after, count }) };
}

export function post(h: Harness, path: string, body: unknown, headers: Record<string, string> = BEARER): Promise<LightMyRequestResponse> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return h.app.inject({ method: 'POST', url: path, payload, headers: { 'content-type': 'application/json', ...headers } });
}

export const basic = (user: string, password: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
export const textsTo = (h: Harness, target: string): string[] => h.sent.filter((m) => m.target === target).map((m) => m.text);
