import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError, ApiNotFoundError } from '../../api/errors';
import type { Store } from '../../store/store';
import type { BotManifest } from '../manifest';
import {
  RETIRED_SUFFIX,
  provisionBotUser,
  provisionIncoming,
  provisionWebhook,
  webhookName,
  type Observed,
  type ProvisionAction,
  type ProvisionContext,
  type Remote,
} from './provision-bot';
import { needsAchievements, requiredScopes } from './scopes';
import { namedWallTargets, type WallNames } from './wall-names';

export interface ProvisionTenantInput {
  tenant: string;
  eventPrefix: string;
  api: IntrabotApi;
  store: Store;
  /** Where the platform reaches this runtime's `/hooks`. */
  publicUrl: string;
  /** The manifests deployed to this tenant, with the tenant's overrides applied. */
  manifests: readonly BotManifest[];
  dryRun?: boolean;
  /** Create no webhook endpoints (the runtime polls instead of receiving). */
  skipWebhooks?: boolean;
  /** Bots not deployed but still present (they failed to load): never retired for it. */
  keep?: readonly string[];
  /** The tenant's wall names: listed here once when a target names its wall, and stored for everyone else. */
  walls?: WallNames;
  /** Told as each bot is done (provisioned or switched off): start-up shows it as progress. */
  onBot?: (bot: string) => void;
}

/** A bot as provisioned on one tenant. */
export interface ProvisionedBot {
  name: string;
  enabled: boolean;
  /** Why a bot was switched off (missing scopes, feature disabled). */
  reason?: string;
  botUserId?: number | undefined;
  webhookId?: number | undefined;
  /** Incoming webhook ids by target name. */
  incoming: Record<string, number>;
}

export interface ProvisionResult {
  tenant: string;
  actions: ProvisionAction[];
  bots: Record<string, ProvisionedBot>;
  /** Every bot user on the tenant (ours and others'), for loop prevention. */
  allBotUserIds: number[];
}

/**
 * Reconciles one tenant with the manifests (DESIGN.md: provisioning): bot users, one outgoing
 * webhook endpoint per bot, the incoming webhooks targets ask for, and the retirement of what belongs
 * to bots that are gone. Idempotent: a second run answers only `unchanged`. A bot whose scopes are
 * missing, or whose feature is off, is switched off with the reason while the others are provisioned.
 * With `dryRun` it reads and plans, and changes nothing.
 */
export async function provisionTenant(input: ProvisionTenantInput): Promise<ProvisionResult> {
  const { scopes } = (await input.api.token.get()) as { scopes: string[] };
  const observed = await observe(input.api, scopes);
  const ctx: ProvisionContext = { ...input, observed, dryRun: input.dryRun ?? false, actions: [] };
  const achievementsOn = input.manifests.some(needsAchievements) ? await achievementsEnabled(input.api) : true;
  const bots: Record<string, ProvisionedBot> = {};

  // a few bots at a time (each one's calls in order), their actions listed in the manifests' order
  const perBot = await inPool(input.manifests, PROVISION_CONCURRENCY, async (manifest) => {
    const own: ProvisionContext = { ...ctx, actions: [] };
    bots[manifest.name] = await provisionOne(own, manifest, scopes, achievementsOn);
    input.onBot?.(manifest.name);
    return own.actions;
  });
  ctx.actions.push(...perBot.flat());

  if (input.walls) await provisionWalls(ctx, input.walls, enabledManifests(input.manifests, bots));
  // a bot that failed to load is still there: a typo in its bot.yaml must not retire it on the platform
  await retireRemoved(ctx, new Set([...input.manifests.map((m) => m.name), ...(input.keep ?? [])]));
  const allBotUserIds = [...observed.bots.map((b) => b.id), ...Object.values(bots).flatMap((b) => (b.botUserId ? [b.botUserId] : []))];
  return { tenant: input.tenant, actions: ctx.actions, bots, allBotUserIds: [...new Set(allBotUserIds)] };
}

/**
 * Bots provisioned at the same time: a fresh start makes three calls per bot (its user, its endpoint and
 * the endpoint's secret), some forty with the example bots, each a loopback round trip on the sandbox;
 * four at a time take a third of the time one at a time does. The rate budget counts them all the same.
 */
const PROVISION_CONCURRENCY = 4;

async function provisionOne(ctx: ProvisionContext, manifest: BotManifest, scopes: readonly string[], achievementsOn: boolean): Promise<ProvisionedBot> {
  const missing = requiredScopes(manifest).filter((s) => !scopes.includes(s));
  const reason = missing.length
    ? `the token lacks ${missing.join(', ')}`
    : needsAchievements(manifest) && !achievementsOn
      ? 'the achievements feature is disabled on this platform'
      : undefined;
  if (reason) {
    ctx.actions.push({ tenant: ctx.tenant, resource: 'bot', name: manifest.name, action: 'disable', detail: reason });
    return { name: manifest.name, enabled: false, reason, incoming: {} };
  }
  const botUserId = await provisionBotUser(ctx, manifest);
  const webhookId = await provisionWebhook(ctx, manifest);
  const incoming = await provisionIncoming(ctx, manifest, botUserId);
  return { name: manifest.name, enabled: true, botUserId, webhookId, incoming };
}

/** `work` over every item, at most `size` at once; the answers in the items' order. The first failure fails it, once the others running settled. */
async function inPool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(size, items.length) }, () => worker()));
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  return results;
}

