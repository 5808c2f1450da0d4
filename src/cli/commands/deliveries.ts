import { createSystemClock, type Clock } from '../../clock';
import type { RuntimeConfig } from '../../runtime/config/config';
import { withRuntimeStore } from '../../runtime/start/open-runtime-store';
import { DELIVERY_LOG_SPACE, DELIVERY_LOG_TTL_MS, DeliveryLog, type HandledDelivery } from '../../runtime/ingest/delivery-log';
import type { InboxEntry } from '../../store/inbox';
import type { AuditRecord } from '../../bots/audit-log';
import { AUDIT_TRAIL_SPACE, AuditTrail } from '../../runtime/ingest/audit-trail';
import type { Store } from '../../store/store';
import type { CliCommand } from '../command';
import { messageOf, paint, processIo, table, type CliIo } from '../output';
import { adminRefusal, answerMessage, cliConfig, createRuntimeClient } from '../runtime-client';
import { tenantTimeZone, zonedTime } from '../time';
import { readFlags } from '../read-flags';

const USAGE = 'deliveries [--dead | --handled | --audit] [--json] [--limit N] | deliveries replay <id>';

export interface DeliveriesDeps extends CliIo {
  clock?: Clock;
}

type DeliveriesArgs =
  | { kind: 'list'; dead: boolean; json: boolean; limit: number }
  | { kind: 'handled'; json: boolean; limit: number }
  | { kind: 'audit'; json: boolean; limit: number }
  | { kind: 'replay'; id: string };

function readArgs(args: string[]): DeliveriesArgs | string {
  const parsed = readFlags(args, {
    dead: { type: 'boolean' },
    handled: { type: 'boolean' },
    audit: { type: 'boolean' },
    json: { type: 'boolean' },
    limit: { type: 'string' },
  });
  if (typeof parsed === 'string') return parsed;
  const [verb, id, ...extra] = parsed.positionals;
  if (verb === 'replay') return id && extra.length === 0 ? { kind: 'replay', id } : 'replay needs exactly one delivery id';
  if (verb !== undefined) return `unknown argument "${verb}"`;
  const limit = parsed.values.limit === undefined ? 50 : Number(parsed.values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) return '--limit: a whole number from 1 to 1000';
  if ([parsed.values.dead, parsed.values.handled, parsed.values.audit].filter(Boolean).length > 1) return '--dead, --handled and --audit: one at a time';
  if (parsed.values.handled) return { kind: 'handled', json: parsed.values.json ?? false, limit };
  if (parsed.values.audit) return { kind: 'audit', json: parsed.values.json ?? false, limit };
  return { kind: 'list', dead: parsed.values.dead ?? false, json: parsed.values.json ?? false, limit };
}

function eventOf(entry: InboxEntry): string {
  const envelope = entry.payload.envelope as { event?: unknown } | null;
  return entry.payload.event ?? (typeof envelope?.event === 'string' ? envelope.event : '-');
}

/**
 * Deliveries as a table; the error column is cut short (the full text is in `--json`). RECEIVED is
 * in the zone `zoneOf` gives for the entry's tenant, with its offset.
 */
export function renderDeliveries(entries: readonly InboxEntry[], dead: boolean, io: CliIo, zoneOf: (tenant: string) => string): string {
  const c = paint(io);
  if (entries.length === 0) {
    return dead
      ? 'No dead letters: every delivery was handled or is still being retried.\n'
      : 'No deliveries waiting: every delivery received so far was handled. See what the bots did with --handled, failures with --dead.\n';
  }
  const rows = entries.map((e) => [
    e.id,
    e.payload.tenant,
    e.payload.bot,
    eventOf(e),
    e.state,
    String(e.attempts),
    zonedTime(e.enqueuedAt, zoneOf(e.payload.tenant)),
    // an entry the runtime cannot read says why (it goes dead with that reason when next taken)
    (e.deadReason ?? e.unreadable ?? e.lastError ?? '').replace(/\s+/g, ' ').slice(0, 80),
  ]);
  const text = table(['ID', 'TENANT', 'BOT', 'EVENT', 'STATE', 'TRIES', 'RECEIVED', dead ? 'REASON' : 'LAST ERROR'], rows);
  const hint = dead ? `\n${c.dim('Replay one with: intrabot deliveries replay <id>')}\n` : '';
  return `${dead ? c.red(`${entries.length} dead letter(s)`) : `${entries.length} delivery(ies) waiting or in progress`}\n${text}${hint}`;
}

