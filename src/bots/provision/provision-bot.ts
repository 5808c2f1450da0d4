import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError, ApiNotFoundError } from '../../api/errors';
import type { Store } from '../../store/store';
import { toWebhookSubscription } from '../../webhooks/subscription';
import type { BotManifest } from '../manifest';
import type { Target } from '../manifest-targets';

/** One thing provisioning did (or, in a dry run, would do). */
export interface ProvisionAction {
  tenant: string;
  resource: 'bot_user' | 'webhook' | 'incoming_webhook' | 'bot' | 'wall';
  name: string;
  /** `missing`: a target names a wall the tenant does not have (a configuration error, nothing to change). */
  action: 'create' | 'update' | 'reactivate' | 'recreate' | 'revoke' | 'retire' | 'unchanged' | 'disable' | 'missing';
  detail?: string;
}

/** What the tenant has, read once per run: a list costs a request or two, a GET per bot would not scale. */
export interface Observed {
  bots: Remote[];
  webhooks: Remote[];
  /** The token's incoming webhooks, read (once, for every bot provisioned at the same time) only when one must be found by name (a store that lost its record). */
  incoming?: Promise<Remote[]>;
}

export interface ProvisionContext {
  observed: Observed;
  tenant: string;
  eventPrefix: string;
  api: IntrabotApi;
  store: Store;
  publicUrl: string;
  dryRun: boolean;
  /** Polling instead of receiving (`intrabot dev --poll`): no endpoint, since nothing can reach this runtime. */
  skipWebhooks?: boolean;
  actions: ProvisionAction[];
}

/** Names of the platform resources the runtime owns, so they are found again if the store is lost. */
export const webhookName = (bot: string): string => `intrabot:${bot}`;
export const incomingName = (bot: string, target: string): string => `intrabot:${bot}:${target}`;
export const webhookSecretName = (tenant: string, bot: string): string => `webhook:${tenant}:${bot}`;
export const incomingSecretName = (tenant: string, bot: string, target: string): string => `incoming:${tenant}:${bot}:${target}`;
export const RETIRED_SUFFIX = ' (retired)';

export type Remote = Record<string, unknown> & { id: number };

function note(ctx: ProvisionContext, action: Omit<ProvisionAction, 'tenant'>): void {
  ctx.actions.push({ tenant: ctx.tenant, ...action });
}

async function getOrUndefined<T>(fetch: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fetch();
  } catch (error) {
    if (error instanceof ApiNotFoundError) return undefined;
    throw error;
  }
}

/** The bot user: found by the remembered id, else by name; created or updated (name, avatar). */
export async function provisionBotUser(ctx: ProvisionContext, manifest: BotManifest): Promise<number | undefined> {
  const record = await ctx.store.provisioning.get(ctx.tenant, 'bot_user', manifest.name);
  const known = record ? ctx.observed.bots.find((b) => b.id === Number(record.remoteId)) : undefined;
  // a remembered id is ours only while its bot user has the name we gave it: a platform that was reset
  // numbers from 1 again, and another bot may hold the id now (a record from before names were kept is trusted)
  let remote = known && (record?.fingerprint === undefined || known.name === record.fingerprint || known.name === manifest.display_name) ? known : undefined;
  remote ??= ctx.observed.bots.find((bot) => bot.name === manifest.display_name);
  const desired = { name: manifest.display_name, ...(manifest.avatar_url ? { avatar_url: manifest.avatar_url } : {}) };
  if (!remote) {
    note(ctx, { resource: 'bot_user', name: manifest.name, action: 'create', detail: manifest.display_name });
    if (ctx.dryRun) return undefined;
    remote = (await ctx.api.bots.create(desired)) as Remote;
  } else if (remote.name !== desired.name || (desired.avatar_url !== undefined && remote.avatar_url !== desired.avatar_url)) {
    note(ctx, { resource: 'bot_user', name: manifest.name, action: 'update', detail: manifest.display_name });
    if (!ctx.dryRun) remote = (await ctx.api.bots.update(remote.id, desired)) as Remote;
  } else {
    note(ctx, { resource: 'bot_user', name: manifest.name, action: 'unchanged' });
  }
  if (!ctx.dryRun && (!record || record.remoteId !== remote.id || record.fingerprint !== desired.name)) {
    await ctx.store.provisioning.put(ctx.tenant, { kind: 'bot_user', name: manifest.name, remoteId: remote.id, fingerprint: desired.name });
  }
  return remote.id;
}

function sameSubscription(remote: Remote, desired: { url: string; events: string[]; filters: Record<string, number[]> }): boolean {
  const events = [...((remote.events as string[] | undefined) ?? [])].sort();
  const filters = (remote.filters as Record<string, number[]> | null | undefined) ?? {};
  const norm = (f: Record<string, number[]>): string =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(f)
          .filter(([, ids]) => ids.length > 0)
          .map(([k, ids]) => [k, [...ids].sort((a, b) => a - b)])
          .sort(),
      ),
    );
  return remote.url === desired.url && JSON.stringify(events) === JSON.stringify(desired.events) && norm(filters) === norm(desired.filters);
}

/**
 * The bot's outgoing webhook endpoint at `<public url>/hooks/<tenant>/<bot>` with its events and filters:
 * created, updated (event rules replaced), re-activated (reading the state first: toggle flips), or
 * recreated when revoked; its signing secret kept encrypted in the store.
 */
