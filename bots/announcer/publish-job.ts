import { type BotContext, ConfigError, type JobRun } from 'intrabot';
import type { AnnouncementJob, AnnouncerConfig } from './announcer-config';
import { eventTiming } from './event-timing';
import { groupIds } from './group-ids';

/** A slot's publication is remembered this long, so a retried or repeated slot publishes nothing twice. */
const DONE_TTL_MS = 40 * 86_400_000;

/**
 * Runs the config entry named like the job: publishes its announcement, or creates its event
 * (published at once or scheduled with `publish_at`). Once per cron slot.
 */
export async function publishJob(ctx: BotContext<AnnouncerConfig>, run: JobRun): Promise<void> {
  const index = ctx.config.announcements.findIndex((a) => a.job === run.name);
  const entry = ctx.config.announcements[index];
  if (!entry) throw new ConfigError('config.announcements', `no announcement has job "${run.name}"`);
  const doneKey = `published:${run.name}:${run.slot}`;
  if (await ctx.store.get(doneKey)) {
    ctx.log.info('this slot was published already', { job: run.name, slot: run.slot });
    return;
  }
  const groups = await groupIds(ctx, entry.groups, `config.announcements.${index}.groups`);
  if (entry.as === 'event') await createEvent(ctx, entry, groups, run.slot);
  else await ctx.announce({ title: entry.title, body: (await ctx.render(entry.template, templateData(entry, run.slot))).trim(), groups });
  await ctx.store.set(doneKey, true, { ttlMs: DONE_TTL_MS });
}

async function createEvent(ctx: BotContext<AnnouncerConfig>, entry: AnnouncementJob, groups: number[], slot: number): Promise<void> {
  const timing = eventTiming(slot, entry.starts_in, entry.publish_in_advance, (ms) => ctx.dateOf(ms));
  const body = (await ctx.render(entry.template, { ...templateData(entry, slot), starts_at: timing.starts_at })).trim();
  await ctx.createEvent({
    title: entry.title,
    body,
    groups,
    ...timing,
    ...(entry.starts_time ? { starts_time: entry.starts_time } : {}),
    ...(entry.location ? { location: entry.location } : {}),
  });
}

function templateData(entry: AnnouncementJob, slot: number): Record<string, unknown> {
  return { ...entry.data, title: entry.title, date: new Date(slot).toISOString() };
}