/**
 * `intrabot deliveries`: what the inbox holds (deliveries waiting or being handled, or with `--dead`
 * the ones whose handler failed after its retries) and `replay <id>` to hand one to the bot again.
 * Through the running runtime's admin routes; with no runtime up, straight from the store.
 */
export async function runDeliveries(argv: string[], deps: DeliveriesDeps): Promise<number> {
  const args = readArgs(argv);
  if (typeof args === 'string') {
    deps.stderr(`intrabot deliveries: ${args}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const config = cliConfig(deps, 'deliveries');
  if (!config) return 1;
  const client = createRuntimeClient({ env: deps.env });
  try {
    if (args.kind === 'replay') return await replay(args.id, deps, config, client);
    const zoneOf = (tenant: string): string => tenantTimeZone(config, tenant);
    if (args.kind === 'audit') {
      const fromStore = () => withStore(config, deps, (store) => new AuditTrail(store.kv(AUDIT_TRAIL_SPACE)).recent(args.limit));
      return await history('audit', args, deps, client, fromStore, (entries) => renderAudit(entries, deps, zoneOf));
    }
    if (args.kind === 'handled') {
      const clock = deps.clock ?? createSystemClock();
      const fromStore = () => withStore(config, deps, (store) => new DeliveryLog(store.kv(DELIVERY_LOG_SPACE), clock).recent(args.limit));
      return await history('handled', args, deps, client, fromStore, (entries) => renderHandled(entries, deps, zoneOf));
    }
    return await list(args, deps, config, client);
  } catch (error) {
    deps.stderr(`intrabot deliveries: ${messageOf(error)}\n`);
    return 1;
  }
}

async function list(
  args: Extract<DeliveriesArgs, { kind: 'list' }>,
  deps: DeliveriesDeps,
  config: RuntimeConfig,
  client: ReturnType<typeof createRuntimeClient>,
): Promise<number> {
  const state = args.dead ? 'dead' : 'live';
  const answer = await client.request<{ data?: InboxEntry[] }>('GET', `/_admin/deliveries?state=${state}&limit=${args.limit}`);
  let entries: InboxEntry[];
  if (answer.reachable) {
    if (answer.status !== 200) return refused(deps, answer.status, answer.body);
    entries = answer.body?.data ?? [];
  } else {
    entries = (await withStore(config, deps, (store) => store.inbox.list({ state, limit: args.limit }))) ?? [];
  }
  deps.stdout(args.json ? `${JSON.stringify(entries, null, 2)}\n` : renderDeliveries(entries, args.dead, deps, (tenant) => tenantTimeZone(config, tenant)));
  return 0;
}

/**
 * One of the runtime's recent histories, newest first: through its admin route when the runtime is up,
 * else read from the store. `handled` is the delivery log (src/runtime/ingest/delivery-log.ts): what each bot
 * did with a delivery, or why it ignored it; `audit` what bots using the `auditLog` middleware did
 * (src/runtime/ingest/audit-trail.ts).
 */
async function history<T>(
  state: 'handled' | 'audit',
  args: { json: boolean; limit: number },
  deps: DeliveriesDeps,
  client: ReturnType<typeof createRuntimeClient>,
  fromStore: () => Promise<T[] | undefined>,
  render: (entries: T[]) => string,
): Promise<number> {
  const answer = await client.request<{ data?: T[] }>('GET', `/_admin/deliveries?state=${state}&limit=${args.limit}`);
  let entries: T[];
  if (answer.reachable) {
    if (answer.status !== 200) return refused(deps, answer.status, answer.body);
    entries = answer.body?.data ?? [];
  } else {
    entries = (await fromStore()) ?? [];
  }
  deps.stdout(args.json ? `${JSON.stringify(entries, null, 2)}\n` : render(entries));
  return 0;
}

/** Handled deliveries as a table, newest first; an ignored one says why in DETAIL. */
export function renderHandled(entries: readonly HandledDelivery[], io: CliIo, zoneOf: (tenant: string) => string): string {
  const c = paint(io);
  const ignored = entries.filter((e) => e.outcome === 'ignored').length;
  if (entries.length === 0) return `No delivery handled in the last ${DELIVERY_LOG_TTL_MS / 3_600_000} hours.\n`;
  const rows = entries.map((e) => [
    zonedTime(e.at, zoneOf(e.tenant)),
    e.tenant,
    e.bot,
    e.event + (e.recovered ? ' (recovered)' : ''),
    e.outcome,
    e.detail.replace(/\s+/g, ' ').slice(0, 80),
    `${e.durationMs} ms`,
  ]);
  const summary = `${entries.length} delivery(ies) handled, newest first${ignored ? `; ${c.yellow(`${ignored} ignored`)} (DETAIL says why)` : ''}`;
  return `${summary}\n${table(['HANDLED', 'TENANT', 'BOT', 'EVENT', 'OUTCOME', 'DETAIL', 'TOOK'], rows)}`;
}

/** Audit records as a table, newest first. */
export function renderAudit(entries: readonly AuditRecord[], io: CliIo, zoneOf: (tenant: string) => string): string {
  const c = paint(io);
  if (entries.length === 0) return 'No audit records: a bot records its runs when it uses the auditLog middleware (docs/middleware.md).\n';
  const failed = entries.filter((e) => e.outcome === 'failed').length;
  const rows = entries.map((e) => [
    zonedTime(e.at, zoneOf(e.tenant)),
    e.tenant,
    e.bot,
    e.who ? `${e.who.name} (${e.who.id})` : '-',
    e.what,
    e.where ?? '-',
    e.outcome === 'failed' ? `failed: ${(e.error ?? '').slice(0, 60)}` : e.did.join('; ').slice(0, 80) || 'nothing sent',
  ]);
  const summary = `${entries.length} run(s), newest first${failed ? `; ${c.red(`${failed} failed`)}` : ''}`;
  return `${summary}\n${table(['AT', 'TENANT', 'BOT', 'WHO', 'WHAT', 'WHERE', 'DID'], rows)}`;
}

async function replay(id: string, deps: DeliveriesDeps, config: RuntimeConfig, client: ReturnType<typeof createRuntimeClient>): Promise<number> {
  const c = paint(deps);
  const answer = await client.request('POST', `/_admin/deliveries/${encodeURIComponent(id)}/replay`);
  if (answer.reachable) {
    if (answer.status !== 200) return refused(deps, answer.status, answer.body);
    deps.stdout(`${c.green('replaying')} ${id}: the runtime hands it to the bot now\n`);
    return 0;
  }
  const requeued = await withStore(config, deps, (store) => store.inbox.requeue(id));
  if (!requeued) {
    deps.stderr(`intrabot deliveries: no dead or waiting delivery ${id}\n`);
    return 1;
  }
  deps.stdout(`${c.green('queued again')} ${id}: no runtime is up; it is handled when the runtime starts\n`);
  return 0;
}

function refused(deps: CliIo, status: number, body: unknown): number {
  deps.stderr(`intrabot deliveries: ${adminRefusal(status) ?? `the runtime answered ${status}: ${answerMessage(body)}`}\n`);
  return 1;
}

/** Works on the store directly; undefined when there is no store yet (the runtime never ran here). */
function withStore<T>(config: RuntimeConfig, deps: DeliveriesDeps, use: (store: Store) => Promise<T>): Promise<T | undefined> {
  return withRuntimeStore(config, deps.clock ?? createSystemClock(), deps.env, use);
}

export const command: CliCommand = {
  name: 'deliveries',
  usage: USAGE,
  summary: 'Show deliveries waiting, handled (--handled: what each bot did, or why it ignored one), failed (--dead) or audited (--audit), and replay one',
  run: (args) => runDeliveries(args, processIo()),
};