function enabledManifests(manifests: readonly BotManifest[], bots: Record<string, ProvisionedBot>): BotManifest[] {
  return manifests.filter((m) => bots[m.name]?.enabled);
}

/**
 * Targets that name their wall are resolved here, once per provisioning: the walls are listed (one
 * paginated read) and the listing stored, so no message, replica or restart lists them again. A name
 * the tenant lacks is a configuration error, reported as a `missing` action naming the bot, the
 * target and the wall; the listing remembers it until the next provisioning.
 */
async function provisionWalls(ctx: ProvisionContext, walls: WallNames, manifests: readonly BotManifest[]): Promise<void> {
  const named = namedWallTargets(manifests);
  if (named.length === 0) return;
  const listing = ctx.dryRun ? await walls.fetch() : await walls.relist();
  for (const { bot, target, wall } of named) {
    if (listing.ids[wall.toLowerCase()] !== undefined) continue;
    ctx.actions.push({ tenant: ctx.tenant, resource: 'wall', name: `${bot}/${target}`, action: 'missing', detail: `no wall named "${wall}"` });
  }
}

/** The tenant's bot users and this token's webhook endpoints, each read with one paginated list. */
async function observe(api: IntrabotApi, scopes: readonly string[]): Promise<Observed> {
  const all = async (iterable: AsyncIterable<unknown>): Promise<Remote[]> => {
    const out: Remote[] = [];
    for await (const item of iterable) out.push(item as Remote);
    return out;
  };
  return {
    bots: scopes.includes('read:bots') ? await all(api.bots.all()) : [],
    webhooks: scopes.includes('read:webhooks') ? await all(api.webhooks.all()) : [],
  };
}

async function achievementsEnabled(api: IntrabotApi): Promise<boolean> {
  try {
    await api.achievements.list({ per_page: 1 });
    return true;
  } catch (error) {
    // spec: Achievements — every achievement endpoint answers 403 when the feature is disabled
    if (error instanceof ApiForbiddenError && !error.missingScope) return false;
    if (error instanceof ApiForbiddenError) return true;
    throw error;
  }
}

/** What belongs to bots no longer deployed: endpoints revoked, bot users renamed (there is no delete). */
async function retireRemoved(ctx: ProvisionContext, deployed: Set<string>): Promise<void> {
  const { store, api, tenant } = ctx;
  for (const record of await store.provisioning.list(tenant, 'bot_user')) {
    if (deployed.has(record.name)) continue;
    const remote = ctx.observed.bots.find((b) => b.id === Number(record.remoteId)) as { id: number; name: string } | undefined;
    // only the bot user that still has the name we gave it: after a platform reset the id may be another's
    const ours = remote !== undefined && (record.fingerprint === undefined || remote.name === record.fingerprint);
    if (remote && ours && !remote.name.endsWith(RETIRED_SUFFIX)) {
      ctx.actions.push({ tenant, resource: 'bot_user', name: record.name, action: 'retire', detail: `${remote.name}${RETIRED_SUFFIX}` });
      if (!ctx.dryRun) await api.bots.update(remote.id, { name: `${remote.name}${RETIRED_SUFFIX}` });
    }
    if (!ctx.dryRun) await store.provisioning.delete(tenant, 'bot_user', record.name);
  }
  // endpoints belong to their token: those of ours are in the list read at the start
  for (const item of ctx.observed.webhooks) {
    const hook = item as { id: number; name: string; revoked_at?: string | null };
    const bot = hook.name.startsWith('intrabot:') ? hook.name.slice('intrabot:'.length) : undefined;
    if (!bot || hook.revoked_at || deployed.has(bot) || hook.name !== webhookName(bot)) continue;
    ctx.actions.push({ tenant, resource: 'webhook', name: bot, action: 'revoke' });
    if (!ctx.dryRun) {
      await api.webhooks.revoke(hook.id);
      await store.provisioning.delete(tenant, 'webhook_endpoint', bot);
    }
  }
  for (const record of await store.provisioning.list(tenant, 'incoming_webhook')) {
    const [bot] = record.name.split('/');
    if (bot && deployed.has(bot)) continue;
    ctx.actions.push({ tenant, resource: 'incoming_webhook', name: record.name, action: 'revoke' });
    if (!ctx.dryRun) {
      await api.incomingWebhooks.revoke(record.remoteId).catch(notFoundAsUndefined);
      await store.provisioning.delete(tenant, 'incoming_webhook', record.name);
    }
  }
}

function notFoundAsUndefined(error: unknown): undefined {
  if (error instanceof ApiNotFoundError) return undefined;
  throw error;
}

/** Whether an action changes the platform (`unchanged` and `missing` do not). */
export function isChange(action: ProvisionAction): boolean {
  return action.action !== 'unchanged' && action.action !== 'missing';
}

/** A readable plan: one line per change and per configuration problem (`missing`). */
export function formatPlan(results: readonly ProvisionResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    const changes = result.actions.filter(isChange).length;
    const problems = result.actions.filter((a) => a.action === 'missing').length;
    const summary = [changes ? `${changes} change(s)` : 'nothing to change', ...(problems ? [`${problems} problem(s)`] : [])].join(', ');
    lines.push(`tenant ${result.tenant}: ${summary}`);
    for (const a of result.actions.filter((x) => x.action !== 'unchanged')) {
      lines.push(`  ${a.action.padEnd(10)} ${a.resource.padEnd(16)} ${a.name}${a.detail ? `  (${a.detail})` : ''}`);
    }
  }
  return lines.join('\n');
}
