import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock';
import type { Store } from '../../store/store';
import { toPlatformEvent } from '../../webhooks/events';
import type { Logger } from '../../log';
import type { Deployment, DeploymentTable } from '../deployments';

/**
 * The platform gives up on a delivery after its retry at 10 minutes, so a runtime that was down
 * longer would miss events silently. What can be listed again is recovered: posts created on the
 * walls a bot watches since the runtime was last alive, and the comments of recent posts. Each
 * recovered event goes through the inbox with the same dedupe key the receiver gives a real delivery
 * (`post.created:<id>`), so the platform's own retry of it is acknowledged, not handled twice.
 * Edits, deletions and form-response changes cannot be listed: they are a known gap, logged.
 */
export interface RecoveryInput {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Every bot on every tenant; a bot provisioning switched off is left alone. */
  table: DeploymentTable;
  /** Comments are looked for under posts created this long before the gap (default 3 days). */
  commentWindowMs?: number;
  /** Called for each recovered event that entered the inbox (wakes the worker). */
  onRecovered?(): void;
}

export interface RecoveryReport {
  tenant: string;
  bot: string;
  recovered: number;
  /** Events created after this instant were looked for (ISO datetime). */
  since: string;
}

const RECOVERABLE = ['post.created', 'comment.created'] as const;
const KV = 'runtime:recovery';
/** How often a running runtime notes that it is alive. */
export const HEARTBEAT_MS = 60_000;
/**
 * spec: Events, Outgoing webhooks — retries run 1 and 10 minutes after the first attempt. A runtime
 * back within that window receives what it missed from the platform itself.
 */
const PLATFORM_RETRY_WINDOW_MS = 9 * 60_000;

/** Notes that the runtime serving `tenant` is alive now (any replica's heartbeat counts). */
export async function heartbeat(store: Store, clock: Clock, tenant: string): Promise<void> {
  await store.kv(KV).set(`alive:${tenant}`, clock.now());
}

/**
 * Looks for what each bot missed while no runtime was alive for longer than the platform retries,
 * and puts it in the inbox, marked `recovered`. A first start, or a short restart, looks for nothing.
 */
export async function recoverMissed(input: RecoveryInput): Promise<RecoveryReport[]> {
  const reports: RecoveryReport[] = [];
  const tenants = new Map<string, Deployment[]>();
  for (const d of input.table.all()) tenants.set(d.tenant.config.id, [...(tenants.get(d.tenant.config.id) ?? []), d]);
  for (const [tenant, deployments] of tenants) {
    const lastAlive = (await input.store.kv(KV).get(`alive:${tenant}`)) as number | undefined;
    await heartbeat(input.store, input.clock, tenant);
    if (lastAlive === undefined || input.clock.now() - lastAlive < PLATFORM_RETRY_WINDOW_MS) continue;
    // a delivery in flight when the last runtime stopped may have been lost too: look a heartbeat further back
    const since = lastAlive - HEARTBEAT_MS;
    for (const deployment of deployments) {
      const subs = deployment.manifest.events.filter((s) => (RECOVERABLE as readonly string[]).includes(s.event));
      if (subs.length === 0 || switchedOff(input.table, deployment)) continue;
      const bot = deployment.bot.name;
      let recovered = 0;
      try {
        recovered = await recoverBot(input, deployment, subs, since);
      } catch (error) {
        input.logger.warn({ err: error, tenant, bot }, 'recovery of missed events failed');
      }
      if (deployment.manifest.events.some((s) => !(RECOVERABLE as readonly string[]).includes(s.event))) {
        input.logger.info(
          { tenant, bot },
          'events other than new posts and comments (edits, deletions, form responses...) missed while down cannot be recovered',
        );
      }
      const sinceIso = new Date(since).toISOString();
      input.logger.info({ tenant, bot, since: sinceIso, recovered }, recovered ? `recovered ${recovered} missed event(s)` : 'no missed events to recover');
      reports.push({ tenant, bot, recovered, since: sinceIso });
    }
  }
  return reports;
}

/**
 * One round of `intrabot dev --poll`: what each bot would have received since `fromMs` (posts on the
 * walls it watches and comments of recent posts), put in the inbox once each.
 */
export async function pollMissed(input: RecoveryInput, fromMs: number): Promise<number> {
  let count = 0;
  for (const deployment of input.table.all()) {
    const subs = deployment.manifest.events.filter((s) => (RECOVERABLE as readonly string[]).includes(s.event));
    if (subs.length === 0 || switchedOff(input.table, deployment)) continue;
    count += await recoverBot(input, deployment, subs, fromMs);
  }
  return count;
}

async function recoverBot(input: RecoveryInput, d: Deployment, subs: Deployment['manifest']['events'], from: number): Promise<number> {
  const api = d.tenant.api;
  const wantsPosts = subs.some((s) => s.event === 'post.created');
  const wantsComments = subs.some((s) => s.event === 'comment.created');
  const filtered = (event: string): number[] | undefined => {
    const entries = subs.filter((s) => s.event === event);
    if (entries.some((s) => !s.walls)) return undefined;
    return entries.flatMap((s) => s.walls ?? []);
  };
  const wallIds = new Set<number>();
  const postWalls = wantsPosts ? filtered('post.created') : [];
  const commentWalls = wantsComments ? filtered('comment.created') : [];
  if (postWalls === undefined || commentWalls === undefined) {
    for await (const wall of api.walls.all()) wallIds.add((wall as { id: number }).id);
  }
  for (const id of [...(postWalls ?? []), ...(commentWalls ?? [])]) wallIds.add(id);

  let count = 0;
  // what was handled before is dropped by the dedupe keys (`post.created:<id>`), so overlap is harmless
  const fromIso = new Date(from).toISOString();
  const since = new Date(from - (input.commentWindowMs ?? 3 * 86_400_000)).toISOString();
  for (const wallId of wallIds) {
    const postsOn = wantsPosts && (postWalls === undefined || postWalls.includes(wallId));
    const commentsOn = wantsComments && (commentWalls === undefined || commentWalls.includes(wallId));
    for await (const item of api.posts.all(wallId, { since: commentsOn ? since : fromIso })) {
      const post = item as { id: number; created_at: string; wall_id?: number };
      if (postsOn && Date.parse(post.created_at) >= from) count += await enqueue(input, d, 'post.created', post);
      if (commentsOn) {
        for await (const c of api.comments.all(post.id, { since: fromIso }))
          count += await enqueue(input, d, 'comment.created', { ...(c as { id: number }), wall_id: wallId });
      }
    }
  }
  return count;
}

async function enqueue(input: RecoveryInput, d: Deployment, event: string, payload: { id: number } & Record<string, unknown>): Promise<number> {
  const config = d.tenant.config;
  const envelope = {
    id: randomUUID(),
    event: toPlatformEvent(event, config.event_prefix),
    version: 'v1',
    timestamp: Math.floor(input.clock.now() / 1000),
    customer: config.customer ?? config.id,
    payload,
    recovered: true,
  };
  const result = await input.store.inbox.accept({
    tenant: config.id,
    bot: d.bot.name,
    deliveryId: envelope.id,
    event,
    dedupeKey: `${event}:${payload.id}`,
    envelope: envelope as never,
  });
  if (!result.accepted) return 0;
  input.onRecovered?.();
  return 1;
}

function switchedOff(table: DeploymentTable, d: Deployment): boolean {
  return table.provisionedBot(d.tenant.config.id, d.bot.name)?.enabled === false;
}
