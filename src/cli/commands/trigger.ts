import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { webhookSecretName } from '../../bots/provision/provision-bot';
import { AdjustableClock, createSystemClock, type Clock } from '../../clock';
import type { RuntimeConfig, TenantConfig } from '../../runtime/config';
import { openRuntimeStore } from '../../runtime/open-runtime-store';
import { EVENT_NAMES, isEventName, toPlatformEvent, type EventName } from '../../webhooks/events';
import { safeParsePayload } from '../../webhooks/payloads';
import { sign } from '../../webhooks/signature';
import type { CliCommand } from '../command';
import { messageOf, paint, processIo, type CliIo } from '../output';
import { answerMessage, cliConfig, createRuntimeClient, pickTenant, tenantProblem } from '../runtime-client';

const USAGE = 'trigger <bot> <event> [--payload file.json] [--tenant id]';

export interface TriggerDeps extends CliIo {
  /** Default: the sandbox's clock in sandbox mode (it may have been advanced), else the system clock. */
  clock?: Clock;
}

interface TriggerArgs {
  bot: string;
  event: EventName;
  payloadFile: string | undefined;
  tenant: string | undefined;
}

const ADA = { id: 10, name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const GROUP = { id: 2, name: 'Engineering', type: 'department', is_manager: false };
const ANNOUNCEMENT = { id: 7, title: 'New office hours', body: 'From Monday the office opens at 8.', author: ADA, is_published: true, is_confirmable: true };

/**
 * A plausible payload of each event (spec: Events), for trying a handler without the platform: ids
 * are made up, so a handler that looks them up may find nothing; `--payload` sends a real one. The
 * entity's own id is fresh each time: the runtime dedupes by event and entity id, so a fixed one would
 * be handled once only.
 */
export function samplePayload(event: EventName, nowMs: number, id = randomInt(900_000, 1_000_000)): Record<string, unknown> {
  const at = new Date(nowMs).toISOString().replace('Z', '+00:00');
  const comment = { id, body: '/help', post_id: 301, wall_id: 1, author: ADA, created_at: at, updated_at: at };
  const response = { id, form_id: 4, status: 'submitted', created_at: at, updated_at: at };
  const samples: Record<EventName, Record<string, unknown>> = {
    'post.created': { id, body: '/help', wall_id: 1, wall_name: 'Company', author: { id: ADA.id, name: ADA.name, email: ADA.email }, created_at: at, updated_at: at },
    'comment.created': comment,
    'comment.updated': comment,
    'comment.deleted': { id: comment.id, post_id: comment.post_id, wall_id: comment.wall_id },
    'announcement.published': { ...ANNOUNCEMENT, groups: [GROUP], published_at: at },
    'announcement.confirmed': { id, employee: ADA, announcement: ANNOUNCEMENT, confirmed_at: at, created_at: at },
    'formresponse.created': response,
    'formresponse.updated': { ...response, deleted_at: null },
    'formresponse.comment.created': { id, body: 'Thanks, looking into it', form_response_id: response.id, author: ADA, created_at: at },
    'formresponse.comment.deleted': { id, form_response_id: response.id },
    'formresponse.alarm_triggered': { id: response.id, form_id: response.form_id },
    'user.registered': { ...ADA, groups: [GROUP], registered_at: at, created_at: at },
    'onboarding.completed': { id: ADA.id, user: ADA, onboarding_completed_at: at },
    'achievement.awarded': {
      id,
      awarded_at: at,
      is_manually_added: true,
      user: ADA,
      achievement: { id: 3, title: 'Team player', emoji: '🤝', type: 'custom', visibility: 'public' },
      created_at: at,
      updated_at: at,
    },
    test: {},
  };
  return samples[event];
}

function readArgs(args: string[]): TriggerArgs | string {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: { payload: { type: 'string' }, tenant: { type: 'string' } } });
  } catch (error) {
    return messageOf(error);
  }
  const [bot, event, ...extra] = parsed.positionals;
  if (!bot || !event || extra.length > 0) return 'give a bot and an event';
  if (!isEventName(event)) return `unknown event "${event}"; one of: ${EVENT_NAMES.join(', ')}`;
  return { bot, event, payloadFile: parsed.values.payload, tenant: parsed.values.tenant };
}

/** The payload to send: the file's JSON object, or a plausible sample of the event. */
function payloadFor(args: TriggerArgs, io: CliIo, nowMs: number): Record<string, unknown> | string {
  if (!args.payloadFile) return samplePayload(args.event, nowMs);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(resolve(io.cwd, args.payloadFile), 'utf8'));
  } catch (error) {
    return `--payload ${args.payloadFile}: ${messageOf(error)}`;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `--payload ${args.payloadFile}: must hold a JSON object (the event's payload)`;
  return value as Record<string, unknown>;
}

