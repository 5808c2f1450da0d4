/** When a scheduled event takes place and how it is published (spec: Events, `publish_at`). */
export interface EventTiming {
  starts_at: string;
  publish_at?: string;
  is_published?: boolean;
}

/** A `publish_at` closer than this to the run is published at once: it must still be in the future when it arrives. */
export const MIN_PUBLISH_LEAD_MS = 10 * 60_000;

/**
 * The event's day (`slot + startsIn`, in the tenant's zone: `dateOf` is `ctx.dateOf`) and its
 * publication: `publish_at` = `publishInAdvance` before that moment, or published at once when there is
 * no advance or that moment is (almost) now.
 *
 * @example eventTiming(Date.parse('2026-06-01T08:00:00Z'), 7 * DAY, 2 * DAY, ctx.dateOf)
 * // => { starts_at: '2026-06-08', publish_at: '2026-06-06T08:00:00.000Z' }
 */
export function eventTiming(slotMs: number, startsInMs: number, publishInAdvanceMs: number | undefined, dateOf: (ms: number) => string): EventTiming {
  const startsMs = slotMs + startsInMs;
  const starts_at = dateOf(startsMs);
  if (publishInAdvanceMs === undefined) return { starts_at, is_published: true };
  const publishMs = startsMs - publishInAdvanceMs;
  if (publishMs - slotMs < MIN_PUBLISH_LEAD_MS) return { starts_at, is_published: true };
  return { starts_at, publish_at: new Date(publishMs).toISOString() };
}
