import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { webhookSecretName } from '../../bots/provision/provision-bot';
import { AdjustableClock, createSystemClock, type Clock } from '../../clock';
import type { RuntimeConfig, TenantConfig } from '../../runtime/config/config';
import { openRuntimeStore } from '../../runtime/start/open-runtime-store';
import { EVENT_NAMES, REPORT_NAMES, isEventName, isReportName, toPlatformEvent, type EventName, type ReportName } from '../../webhooks/events';
import { safeParsePayload } from '../../webhooks/payloads';
import { REPORT_SCHEMAS } from '../../webhooks/report';
import { sign } from '../../webhooks/signature';
import type { CliCommand } from '../command';
import { messageOf, paint, processIo, type CliIo } from '../output';
import { answerMessage, cliConfig, createRuntimeClient, pickTenant, tenantProblem } from '../runtime-client';
import { botManifestFor, reportSecret } from '../trigger/bot-manifest';
import { defaultEventPayload, defaultReportPayload, type DefaultPayload } from '../trigger/default-payload';
import { readFlags } from '../read-flags';

const USAGE = 'trigger <bot> <event|report> [--payload file.json] [--tenant id]';

export interface TriggerDeps extends CliIo {
  /** Default: the sandbox's clock in sandbox mode (it may have been advanced), else the system clock. */
  clock?: Clock;
}

/** An event goes to the bot's webhook endpoint (`/hooks`), a report to its report endpoint (`/reports`). */
type What = { kind: 'event'; name: EventName } | { kind: 'report'; name: ReportName };

interface TriggerArgs {
  bot: string;
  what: What;
  payloadFile: string | undefined;
  tenant: string | undefined;
}

function readArgs(args: string[]): TriggerArgs | string {
  const parsed = readFlags(args, { payload: { type: 'string' }, tenant: { type: 'string' } });
  if (typeof parsed === 'string') return parsed;
  const [bot, name, ...extra] = parsed.positionals;
  if (!bot || !name || extra.length > 0) return 'give a bot and an event (or a report)';
  const what: What | undefined = isEventName(name) ? { kind: 'event', name } : isReportName(name) ? { kind: 'report', name } : undefined;
  if (!what) return `unknown event "${name}"; an event (${EVENT_NAMES.join(', ')}) or a report (${REPORT_NAMES.join(', ')})`;
  return { bot, what, payloadFile: parsed.values.payload, tenant: parsed.values.tenant };
}

