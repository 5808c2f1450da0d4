import { defineBot } from 'intrabot';
import { AcknowledgeConfigSchema } from './acknowledge-config';
import { broadcast, trackingData } from './broadcast';
import { remind } from './remind-job';
import { getRound, markConfirmed } from './rounds';
import { startRound } from './start-round';

/**
 * Broadcast with acknowledgement: tracks confirmable announcements (`/broadcast <id>`, or each one
 * published, with `track_published`), reminds whoever has not confirmed by direct message (at most
 * `max_reminders`, in working hours, never twice a round) and reports the reach to the author: the
 * counts, and a CSV of everyone.
 */
export default defineBot({
  config: AcknowledgeConfigSchema,
  on: {
    // spec: Events, announcement.confirmed: exactly once per employee per announcement; no un-confirm
    'announcement.confirmed': async (event, ctx) => {
      const { announcement, employee } = event.payload;
      // an announcement tracked later has its earlier confirmations read from the list when its round starts
      if (!(await getRound(ctx.store, announcement.id))) return;
      const at = event.payload.confirmed_at ?? event.payload.created_at ?? new Date(event.timestamp * 1000).toISOString();
      await markConfirmed(ctx.store, announcement.id, employee.id, at);
    },
    'announcement.published': async (event, ctx) => {
      const a = event.payload;
      if (!ctx.config.track_published || !a.is_confirmable || !a.author) return;
      const publishedAt = a.published_at ? Date.parse(a.published_at) : event.timestamp * 1000;
      const { started } = await startRound(ctx, { id: a.id, title: a.title, groups: a.groups ?? [], publishedAt }, a.author.id);
      if (started)
        await ctx.dm(a.author.id, { template: ctx.config.templates.tracking, data: trackingData(ctx.config, { id: a.id, title: a.title, publishedAt }) });
    },
  },
  commands: {
    broadcast: {
      description: 'Tracks a confirmable announcement: reminders to who has not confirmed, then a report to you',
      args: [{ name: 'id', description: 'the announcement id, or "report <id>" for its report now', required: true }],
      permissions: { managers: true },
      run: broadcast,
    },
  },
  jobs: { remind },
});
