import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/webhooks/envelope';
import { normaliseDelivery } from '../../src/webhooks/normalise';

const envelope = (event: string, payload: Record<string, unknown>, id: string = crypto.randomUUID()): Envelope => ({
  id,
  event: `service.${event}`,
  version: 'v1',
  timestamp: 1_800_000_000,
  customer: 'acme',
  payload,
});

/** The event key: what keeps one event delivered under two delivery ids (two endpoints, a recovery) from being handled twice. */
describe('normaliseDelivery: the event key', () => {
  it('keys post.created and comment.created by the entity id alone, as recovery by listing does', () => {
    expect(normaliseDelivery(envelope('post.created', { id: 42, body: 'a' }), 'service').dedupeKey).toBe('post.created:42');
    expect(normaliseDelivery(envelope('comment.created', { id: 7 }), 'service').dedupeKey).toBe('comment.created:7');
  });

  it.each(['achievement.awarded', 'user.registered', 'announcement.confirmed', 'comment.deleted', 'formresponse.created', 'onboarding.completed'])(
    'gives %s delivered twice under two delivery ids one key',
    (event) => {
      const payload = { id: 5, user: { id: 3 }, created_at: '2026-11-27T10:00:00+01:00' };
      const first = normaliseDelivery(envelope(event, payload), 'service');
      const second = normaliseDelivery(envelope(event, { ...payload }), 'service');
      expect(first.deliveryId).not.toBe(second.deliveryId);
      expect(first.dedupeKey).toBeDefined();
      expect(second.dedupeKey).toBe(first.dedupeKey);
    },
  );

  it('tells two edits of one comment apart: an update is a new event when its payload changed', () => {
    const first = normaliseDelivery(envelope('comment.updated', { id: 9, body: 'one', updated_at: '2026-11-27T10:00:00+01:00' }), 'service');
    const again = normaliseDelivery(envelope('comment.updated', { id: 9, body: 'one', updated_at: '2026-11-27T10:00:00+01:00' }), 'service');
    const second = normaliseDelivery(envelope('comment.updated', { id: 9, body: 'two', updated_at: '2026-11-27T10:00:00+01:00' }), 'service');
    expect(again.dedupeKey).toBe(first.dedupeKey);
    expect(second.dedupeKey).not.toBe(first.dedupeKey);
  });

  it('gives no key to the ping, to reports, or to a payload without an id', () => {
    expect(normaliseDelivery(envelope('test', { id: 1 }), 'service').dedupeKey).toBeUndefined();
    expect(normaliseDelivery(envelope('todoliststats.daily', { data: { total_lists: 0 } }), 'service').dedupeKey).toBeUndefined();
    expect(normaliseDelivery(envelope('formresponse.alarm_triggered', { form: { id: 2 } }), 'service').dedupeKey).toBeUndefined();
  });
});
