import type { SandboxContext } from '../context';
import type { UserRecord } from '../state/records';

/**
 * spec: Bot user — `avatar_url` "defaults to the customer app icon". The sandbox's customer app icon
 * is a fixed URL on the sandbox's own media route (it does not need to resolve for the rule to hold).
 */
export const DEFAULT_BOT_AVATAR_URL = 'https://sandbox.example/app-icon.png';

/** spec: Bot user — `{ id, name, avatar_url, created_at }`. */
export function serializeBot(ctx: SandboxContext, user: UserRecord): Record<string, unknown> {
  return { id: user.id, name: user.name, avatar_url: user.avatar_url ?? DEFAULT_BOT_AVATAR_URL, created_at: ctx.iso(user.created_at) };
}

export function isBot(user: UserRecord | undefined): user is UserRecord {
  return user !== undefined && user.kind === 'bot' && user.deleted_at === null;
}
