import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp, type SandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { achievementRefs } from '../../src/sandbox/seed/achievements';
import { contentRefs } from '../../src/sandbox/seed/content';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';

const auth = { authorization: 'Bearer svc_sandbox_token' };

describe('content and achievement answers parse with the client schemas (src/api/schemas)', () => {
  let sandbox: SandboxApp;
  let ctx: SandboxContext;
  beforeAll(async () => {
    const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 8), frozen: true });
    ctx = new SandboxContext(new SandboxDb(), clock);
    sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
    sandbox.reset({ seed: 'demo' });
    const refs = contentRefs(ctx);
    // the seeded confirmable announcement targets Engineering
    const engineer = directoryRefs(ctx)?.managers.Engineering;
    const res = await sandbox.app.inject({ method: 'POST', url: `/_sandbox/announcements/${refs?.confirmable_announcement_id}/confirm`, payload: { user_id: engineer } });
    expect(res.statusCode).toBe(201);
  });
  afterAll(async () => sandbox.app.close());

  const get = async (url: string) => {
    const res = await sandbox.app.inject({ method: 'GET', url: `/api/open/v1${url}`, headers: auth });
    expect(res.statusCode).toBe(200);
    return res.json() as unknown;
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
    const a = achievementRefs(ctx);
    const c = contentRefs(ctx);
    parses(singleEnvelope(AchievementSchema), await get(`/achievements/${a?.employee_of_the_month_id}`));
    parses(singleEnvelope(AnnouncementSchema), await get(`/announcements/${c?.confirmable_announcement_id}`));
    parses(singleEnvelope(EventSchema), await get(`/events/${c?.scheduled_event_id}`));
  });

  it('award lists parse with meta and no links, and a user achievement list as a plain array', async () => {
    const a = achievementRefs(ctx);
    const awards = await get(`/achievements/${a?.employment_id}/awards`);
    parses(metaListEnvelope(AwardSchema), awards);
    const holder = (awards as { data: { user: { id: number } }[] }).data[0]?.user.id;
    parses(arrayEnvelope(AwardSchema), await get(`/users/${holder}/achievements`));
  });
});
