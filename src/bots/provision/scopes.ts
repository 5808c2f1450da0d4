import type { BotManifest } from '../manifest';
import { namedWallTargets } from './wall-names';

/** Scopes the runtime needs on every tenant to provision bots (spec: Bots, Outgoing webhook management). */
export const PROVISIONING_SCOPES = ['read:bots', 'write:bots'] as const;

const EVENT_SCOPES: Record<string, string[]> = {
  'post.created': ['read:posts'],
  'comment.created': ['read:comments', 'read:posts'],
  'comment.updated': ['read:comments'],
  'comment.deleted': ['read:comments'],
  'achievement.awarded': ['read:achievements'],
  'announcement.confirmed': ['read:announcements'],
  'announcement.published': ['read:announcements'],
  'user.registered': ['read:users'],
};

/**
 * What one bot needs the token to hold on a tenant: derived from its manifest (receiving events
 * needs webhook management, posting to a wall needs `write:posts` and `read:walls` to find it by name,
 * incoming webhooks need their management scopes, replies need comments or direct messages), plus
 * the `scopes` the manifest declares for its code.
 */
export function requiredScopes(manifest: BotManifest): string[] {
  const scopes = new Set<string>([...PROVISIONING_SCOPES, ...manifest.scopes]);
  if (manifest.events.length > 0) {
    scopes.add('read:webhooks').add('write:webhooks');
    for (const sub of manifest.events) for (const s of EVENT_SCOPES[sub.event] ?? []) scopes.add(s);
    scopes.add(manifest.reply === 'comment' ? 'write:comments' : manifest.reply === 'dm' ? 'write:chat_messages' : 'write:posts');
  }
  for (const target of Object.values(manifest.targets)) {
    if ('wall' in target) {
      scopes.add('write:posts');
      if (typeof target.wall === 'string' && !/^\d+$/.test(target.wall)) scopes.add('read:walls');
    } else if ('incoming' in target) {
      scopes.add('read:incoming_webhooks').add('write:incoming_webhooks');
    }
  }
  // a `{ wall: "Name" }` in the config is posted to like a target, and found by name like one
  if (namedWallTargets([manifest]).length > 0) scopes.add('write:posts').add('read:walls');
  return [...scopes].sort();
}

/** True when the bot needs the achievements feature (its endpoints answer 403 when the feature is off). */
export function needsAchievements(manifest: BotManifest): boolean {
  return manifest.events.some((sub) => sub.event === 'achievement.awarded') || manifest.scopes.some((scope) => scope.endsWith(':achievements'));
}
