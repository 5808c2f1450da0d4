import type { Announcement, BotContext, JobRun } from 'intrabot';
import type { AnnouncerConfig } from './announcer-config';
import { hasConfirmed, markReminded, wasReminded } from './confirmations';

/**
 * The reminder job: for each published confirmable announcement (made in the admin interface: the
 * API cannot create them, spec: Announcements) older than `remind_after` and younger than
 * `max_age`, a direct message to each targeted employee who has not confirmed, once each.
 */
export async function remind(ctx: BotContext<AnnouncerConfig>, run: JobRun): Promise<void> {
  const { enabled, remind_after, max_age } = ctx.config.reminders;
  if (!enabled) return;
  const api = ctx.api;
  for await (const announcement of api.announcements.all({ status: 'published', per_page: 50 })) {
    if (!announcement.is_confirmable || !announcement.published_at) continue;
    const age = run.slot - Date.parse(announcement.published_at);
    if (age < remind_after || age > max_age) continue;
    const sent = await remindAnnouncement(ctx, announcement);
    if (sent > 0) ctx.log.info('reminded employees to confirm', { announcement: announcement.id, sent });
  }
}

async function remindAnnouncement(ctx: BotContext<AnnouncerConfig>, announcement: Announcement): Promise<number> {
  const id = Number(announcement.id);
  const confirmed = new Set<number>();
  for await (const confirmation of ctx.api.announcements.allConfirmations(id, { per_page: 50 })) confirmed.add(Number(confirmation.user.id));
  let sent = 0;
  for (const employee of await targetedEmployees(ctx, announcement)) {
    if (confirmed.has(employee.id) || (await hasConfirmed(ctx.store, id, employee.id)) || (await wasReminded(ctx.store, id, employee.id))) continue;
    // marked first: a crash between the two loses one reminder rather than sending a second
    await markReminded(ctx.store, id, employee.id);
    await ctx.dm(employee.id, {
      template: ctx.config.reminders.template,
      data: { user: employee, announcement: { id, title: announcement.title, published_at: announcement.published_at } },
    });
    sent++;
  }
  return sent;
}

/** The employees an announcement targets: its groups' members, or everyone when it has none (spec: Announcement, `groups`). */
async function targetedEmployees(ctx: BotContext<unknown>, announcement: Announcement): Promise<{ id: number; name: string; first_name: string }[]> {
  const api = ctx.api;
  const byId = new Map<number, { id: number; name: string; first_name: string }>();
  const queries = announcement.groups.length === 0 ? [{}] : announcement.groups.map((g) => ({ group_id: Number(g.id) }));
  for (const query of queries) {
    for await (const user of api.users.all({ ...query, per_page: 50 })) {
      if (user.type === 'default') byId.set(Number(user.id), { id: Number(user.id), name: user.name, first_name: user.first_name });
    }
  }
  return [...byId.values()];
}
