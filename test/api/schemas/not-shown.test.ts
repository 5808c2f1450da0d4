import { describe, expect, it } from 'vitest';
import { GroupCreateSchema, NotificationCreateSchema } from '../../../src/api/schemas';
import { issues } from './issues';

describe('not-shown bodies (DESIGN.md)', () => {
  it('defaults a group to department and allows is_open only on custom groups', () => {
    expect(GroupCreateSchema.parse({ name: 'Ops' }).type).toBe('department');
    expect(issues(GroupCreateSchema, { name: 'Ops', is_open: true })[0]?.path).toBe('is_open');
    expect(issues(GroupCreateSchema, { name: 'Ops', type: 'custom', is_open: true })).toEqual([]);
  });

  it('needs groups or users for a notification', () => {
    expect(issues(NotificationCreateSchema, { title: 'T', body: 'B' })[0]?.path).toBe('groups');
    expect(issues(NotificationCreateSchema, { title: 'T', body: 'B', users: [3] })).toEqual([]);
  });
});