/** In sandbox mode the runtime shares the sandbox's clock, which may have been moved: sign on its time. */
async function clockFor(config: RuntimeConfig, tenant: TenantConfig): Promise<Clock> {
  const system = createSystemClock();
  if (config.mode !== 'sandbox') return system;
  try {
    const res = await fetch(`${tenant.base_url}/_sandbox/clock`, { signal: AbortSignal.timeout(2_000) });
    const { epoch_ms: at } = (await res.json()) as { epoch_ms?: number };
    if (typeof at !== 'number') return system;
    return new AdjustableClock({ start: at });
  } catch {
    return system;
  }
}

async function readSecret(config: RuntimeConfig, clock: Clock, env: CliIo['env'], tenant: string, bot: string): Promise<string | undefined> {
  const store = await openRuntimeStore(config, clock, env);
  try {
    return await store.secrets.get(webhookSecretName(tenant, bot));
  } finally {
    await store.close();
  }
}

/**
 * `intrabot trigger`: a delivery signed exactly as the platform signs one (spec: Events, Outgoing
 * webhooks: HMAC-SHA256 over `<Timestamp>.<raw body>` with the endpoint's secret), posted to the
 * running runtime's `/hooks/<tenant>/<bot>`. The secret is read from the store, never printed.
 */
export async function runTrigger(argv: string[], deps: TriggerDeps): Promise<number> {
  const c = paint(deps);
  const args = readArgs(argv);
  if (typeof args === 'string') {
    deps.stderr(`intrabot trigger: ${args}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const config = cliConfig(deps, 'trigger');
  if (!config) return 1;
  const tenant = pickTenant(config, args.tenant);
  if (!tenant) {
    deps.stderr(`intrabot trigger: ${tenantProblem(config, args.tenant)}\n`);
    return 2;
  }
  const clock = deps.clock ?? (await clockFor(config, tenant));
  const payload = payloadFor(args, deps, clock.now());
  if (typeof payload === 'string') {
    deps.stderr(`intrabot trigger: ${payload}\n`);
    return 2;
  }
  const check = safeParsePayload(args.event, payload);
  if (!check.success) deps.stderr(`${c.yellow('warning')}: the payload does not match ${args.event} (${check.error.issues[0]?.path.join('.') || 'payload'}: ${check.error.issues[0]?.message}); sending it anyway\n`);

  const secret = await readSecret(config, clock, deps.env, tenant.id, args.bot);
  if (secret === undefined) {
    deps.stderr(`intrabot trigger: no webhook secret for bot "${args.bot}" on tenant ${tenant.id}: is the bot deployed and provisioned? (intrabot start, or intrabot provision)\n`);
    return 1;
  }
  return deliver(deps, { tenant, bot: args.bot, event: args.event, payload, secret, clock });
}

interface Delivery {
  tenant: TenantConfig;
  bot: string;
  event: EventName;
  payload: Record<string, unknown>;
  secret: string;
  clock: Clock;
}

/** Wraps the payload in an envelope (spec: Events, "Envelope"), signs it and posts it; prints the answer. */
async function deliver(deps: CliIo, d: Delivery): Promise<number> {
  const c = paint(deps);
  const nowS = Math.floor(d.clock.now() / 1000);
  const envelope = { id: randomUUID(), event: toPlatformEvent(d.event, d.tenant.event_prefix), version: 'v1', timestamp: nowS, customer: d.tenant.customer ?? d.tenant.id, payload: d.payload };
  const body = JSON.stringify(envelope);
  const timestamp = String(nowS);
  const client = createRuntimeClient({ env: deps.env });
  const path = `/hooks/${encodeURIComponent(d.tenant.id)}/${encodeURIComponent(d.bot)}`;
  deps.stdout(`POST ${client.baseUrl}${path}  ${envelope.event}  delivery ${envelope.id}\n`);
  const answer = await client.request('POST', path, { body, headers: { signature: sign(d.secret, timestamp, body), timestamp } });
  if (!answer.reachable) {
    deps.stderr(`intrabot trigger: no runtime is listening on ${client.baseUrl}; start it with \`intrabot start\` (or set INTRABOT_PORT)\n`);
    return 1;
  }
  const ok = answer.status >= 200 && answer.status < 300;
  const shown = ok ? JSON.stringify(answer.body) : answerMessage(answer.body);
  deps.stdout(`${ok ? c.green(String(answer.status)) : c.red(String(answer.status))} ${shown}\n`);
  if ((answer.body as { duplicate?: boolean } | undefined)?.duplicate) {
    deps.stdout('the runtime had already seen this event (same delivery, or same event and entity id): it was acknowledged, not handled again\n');
  }
  return ok ? 0 : 1;
}

export const command: CliCommand = {
  name: 'trigger',
  usage: USAGE,
  summary: 'Send a correctly signed test delivery of an event to the running runtime',
  run: (args) => runTrigger(args, processIo()),
};
