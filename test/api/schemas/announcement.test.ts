import { describe, expect, it } from 'vitest';
import { AnnouncementCreateSchema, AnnouncementUpdateSchema, CalendarEntryCreateSchema, EventCreateSchema } from '../../../src/api/schemas';
import { issues } from './issues';

describe('body xor article_id (spec: Announcements, Events; Errors: body together with article_id)', () => {
  it('refuses body together with article_id on an announcement, naming article_id', () => {
    expect(issues(AnnouncementCreateSchema, { title: 'T', body: 'B', article_id: 3 }).map((i) => i.path)).toEqual(['article_id']);
    expect(issues(AnnouncementUpdateSchema, { body: 'B', article_id: 3 }).map((i) => i.path)).toEqual(['article_id']);
  });

  it('requires body unless article_id is given', () => {
    expect(issues(AnnouncementCreateSchema, { title: 'T' }).map((i) => i.path)).toEqual(['body']);
    expect(issues(AnnouncementCreateSchema, { title: 'T', article_id: 3 })).toEqual([]);
    expect(issues(EventCreateSchema, { title: 'T', starts_at: '2026-05-01' }).map((i) => i.path)).toEqual(['body']);
  });

  it('refuses body with article_id on a calendar entry too', () => {
    expect(issues(CalendarEntryCreateSchema, { title: 'T', starts_at: '2026-05-01', body: 'B', article_id: 2 })[0]?.path).toBe('article_id');
  });

  it('publishes an announcement by default and leaves an event a draft (spec: Versioning defaults)', () => {
    expect(AnnouncementCreateSchema.parse({ title: 'T', body: 'B' }).is_published).toBe(true);
    expect(EventCreateSchema.parse({ title: 'T', body: 'B', starts_at: '2026-05-01' }).is_published).toBeUndefined();
  });
});
