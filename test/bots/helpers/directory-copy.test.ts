import { describe, expect, it } from 'vitest';
import {
  collectGroups,
  decodeDirectory,
  encodeDirectory,
  FULL_RESYNC_EVERY_MS,
  mergeUsers,
  planSync,
  resolveGroups,
  toDirectoryUser,
  type Directory,
  type DirectoryUser,
} from '../../../src/bots/helpers/directory-copy';

const DAY_MS = 86_400_000;

function entry(id: number, fields: Partial<DirectoryUser> = {}): DirectoryUser {
  return { id, name: `User ${id}`, first_name: 'User', date_of_birth: null, hired_at: null, is_away: false, group_ids: [], ...fields };
}

const directory: Directory = {
  cursor: '2026-06-01T09:00:00+02:00',
  fullSyncAt: Date.UTC(2026, 5, 1),
  users: [entry(1, { date_of_birth: '1990-02-29', group_ids: [3, 4] }), entry(2, { is_away: true, hired_at: '2020-01-01' })],
  groups: { '3': { name: 'Engineering', type: 'department' }, '4': { name: 'Engineer', type: 'profession' } },
};

describe('encodeDirectory / decodeDirectory', () => {
  it('round-trips the copy through its compact stored form', () => {
    expect(decodeDirectory(JSON.parse(JSON.stringify(encodeDirectory(directory))))).toEqual(directory);
  });

  it('stores each user as a tuple, not an object with repeated keys', () => {
    expect(encodeDirectory(directory).users[1]).toEqual([2, 'User 2', 'User', null, '2020-01-01', 1, []]);
  });

  it('reads nothing from an absent or foreign value, so the next sync is a full one', () => {
    expect(decodeDirectory(undefined)).toBeUndefined();
    expect(decodeDirectory({ ...encodeDirectory(directory), v: 2 })).toBeUndefined();
    expect(decodeDirectory({ users: [] })).toBeUndefined();
  });
});

describe('planSync', () => {
  const now = directory.fullSyncAt + DAY_MS;

  it('syncs fully without a copy or without a cursor', () => {
    expect(planSync(undefined, now)).toEqual({ mode: 'full' });
    expect(planSync({ ...directory, cursor: null }, now)).toEqual({ mode: 'full' });
  });

  it('syncs incrementally from the newest created_at seen while the full sync is fresh', () => {
    expect(planSync(directory, now)).toEqual({ mode: 'incremental', since: directory.cursor });
    expect(planSync(directory, directory.fullSyncAt + FULL_RESYNC_EVERY_MS - 1)).toEqual({ mode: 'incremental', since: directory.cursor });
  });

  it('re-syncs fully once the last full sync is a week old (or the configured interval)', () => {
    expect(planSync(directory, directory.fullSyncAt + FULL_RESYNC_EVERY_MS)).toEqual({ mode: 'full' });
    expect(planSync(directory, directory.fullSyncAt + 2 * DAY_MS, 2 * DAY_MS)).toEqual({ mode: 'full' });
  });

  it('re-syncs fully when the clock went back before the last full sync', () => {
    expect(planSync(directory, directory.fullSyncAt - DAY_MS)).toEqual({ mode: 'full' });
  });
});

describe('mergeUsers', () => {
  it('adds new users, replaces known ones by id, drops removed ids, and sorts by id', () => {
    const merged = mergeUsers([entry(3), entry(1)], [entry(2), entry(3, { is_away: true })], [1]);
    expect(merged.map((u) => [u.id, u.is_away])).toEqual([
      [2, false],
      [3, true],
    ]);
  });
});

describe('toDirectoryUser and collectGroups', () => {
  const apiUser = {
    id: 7,
    name: 'Ada Lovelace',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    date_of_birth: '1815-12-10',
    hired_at: '2020-05-01',
    is_away: false,
    groups: [{ id: 3, name: 'Engineering', type: 'department', is_manager: false }],
  };

  it('keeps what celebrations need and drops the rest', () => {
    expect(toDirectoryUser(apiUser)).toEqual({
      id: 7,
      name: 'Ada Lovelace',
      first_name: 'Ada',
      date_of_birth: '1815-12-10',
      hired_at: '2020-05-01',
      is_away: false,
      group_ids: [3],
    });
  });

  it('names the groups users belong to once', () => {
    expect(collectGroups({}, [apiUser, { ...apiUser, id: 8 }])).toEqual({ '3': { name: 'Engineering', type: 'department' } });
  });
});

describe('resolveGroups', () => {
  it('takes ids as they are and names case-insensitively, reporting unknown names', () => {
    expect(resolveGroups([5, '6', 'engineering', 'Marketing'], directory.groups)).toEqual({ ids: [5, 6, 3], unknown: ['Marketing'] });
  });
});