/** The file's JSON object (the event's or report's payload). */
function readPayloadFile(file: string, io: CliIo): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(resolve(io.cwd, file), 'utf8'));
  } catch (error) {
    return `--payload ${file}: ${messageOf(error)}`;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `--payload ${file}: must hold a JSON object (the payload)`;
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

async function webhookSecret(config: RuntimeConfig, clock: Clock, env: CliIo['env'], tenant: string, bot: string): Promise<string | undefined> {
  const store = await openRuntimeStore(config, clock, env);
  try {
    return await store.secrets.get(webhookSecretName(tenant, bot));
  } finally {
    await store.close();
  }
}

/**
 * The secret the runtime verifies the delivery with: for an event, the bot's webhook secret from the
 * store (written by provisioning), else the first one configured for it (`webhook_secrets`); for a report, the report's `secret` in the bot's manifest.
 */
async function secretFor(
  args: TriggerArgs,
  config: RuntimeConfig,
  tenant: TenantConfig,
  clock: Clock,
  deps: CliIo,
): Promise<{ secret: string } | { problem: string }> {
  if (args.what.kind === 'report') {
    const manifest = await botManifestFor(config, deps.env, deps.cwd, args.bot, tenant.id);
    return typeof manifest === 'string' ? { problem: manifest } : reportSecret(manifest, args.what.name);
  }
  // a bot whose endpoint is managed outside intrabot has only its configured secrets
  const secret = (await webhookSecret(config, clock, deps.env, tenant.id, args.bot)) ?? tenant.webhook_secrets?.[args.bot]?.[0];
  if (secret !== undefined) return { secret };
  return {
    problem: `no webhook secret for bot "${args.bot}" on tenant ${tenant.id}: is the bot deployed and provisioned? (intrabot start, or intrabot provision)`,
  };
}

async function payloadFor(args: TriggerArgs, config: RuntimeConfig, tenant: TenantConfig, nowMs: number, deps: CliIo): Promise<DefaultPayload | string> {
  if (args.payloadFile) {
    const payload = readPayloadFile(args.payloadFile, deps);
    return typeof payload === 'string' ? payload : { payload, note: undefined };
  }
  if (args.what.kind === 'report') return defaultReportPayload();
  return defaultEventPayload(args.what.name, { config, tenant, env: deps.env, cwd: deps.cwd, bot: args.bot, nowMs });
}

/**
 * Every event but `test` names its entity by `id` (spec: Events): the runtime dedupes by it and
 * answers a post's command under it, so a payload without one would be accepted and then do nothing.
 */
function missingEntityId(what: What, payload: Record<string, unknown>): string | undefined {
  if (what.kind !== 'event' || what.name === 'test') return undefined;
  const id = payload.id;
  if (typeof id === 'number' || (typeof id === 'string' && id !== '')) return undefined;
  return `id is missing: a ${what.name} payload names the entity it is about by its id (spec: Events); the runtime dedupes by it and answers under it`;
}

/** The first way the payload differs from the event's or report's schema, if any. */
function schemaProblem(what: What, payload: Record<string, unknown>): string | undefined {
  const check = what.kind === 'event' ? safeParsePayload(what.name, payload) : REPORT_SCHEMAS[what.name].safeParse(payload);
  if (check.success) return undefined;
  const issue = check.error.issues[0];
  return `${issue?.path.join('.') || 'payload'}: ${issue?.message}`;
}

/**
 * `intrabot trigger`: a delivery signed exactly as the platform signs one (spec: Events, Outgoing
 * webhooks: HMAC-SHA256 over `<Timestamp>.<raw body>` with the endpoint's secret), posted to the
 * running runtime: an event to `/hooks/<tenant>/<bot>`, a report (spec: Outgoing reports) to
 * `/reports/<tenant>/<bot>`. Secrets are read, never printed.
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
  const made = await payloadFor(args, config, tenant, clock.now(), deps);
  if (typeof made === 'string') {
    deps.stderr(`intrabot trigger: ${made}\n`);
    return 2;
  }
  const missingId = missingEntityId(args.what, made.payload);
  if (missingId) {
    deps.stderr(`intrabot trigger: ${args.payloadFile ? `--payload ${args.payloadFile}: ` : ''}${missingId}\n`);
    return 2;
  }
  const problem = schemaProblem(args.what, made.payload);
  if (problem) deps.stderr(`${c.yellow('warning')}: the payload does not match ${args.what.name} (${problem}); sending it anyway\n`);

  const secret = await secretFor(args, config, tenant, clock, deps);
  if ('problem' in secret) {
    deps.stderr(`intrabot trigger: ${secret.problem}\n`);
    return 1;
  }
  if (made.note) deps.stdout(`${c.dim(made.note)}\n`);
  return deliver(deps, { tenant, bot: args.bot, what: args.what, payload: made.payload, secret: secret.secret, clock, sample: !args.payloadFile });
}

interface Delivery {
  tenant: TenantConfig;
  bot: string;
  what: What;
  payload: Record<string, unknown>;
  secret: string;
  clock: Clock;
  /** The payload is the default sample (not `--payload`). */
  sample: boolean;
}

/** Wraps the payload in an envelope (spec: Events, "Envelope"), signs it and posts it; prints the answer. */
async function deliver(deps: CliIo, d: Delivery): Promise<number> {
  const c = paint(deps);
  const nowS = Math.floor(d.clock.now() / 1000);
  const envelope = {
    id: randomUUID(),
    event: toPlatformEvent(d.what.name, d.tenant.event_prefix),
    version: 'v1',
    timestamp: nowS,
    customer: d.tenant.customer ?? d.tenant.id,
    payload: d.payload,
  };
  const body = JSON.stringify(envelope);
  const timestamp = String(nowS);
  const client = createRuntimeClient({ env: deps.env });
  const route = d.what.kind === 'report' ? 'reports' : 'hooks';
  const path = `/${route}/${encodeURIComponent(d.tenant.id)}/${encodeURIComponent(d.bot)}`;
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
    // the sample of post.created names an existing post, which the runtime handles once
    if (d.sample && d.what.name === 'post.created')
      deps.stdout('to see a bot answer again, write a new post on the sandbox, or send another post id with --payload file.json\n');
  }
  return ok ? 0 : 1;
}

export const command: CliCommand = {
  name: 'trigger',
  usage: USAGE,
  summary: 'Send a correctly signed test delivery of an event or report to the running runtime',
  run: (args) => runTrigger(args, processIo()),
};
