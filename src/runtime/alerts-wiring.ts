import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { alertInputFromManifest, registerAlertInputs, type AlertInputsHandle, type AlertSendMessage } from '../alerts';
import type { EntrySink } from '../bots/bot-context';
import { namedWallOf } from '../bots/provision/wall-names';
import type { Clock } from '../clock';
import type { Outbox } from '../outbox/outbox';
import type { Store } from '../store/store';
import type { BotEngine } from './engine';

export interface AlertsWiringDeps {
  app: FastifyInstance;
  engine: BotEngine;
  outbox: Outbox;
  store: Store;
  clock: Clock;
  defaultTenant: string;
}

const KV = 'runtime:alerts';
const ENTRY_TTL_MS = 3 * 86_400_000;

/**
 * Opens the alert inputs of every bot (`POST /alerts/:bot/:input`) and sends what they render through
 * the bot's context, so targets resolve as for any `ctx.post`. Each message is queued under an id
 * derived from its dedupe key: a tool retrying a notification never queues the same part twice. A
 * resolved alert answers (as a comment) the post that reported it firing: the outbox tells which post
 * an entry created (`onEntryCreated`), and the inputs remember it.
 */
export function wireAlertInputs(deps: AlertsWiringDeps): { onEntryCreated(entryId: string, postId: number): Promise<void> } {
  const { engine, outbox, store } = deps;
  const kv = store.kv(KV);
  let handle: AlertInputsHandle | undefined;

  const send = async (message: AlertSendMessage): Promise<{ id: string }> => {
    const id = `alert-${createHash('sha256').update(`${message.tenant}\n${message.bot}\n${message.dedupeKey}`).digest('hex').slice(0, 32)}`;
    let queued: { id: string } | undefined;
    const sink: EntrySink = {
      enqueue: async (entry, options) => (queued = await outbox.enqueue(entry, { ...options, id })),
      stashMedia: (data) => outbox.stashMedia(data),
    };
    const ctx = engine.contextFor(message.tenant, message.bot, { sink });
    const target = engine.deployment(message.tenant, message.bot)?.manifest.targets[message.target];
    const receipt =
      message.replyTo && target && 'wall' in target ? await ctx.comment(message.replyTo.postId, message.text) : await ctx.post(message.target, message.text);
    await kv.set(`entry:${receipt.id}`, { tenant: message.tenant, bot: message.bot, dedupeKey: message.dedupeKey }, { ttlMs: ENTRY_TTL_MS });
    return queued ?? receipt;
  };

  // answered from the listing provisioning stored: a wall the tenant lacks is refused at once, with no request
  const targetProblem = async (tenant: string, bot: string, target: string): Promise<string | undefined> => {
    const spec = engine.deployment(tenant, bot)?.manifest.targets[target];
    const wall = spec && namedWallOf(spec);
    if (wall === undefined) return undefined;
    const found = await engine.wallsOf(tenant)?.lookup(wall);
    return found?.kind === 'missing' ? `no wall named "${wall}" on tenant ${tenant}` : undefined;
  };

  handle = registerAlertInputs(deps.app, {
    inputs: (bot, input, tenant) => {
      const deployment = engine.deployment(tenant, bot);
      return deployment ? alertInputFromManifest(deployment.manifest, input) : undefined;
    },
    clock: deps.clock,
    store,
    // the request's tenant: a bot deployed elsewhere only has no engine on the default tenant
    templates: (bot, tenant) => engine.templatesOf(tenant, bot),
    send,
    targetProblem,
    logger: deps.app.log,
    defaultTenant: deps.defaultTenant,
  });

  return {
    async onEntryCreated(entryId, postId) {
      const origin = (await kv.get(`entry:${entryId}`)) as { tenant: string; bot: string; dedupeKey: string } | undefined;
      if (origin) await handle?.recordPostId(origin.tenant, origin.bot, origin.dedupeKey, postId);
    },
  };
}
