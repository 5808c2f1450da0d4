import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam } from '../../http/validate';
import { serializeUser } from '../../serialize/user';
import { KIND, type UserRecord } from '../../state/records';
import { CONTENT_KIND, type AnnouncementRecord, type ConfirmationRecord } from './records';
import { newestFirst } from './shared';

/** spec: not shown — the confirmation "with employee and announcement embedded" (spec: Events). */
export function serializeConfirmation(ctx: SandboxContext, c: ConfirmationRecord): Record<string, unknown> {
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, c.user_id);
  const announcement = ctx.db.get<AnnouncementRecord>(CONTENT_KIND.announcements, c.announcement_id);
  return {
    id: c.id,
    announcement_id: c.announcement_id,
    user: user ? serializeUser(ctx, user) : { id: c.user_id, name: 'Deleted user' },
    announcement: announcement ? { id: announcement.id, title: announcement.title } : { id: c.announcement_id, title: '' },
    confirmed_at: ctx.iso(c.confirmed_at),
    created_at: ctx.iso(c.created_at),
  };
}

export interface ConfirmResult {
  confirmation: ConfirmationRecord;
  created: boolean;
}

/**
 * An employee confirms having read an announcement (spec: Events, `announcement.confirmed`):
 * exactly once per employee and announcement; a second confirmation answers the first, whose id
 * stays the idempotency key, and fires nothing. Only published, confirmable announcements can be
 * confirmed, and only by a registered employee among the announcement's groups (all, when company-wide).
 */
export function confirmAnnouncement(ctx: SandboxContext, announcement: AnnouncementRecord, userId: number): ConfirmResult {
  if (!announcement.is_confirmable) throw validationError('announcement', 'this announcement does not ask for confirmation');
  if (!announcement.is_published) throw validationError('announcement', 'only a published announcement can be confirmed');
  const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, userId);
  if (!user || user.kind !== 'default' || user.status !== 'registered' || user.deleted_at !== null) {
    throw validationError('user_id', `user ${userId} is not a registered employee`);
  }
  const targeted = announcement.group_ids.length === 0 || user.memberships.some((m) => announcement.group_ids.includes(m.group_id));
  if (!targeted) throw validationError('user_id', `user ${userId} is not in the announcement's groups`);
  const existing = ctx.db.find<ConfirmationRecord>(CONTENT_KIND.confirmations, (c) => c.announcement_id === announcement.id && c.user_id === userId);
  if (existing) return { confirmation: existing, created: false };
  const now = ctx.now();
  const confirmation = ctx.db.insert(CONTENT_KIND.confirmations, { announcement_id: announcement.id, user_id: userId, confirmed_at: now, created_at: now });
  const payload = serializeConfirmation(ctx, confirmation);
  // spec: Events — "the confirmation with employee and announcement embedded": the webhook payload
  // names the holder `employee` (src/webhooks/payloads.ts); the API's confirmation calls it `user`
  ctx.events.emit({ event: 'announcement.confirmed', payload: { ...payload, employee: payload.user } });
  return { confirmation, created: true };
}

export function registerConfirmations(router: ApiRouter, ctx: SandboxContext): void {
  router.route('GET', '/announcements/{id}/confirmations', 'read:announcements', (request) => {
    const { id } = request.params as { id: string };
    const announcement = ctx.db.get<AnnouncementRecord>(CONTENT_KIND.announcements, idParam(id));
    if (!announcement) throw notFound();
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    const rows = newestFirst(ctx.db.filter<ConfirmationRecord>(CONTENT_KIND.confirmations, (c) => c.announcement_id === announcement.id));
    return paginate(request, rows, page, (c) => serializeConfirmation(ctx, c));
  });

  // spec: Announcements — every confirmation, newest first; accepts `since`
  router.route('GET', '/confirmations', 'read:announcements', (request) => {
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    const rows = newestFirst(ctx.db.all<ConfirmationRecord>(CONTENT_KIND.confirmations));
    return paginate(request, rows, page, (c) => serializeConfirmation(ctx, c));
  });
}