export async function provisionWebhook(ctx: ProvisionContext, manifest: BotManifest): Promise<number | undefined> {
  if (manifest.events.length === 0 || ctx.skipWebhooks) return undefined;
  const url = `${ctx.publicUrl.replace(/\/$/, '')}/hooks/${encodeURIComponent(ctx.tenant)}/${encodeURIComponent(manifest.name)}`;
  const desired = { url, ...toWebhookSubscription(manifest.events, ctx.eventPrefix) };
  const name = webhookName(manifest.name);
  const record = await ctx.store.provisioning.get(ctx.tenant, 'webhook_endpoint', manifest.name);
  // the remembered id only while the endpoint there carries our name (ids are reused after a reset)
  let remote = record ? ctx.observed.webhooks.find((h) => h.id === Number(record.remoteId) && h.name === name) : undefined;
  if (remote?.revoked_at) remote = undefined;
  remote ??= ctx.observed.webhooks.find((hook) => hook.name === name && !hook.revoked_at);

  let created = false;
  if (!remote) {
    note(ctx, { resource: 'webhook', name: manifest.name, action: record ? 'recreate' : 'create', detail: desired.events.join(', ') });
    if (ctx.dryRun) return undefined;
    remote = (await ctx.api.webhooks.create({ name, ...desired })) as Remote;
    created = true;
  } else {
    if (!sameSubscription(remote, desired)) {
      note(ctx, { resource: 'webhook', name: manifest.name, action: 'update', detail: desired.events.join(', ') });
      if (!ctx.dryRun) remote = (await ctx.api.webhooks.update(remote.id, desired)) as Remote;
    }
    if (remote.is_active === false) {
      note(ctx, { resource: 'webhook', name: manifest.name, action: 'reactivate' });
      if (!ctx.dryRun) await ctx.api.webhooks.toggle(remote.id);
    }
    if (sameSubscription(remote, desired) && remote.is_active !== false && !ctx.actions.some((a) => a.resource === 'webhook' && a.name === manifest.name)) {
      note(ctx, { resource: 'webhook', name: manifest.name, action: 'unchanged' });
    }
  }
  if (ctx.dryRun) return remote.id;
  const secretName = webhookSecretName(ctx.tenant, manifest.name);
  // a new endpoint has a new secret even when it got its predecessor's id (a platform reset numbers from 1 again)
  if (created || !record || record.remoteId !== remote.id || (await ctx.store.secrets.get(secretName)) === undefined) {
    // the secret can be revealed again at any time, so a lost store loses nothing here
    const { secret } = (await ctx.api.webhooks.secret(remote.id)) as { secret: string };
    await ctx.store.secrets.put(secretName, secret);
    await ctx.store.provisioning.put(ctx.tenant, { kind: 'webhook_endpoint', name: manifest.name, remoteId: remote.id });
  }
  return remote.id;
}

/** The incoming-webhook body for a target's binding; a direct message is sent by the bot user. */
function incomingBody(bot: string, targetName: string, target: Extract<Target, { incoming: unknown }>, botUserId: number | undefined): Record<string, unknown> {
  const { action, ...ids } = target.incoming;
  return { name: incomingName(bot, targetName), action, ...ids, ...(action === 'direct_message' && botUserId ? { bot_user_id: botUserId } : {}) };
}

/** The token's incoming webhooks, listed once per run; none when the token may not read them. */
async function incomingWebhooks(ctx: ProvisionContext): Promise<Remote[]> {
  ctx.observed.incoming ??= (async () => {
    const found: Remote[] = [];
    try {
      for await (const hook of ctx.api.incomingWebhooks.all()) found.push(hook as Remote);
    } catch (error) {
      if (!(error instanceof ApiForbiddenError)) throw error;
    }
    return found;
  })();
  return ctx.observed.incoming;
}

/**
 * Incoming webhooks a manifest's targets ask for. Their URL (with its token) is shown only once, at
 * creation: a webhook whose URL the store lost is revoked and created again.
 */
export async function provisionIncoming(ctx: ProvisionContext, manifest: BotManifest, botUserId: number | undefined): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [targetName, target] of Object.entries(manifest.targets)) {
    if (!('incoming' in target)) continue;
    const key = `${manifest.name}/${targetName}`;
    const body = incomingBody(manifest.name, targetName, target, botUserId);
    const fingerprint = JSON.stringify(body);
    const record = await ctx.store.provisioning.get(ctx.tenant, 'incoming_webhook', key);
    const secretName = incomingSecretName(ctx.tenant, manifest.name, targetName);
    const haveUrl = record ? (await ctx.store.secrets.get(secretName)) !== undefined : false;
    if (record && haveUrl && record.fingerprint === fingerprint) {
      note(ctx, { resource: 'incoming_webhook', name: key, action: 'unchanged' });
      out[targetName] = Number(record.remoteId);
      continue;
    }
    // without a record (a lost store), ours is found by name: its token is gone with the store, so it is revoked too
    const orphans = record ? [] : (await incomingWebhooks(ctx)).filter((hook) => hook.name === body.name && !hook.revoked_at);
    note(ctx, { resource: 'incoming_webhook', name: key, action: record || orphans.length ? 'recreate' : 'create', detail: String(body.action) });
    if (ctx.dryRun) continue;
    if (record) await getOrUndefined(() => ctx.api.incomingWebhooks.revoke(record.remoteId));
    for (const orphan of orphans) await getOrUndefined(() => ctx.api.incomingWebhooks.revoke(orphan.id));
    const created = (await ctx.api.incomingWebhooks.create(body as never)) as Remote & { url: string };
    await ctx.store.secrets.put(secretName, created.url);
    await ctx.store.provisioning.put(ctx.tenant, { kind: 'incoming_webhook', name: key, remoteId: created.id, fingerprint });
    out[targetName] = created.id;
  }
  return out;
}
