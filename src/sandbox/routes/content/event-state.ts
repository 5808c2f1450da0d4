/**
 * spec: Event publication state — the state machine as a pure function of the current state, the
 * sent `is_published` / `publish_at` and the clock, so every transition is vector-tested.
 *
 * | State     | is_published | published_at | scheduled_at |
 * | Draft     | false        | null         | null         |
 * | Scheduled | false        | null         | future       |
 * | Published | true         | datetime     | null         |
 */
export interface EventPublication {
  is_published: boolean;
  published_at: number | null;
  scheduled_at: number | null;
}

export interface PublicationInput {
  is_published?: boolean | undefined;
  /** Epoch ms; null cancels a pending schedule; undefined when not sent. */
  publish_at?: number | null | undefined;
}

export type PublicationResult = { ok: true; state: EventPublication } | { ok: false; field: string; message: string };

const DRAFT: EventPublication = { is_published: false, published_at: null, scheduled_at: null };

/** The state after POST (current undefined) or PUT; a refusal names the field for the 422. */
export function nextPublication(current: EventPublication | undefined, input: PublicationInput, now: number): PublicationResult {
  const from = current ?? DRAFT;
  if (input.publish_at !== undefined && input.publish_at !== null) {
    // a published event cannot be scheduled, whatever else is sent
    if (from.is_published) return { ok: false, field: 'publish_at', message: 'a published event cannot be scheduled; unpublish it first' };
    if (input.publish_at <= now) return { ok: false, field: 'publish_at', message: 'publish_at must be in the future' };
    // publish_at wins over is_published
    return { ok: true, state: { is_published: false, published_at: null, scheduled_at: input.publish_at } };
  }
  let state = from;
  // null cancels a pending schedule: back to draft
  if (input.publish_at === null && state.scheduled_at !== null) state = DRAFT;
  if (input.is_published === true && !state.is_published) state = { is_published: true, published_at: now, scheduled_at: null };
  if (input.is_published === false && state.is_published) state = DRAFT;
  return { ok: true, state };
}

/** A scheduled event whose time has come goes live at its scheduled time. */
export function dueForPublication(state: EventPublication, now: number): EventPublication | undefined {
  if (state.is_published || state.scheduled_at === null || state.scheduled_at > now) return undefined;
  return { is_published: true, published_at: state.scheduled_at, scheduled_at: null };
}
