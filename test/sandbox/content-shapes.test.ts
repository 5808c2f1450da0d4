import { beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AchievementSchema,
  AnnouncementSchema,
  ArticleSchema,
  AwardSchema,
  CalendarEntrySchema,
  CalendarEventTypeSchema,
  CertificateTypeSchema,
  ConfirmationSchema,
  CourseSchema,
  EventSchema,
  HandbookSchema,
  JourneySchema,
  arrayEnvelope,
  listEnvelope,
  metaListEnvelope,
  singleEnvelope,
} from '../../src/api/schemas';
import { achievementRefs } from '../../src/sandbox/seed/achievements';
import { contentRefs } from '../../src/sandbox/seed/content';
import { useHttpSandbox } from './http-harness';

/**
 * The wire shapes themselves (envelopes with links and meta, or without), which the typed client
 * unwraps: read over raw HTTP and parsed with the client's schemas.
 */
describe('content and achievement answers parse with the client schemas (src/api/schemas)', () => {
  const h = useHttpSandbox();

  beforeEach(async () => {
    // the seeded confirmable announcement targets Engineering
    await h.control.send('POST', `/announcements/${contentRefs(h.sandbox.ctx)?.confirmable_announcement_id}/confirm`, { user_id: h.refs.managers.Engineering });
  });

  const get = async (url: string) => {
    const res = await h.raw('GET', url);
    expect(res.status).toBe(200);
    return res.json<unknown>();
  };
  const parses = (schema: z.ZodType, body: unknown) => {
    const result = schema.safeParse(body);
    expect(result.success ? 'ok' : result.error.issues).toBe('ok');
  };

  it.each([
    ['/announcements?status=all', AnnouncementSchema],
    ['/confirmations', ConfirmationSchema],
    ['/events?status=all', EventSchema],
    ['/calendar-entries?status=all', CalendarEntrySchema],
    ['/calendar-event-types', CalendarEventTypeSchema],
    ['/articles', ArticleSchema],
    ['/handbooks', HandbookSchema],
    ['/courses', CourseSchema],
    ['/journeys', JourneySchema],
    ['/certificate-types', CertificateTypeSchema],
    ['/achievements', AchievementSchema],
  ] as const)('GET %s is a list envelope of the resource', async (url, schema) => {
    const body = await get(url);
    parses(listEnvelope(schema), body);
    expect((body as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it('single achievements, announcements and events parse', async () => {
    const a = achievementRefs(h.sandbox.ctx);
    const c = contentRefs(h.sandbox.ctx);
    parses(singleEnvelope(AchievementSchema), await get(`/achievements/${a?.employee_of_the_month_id}`));
    parses(singleEnvelope(AnnouncementSchema), await get(`/announcements/${c?.confirmable_announcement_id}`));
    parses(singleEnvelope(EventSchema), await get(`/events/${c?.scheduled_event_id}`));
  });

  it('award lists parse with meta and no links, and a user achievement list as a plain array', async () => {
    const a = achievementRefs(h.sandbox.ctx);
    const awards = await get(`/achievements/${a?.employment_id}/awards`);
    parses(metaListEnvelope(AwardSchema), awards);
    const holder = (awards as { data: { user: { id: number } }[] }).data[0]?.user.id;
    parses(arrayEnvelope(AwardSchema), await get(`/users/${holder}/achievements`));
  });
});
