import { describe, expect, it } from 'vitest';
import { EventCreateSchema, EventUpdateSchema } from '../../../src/api/schemas';
import { issues } from './issues';

describe('event bodies (spec: Events, Event publication state)', () => {
  it('allows publish_at null, which cancels a pending schedule', () => {
    expect(issues(EventUpdateSchema, { publish_at: null })).toEqual([]);
  });

  it('refuses a publish_at that is not a datetime', () => {
    expect(issues(EventUpdateSchema, { publish_at: 'tomorrow' })[0]?.path).toBe('publish_at');
  });

  it('refuses ends_at before starts_at when both are given, naming ends_at', () => {
    expect(issues(EventCreateSchema, { title: 'T', body: 'B', starts_at: '2026-05-02', ends_at: '2026-05-01' })).toEqual([
      { path: 'ends_at', message: 'ends_at must be on or after starts_at' },
    ]);
    expect(issues(EventUpdateSchema, { ends_at: '2026-05-01' })).toEqual([]);
    expect(issues(EventCreateSchema, { title: 'T', body: 'B', starts_at: '2026-05-02', ends_at: '2026-05-02' })).toEqual([]);
  });
});
