import type { IntrabotApi } from '../../api/create-api-client';
import { ApiValidationError } from '../../api/errors';
import type { ConformanceCheck } from '../check';
import { expectEqual, expectRejects, expectThat, show } from '../expect';
import { MARK, firstOrSkip, hostNow, isoDate, orSkipWhenForbidden, rawRequest } from './support';

type Publishable = { id: number; is_published: boolean };
type StatusLister = (query: { per_page: number; status?: 'draft' | 'all' }) => Promise<{ data: Publishable[]; meta?: Record<string, unknown> | undefined }>;

async function checkStatusLists(what: string, list: StatusLister): Promise<void> {
  const published = await list({ per_page: 50 });
  const stray = published.data.find((item) => !item.is_published);
  expectThat(stray === undefined, `GET ${what} (default status) lists unpublished ${show(stray?.id)}`);
  const drafts = await list({ per_page: 50, status: 'draft' });
  const live = drafts.data.find((item) => item.is_published);
  expectThat(live === undefined, `GET ${what}?status=draft lists published ${show(live?.id)}`);
  const all = await list({ per_page: 1, status: 'all' });
  expectEqual(Number(all.meta?.total), Number(published.meta?.total) + Number(drafts.meta?.total), `meta.total of GET ${what}?status=all (published + draft)`);
}

const defaultPublished: ConformanceCheck = {
  id: 'content.status-lists',
  title: 'announcement and event lists show published items by default, drafts with status=draft, both with all',
  section: 'Pagination (status); Announcements; Events',
  readOnly: true,
  async run(api) {
    await orSkipWhenForbidden(
      checkStatusLists('/events', (q) => api.events.list(q)),
      'GET /events',
    );
    await orSkipWhenForbidden(
      checkStatusLists('/announcements', (q) => api.announcements.list(q)),
      'GET /announcements',
    );
  },
};

const bodyWithArticle: ConformanceCheck = {
  id: 'announcements.body-with-article',
  title: 'an announcement with both body and article_id is a 422',
  section: 'Announcements (create body); Errors (422)',
  readOnly: false,
  async run(api) {
    const articles = await orSkipWhenForbidden(api.articles.list({ per_page: 1 }), 'GET /articles');
    const article = firstOrSkip(articles.data, 'articles');
    // the typed client refuses this body before sending it, so it goes out raw
    const res = await rawRequest(api, 'POST', '/announcements', { body: { title: MARK, body: MARK, article_id: article.id, is_published: false } });
    const created = (res.body as { data?: { id?: number } } | null)?.data?.id;
    if (res.status < 300 && created !== undefined) await api.announcements.delete(created);
    expectEqual(res.status, 422, 'POST /announcements with body and article_id status');
    expectEqual((res.body as { error?: unknown } | null)?.error, 'validation_error', 'POST /announcements with body and article_id error');
  },
};

async function defaultTypeId(api: IntrabotApi): Promise<number | undefined> {
  for await (const type of api.calendarEventTypes.all()) {
    if (type.name === 'Default' && type.is_published !== false) return type.id;
  }
  return undefined;
}

const calendarDefaultType: ConformanceCheck = {
  id: 'calendar-entries.default-type',
  title: 'a calendar entry without calendar_event_type_id gets the "Default" type, and is a 422 when there is none',
  section: 'Calendar entries (calendar_event_type_id); Errors (422)',
  readOnly: false,
  async run(api, ctx) {
    const defaultId = await orSkipWhenForbidden(defaultTypeId(api), 'GET /calendar-event-types');
    const body = { title: MARK, starts_at: isoDate((await hostNow(ctx)) + 30 * 86_400_000) };
    if (defaultId === undefined) {
      await expectRejects(
        api.calendarEntries.create(body).then((e) => api.calendarEntries.delete(e.id)),
        ApiValidationError,
        'an entry without a type where no "Default" exists',
      );
      return;
    }
    const entry = await orSkipWhenForbidden(api.calendarEntries.create(body), 'POST /calendar-entries');
    try {
      expectThat(entry.calendar_event_type !== null, 'the entry has no calendar_event_type');
      const type = entry.calendar_event_type;
      expectThat(
        type.id === defaultId || (type.id === undefined && type.name === 'Default'),
        `the entry's type is ${show(type)}, not "Default" (${defaultId})`,
      );
    } finally {
      await api.calendarEntries.delete(entry.id);
    }
  },
};

export const contentChecks: ConformanceCheck[] = [defaultPublished, bodyWithArticle, calendarDefaultType];
