import { InvalidInputError } from '../errors';
import type { EnqueueOptions } from '../outbox/outbox';
import type { OutboxEntryInput, PostMedia } from '../outbox/entry';
import type { TargetRef } from './context';
import type { BotManifest } from './manifest';
import type { Target } from './manifest-targets';
import { incomingSecretName } from './provision/provision-bot';

/** Where a post goes: a wall id, or a wall name the outbox sender resolves (the walls were never listed yet). */
export type WallRef = { wallId: number } | { wallName: string };

/** What a send carries, rendered: the text, and its media in the form the target's kind takes. */
export interface TargetContent {
  text: string;
  /** Uploads for a wall post. */
  postMedia?: PostMedia[] | undefined;
  /** URLs an incoming webhook downloads. */
  incomingMedia?: { url: string; type: 'image' | 'video' | 'document' }[] | undefined;
}

/** Who sends, and how a wall named in a target is found. */
export interface TargetEntryDeps {
  tenant: string;
  bot: { name: string; manifest: BotManifest; userId: number | undefined };
  /** A wall given by name: its id from the stored listing, or its name for the sender (never a platform request). */
  wallOf(name: string, field: string): Promise<WallRef>;
}

/** The outbox entry (and its enqueue options) of one send, made when the target's kind is known. */
export interface TargetEntry {
  entry: OutboxEntryInput;
  options: EnqueueOptions;
}

/**
 * The outbox entry for a send to a target: a manifest target by name (a wall, a configured or a
 * provisioned incoming webhook) or a wall given directly. The target is resolved before the content is
 * made (`content(kind)`), so an unknown target is reported before a template is rendered. Bot contexts
 * and alert inputs both send through it.
 *
 * @example
 * const { entry, options } = await entryForTarget(deps, 'team', async () => ({ text: 'Deploy finished' }));
 * await outbox.enqueue(entry, options);
 */
export async function entryForTarget(
  deps: TargetEntryDeps,
  ref: TargetRef,
  content: (kind: 'post' | 'incoming') => Promise<TargetContent>,
): Promise<TargetEntry> {
  if (typeof ref !== 'string') return wallEntry(deps, await targetWallRef(deps, ref.wall, 'wall'), await content('post'));
  const target = deps.bot.manifest.targets[ref];
  if (!target) {
    const known = Object.keys(deps.bot.manifest.targets);
    throw new InvalidInputError('target', `unknown target "${ref}" (${known.length ? `targets: ${known.join(', ')}` : 'the manifest defines no targets'})`);
  }
  if ('wall' in target) return wallEntry(deps, await targetWallRef(deps, target.wall, `targets.${ref}.wall`), await content('post'), uncertainOf(target));
  return incomingEntry(deps, ref, target, await content('incoming'));
}

/** A post on a wall, as the bot's user (filled in by the sender when provisioning has not finished). */
export async function wallEntry(deps: TargetEntryDeps, wall: WallRef, content: TargetContent, options: EnqueueOptions = {}): Promise<TargetEntry> {
  const { bot } = deps;
  const files = content.postMedia?.length ? { media: content.postMedia } : {};
  return { entry: { kind: 'post', tenant: deps.tenant, ...wall, body: content.text, ...asBot(bot), ...files }, options };
}

/**
 * Who a post or a direct message is sent as: the entry names its bot, and its bot user once provisioning
 * has made it known; until then the sender fills the bot user in (never the token's user).
 */
export function asBot(bot: { name: string; userId: number | undefined }): { bot: string; botUserId?: number } {
  return { bot: bot.name, ...(bot.userId ? { botUserId: bot.userId } : {}) };
}

function incomingEntry(deps: TargetEntryDeps, name: string, target: Target, content: TargetContent): TargetEntry {
  const { tenant, bot } = deps;
  const payload = { text: content.text, ...(content.incomingMedia?.length ? { media: content.incomingMedia } : {}) };
  const options = uncertainOf(target);
  if ('incoming_webhook' in target) {
    const webhook = { id: `${bot.name}/${name}`, urlSecretRef: configuredIncomingSecretName(tenant, bot.name, name) };
    return { entry: { kind: 'incoming', tenant, webhook, action: 'wall_post', payload }, options };
  }
  if (!('incoming' in target)) throw new InvalidInputError('target', `target "${name}" is not an incoming webhook`);
  if (target.incoming.action === 'calendar_entry')
    throw new InvalidInputError('target', `target "${name}" creates calendar entries: use ctx.api.calendarEntries or send its payload through ctx.api`);
  // named, not numbered: a message queued before provisioning created the webhook is sent once its URL is stored
  const webhook = { id: `${bot.name}/${name}`, urlSecretRef: incomingSecretName(tenant, bot.name, name) };
  return { entry: { kind: 'incoming', tenant, webhook, action: target.incoming.action, payload }, options };
}

/** The `store.secrets` name of an incoming-webhook URL given in configuration (`incoming_webhook:`). */
export function configuredIncomingSecretName(tenant: string, bot: string, target: string): string {
  return `incoming-config:${tenant}:${bot}:${target}`;
}

async function targetWallRef(deps: Pick<TargetEntryDeps, 'wallOf'>, wall: number | string, field: string): Promise<WallRef> {
  if (typeof wall === 'number') return { wallId: wall };
  return /^\d+$/.test(wall) ? { wallId: Number(wall) } : deps.wallOf(wall, field);
}

/** The target's `on_uncertain`, as the outbox's enqueue option. */
function uncertainOf(target: Target): EnqueueOptions {
  return target.on_uncertain ? { onUncertain: target.on_uncertain } : {};
}
