import type { IntrabotApi } from '../../api/create-api-client';
import { ApiValidationError } from '../../api/errors';
import type { ConformanceCheck } from '../check';
import { expectEqual, expectRejects } from '../expect';
import { MARK, hostNow, isoDate, isoDateTime, orSkipWhenForbidden } from './support';

const HOUR = 3_600_000;

interface EventState {
  is_published: boolean;
  published_at: string | null;
  scheduled_at: string | null;
}

/** The state of the spec's table "Event publication state" that `event` is in, or `odd`. */
export function publicationState(event: EventState): 'draft' | 'scheduled' | 'published' | 'odd' {
  if (event.is_published) return event.published_at !== null && event.scheduled_at === null ? 'published' : 'odd';
  if (event.published_at !== null) return 'odd';
  return event.scheduled_at === null ? 'draft' : 'scheduled';
}

function expectState(event: EventState & { id: number }, state: ReturnType<typeof publicationState>, after: string): void {
  expectEqual(publicationState(event), state, `event ${event.id} after ${after} (is_published, published_at, scheduled_at)`);
}

async function transitions(api: IntrabotApi, now: number, created: number[]): Promise<void> {
  const base = { title: MARK, body: MARK, starts_at: isoDate(now + 30 * 24 * HOUR) };
  const draft = await orSkipWhenForbidden(api.events.create(base), 'POST /events');
  created.push(draft.id);
  expectState(draft, 'draft', 'POST without is_published or publish_at');

  const scheduled = await api.events.create({ ...base, is_published: true, publish_at: isoDateTime(now + 2 * HOUR) });
  created.push(scheduled.id);
  expectState(scheduled, 'scheduled', 'POST with is_published true and a future publish_at (publish_at wins)');
  expectState(await api.events.get(scheduled.id), 'scheduled', 'GET of a scheduled event');

  await expectRejects(
    api.events.create({ ...base, publish_at: isoDateTime(now - HOUR) }).then((e) => created.push(e.id)),
    ApiValidationError,
    'POST /events with a publish_at in the past',
  );

  const published = await api.events.update(draft.id, { is_published: true });
  expectState(published, 'published', 'PUT is_published true on a draft');
  await expectRejects(api.events.update(draft.id, { publish_at: isoDateTime(now + 3 * HOUR) }), ApiValidationError, 'PUT publish_at on a published event');
  expectState(await api.events.get(draft.id), 'published', 'the refused schedule of a published event');

  expectState(await api.events.update(draft.id, { is_published: false }), 'draft', 'PUT is_published false (unpublish)');
  expectState(await api.events.update(scheduled.id, { publish_at: null }), 'draft', 'PUT publish_at null on a scheduled event');
}

const publication: ConformanceCheck = {
  id: 'events.publication',
  title: 'events move between draft, scheduled and published as the state table says',
  section: 'Event publication state',
  readOnly: false,
  async run(api, ctx) {
    const created: number[] = [];
    try {
      await transitions(api, await hostNow(ctx), created);
    } finally {
      for (const id of created) await api.events.delete(id);
    }
  },
};

export const eventChecks: ConformanceCheck[] = [publication];
