import { describe, expect, it } from 'vitest';
import { toWebhookSubscription } from '../../src/webhooks/subscription';

describe('toWebhookSubscription (spec: Outgoing webhook management, filters)', () => {
  it('maps short names to platform names with the tenant prefix, with filters per event', () => {
    expect(toWebhookSubscription([{ event: 'post.created' }, { event: 'comment.created', walls: [3] }], 'acme')).toEqual({
      events: ['acme.comment.created', 'acme.post.created'],
      filters: { 'acme.comment.created': [3] },
    });
  });

  it('adds up the ids of several filtered entries for one event', () => {
    const sub = toWebhookSubscription([
      { event: 'formresponse.created', forms: [9, 2] },
      { event: 'formresponse.created', forms: [2, 5] },
    ]);
    expect(sub).toEqual({ events: ['service.formresponse.created'], filters: { 'service.formresponse.created': [2, 5, 9] } });
  });

  it('lets an unfiltered entry win, in either order', () => {
    const expected = { events: ['service.achievement.awarded'], filters: {} };
    expect(toWebhookSubscription([{ event: 'achievement.awarded', achievements: [1] }, { event: 'achievement.awarded' }])).toEqual(expected);
    expect(toWebhookSubscription([{ event: 'achievement.awarded' }, { event: 'achievement.awarded', achievements: [1] }])).toEqual(expected);
  });

  it('sends no filter for an event that cannot be filtered, and drops unknown events', () => {
    expect(toWebhookSubscription([{ event: 'user.registered', walls: [1] }, { event: 'post.deleted' }])).toEqual({
      events: ['service.user.registered'],
      filters: {},
    });
  });
});
