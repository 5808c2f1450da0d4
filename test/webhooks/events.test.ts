import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, filterKindOf, fromPlatformEvent, isEventName, isReportName, toPlatformEvent } from '../../src/webhooks/events';
import { readFileSync } from 'node:fs';

const spec = readFileSync(new URL('../fixtures/spec/open-api.md', import.meta.url), 'utf8');

describe('event registry (spec: Events, Outgoing webhooks)', () => {
  it('lists every event named in the spec table, and nothing else', () => {
    const table = spec.slice(spec.indexOf('| Event | Fires when |'), spec.indexOf('Form-response events are never'));
    const named = [...table.matchAll(/service\.([a-z_.]+[a-z_])/g)].map((m) => m[1]);
    expect(new Set(EVENT_NAMES)).toEqual(new Set(named));
  });

  it('filters post and comment events by wall, form responses by form, awards by achievement', () => {
    expect(filterKindOf('post.created')).toBe('walls');
    for (const e of ['comment.created', 'comment.updated', 'comment.deleted'] as const) expect(filterKindOf(e)).toBe('walls');
    expect(filterKindOf('formresponse.created')).toBe('forms');
    expect(filterKindOf('formresponse.updated')).toBe('forms');
    expect(filterKindOf('achievement.awarded')).toBe('achievements');
  });

  it('treats every other event as unfilterable', () => {
    const filterable = [
      'post.created',
      'comment.created',
      'comment.updated',
      'comment.deleted',
      'formresponse.created',
      'formresponse.updated',
      'achievement.awarded',
    ];
    for (const e of EVENT_NAMES.filter((n) => !filterable.includes(n))) expect(filterKindOf(e)).toBeUndefined();
  });

  it('tells event names from report names', () => {
    expect(isEventName('comment.updated')).toBe(true);
    expect(isEventName('service.comment.updated')).toBe(false);
    expect(isEventName('todoliststats.daily')).toBe(false);
    expect(isReportName('todoliststats.daily')).toBe(true);
  });
});

describe('platform event names', () => {
  it('adds the default prefix "service"', () => {
    expect(toPlatformEvent('post.created')).toBe('service.post.created');
  });

  it('maps both ways with a custom prefix', () => {
    expect(toPlatformEvent('formresponse.comment.created', 'acme')).toBe('acme.formresponse.comment.created');
    expect(fromPlatformEvent('acme.formresponse.comment.created', 'acme')).toBe('formresponse.comment.created');
    for (const name of EVENT_NAMES) expect(fromPlatformEvent(toPlatformEvent(name, 'brand'), 'brand')).toBe(name);
  });

  it('refuses a name carrying another prefix or no event after the prefix', () => {
    expect(fromPlatformEvent('service.post.created', 'acme')).toBeUndefined();
    expect(fromPlatformEvent('acmex.post.created', 'acme')).toBeUndefined();
    expect(fromPlatformEvent('acme.', 'acme')).toBeUndefined();
    expect(fromPlatformEvent('service.test')).toBe('test');
  });
});
