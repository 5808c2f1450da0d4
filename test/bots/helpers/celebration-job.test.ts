import { describe, expect, it } from 'vitest';
import type { Caller, CallInput } from '../../../src/api/caller';
import { ApiNotFoundError } from '../../../src/api/errors';
import type { AnyEndpoint } from '../../../src/api/schemas/endpoint';
import type { BotContext, OutgoingMessage } from '../../../src/bots/context';
import { CelebrationConfigSchema, greetedKey, runCelebration, type CelebrationConfig, type CelebrationSpec } from '../../../src/bots/helpers/celebration-job';
import { birthdaysOn, localDate } from '../../../src/bots/helpers/celebrations';

// 08:00 in Berlin on 2026-06-10
const SLOT = Date.UTC(2026, 5, 10, 6);
const SALES = { id: 3, name: 'Sales', type: 'department' };
const OPS = { id: 4, name: 'Operations', type: 'department' };

interface FakeUser {
  id: number;
  name: string;
  first_name: string;
  date_of_birth: string | null;
  is_away: boolean;
  groups: { id: number; name: string; type: string }[];
  created_at: string;
}

function user(id: number, fields: Partial<FakeUser> = {}): FakeUser {
  return {
    id,
    name: `Person ${id}`,
    first_name: `P${id}`,
    date_of_birth: '1990-06-10',
    is_away: false,
    groups: [SALES],
    created_at: `2020-01-0${id}T10:00:00+01:00`,
    ...fields,
  };
}

function fakeContext(users: FakeUser[], config: Partial<CelebrationConfig> = {}) {
  const directory = new Map(users.map((u) => [u.id, u]));
  const api: Caller = {
    async call<E extends AnyEndpoint>(_endpoint: E, input?: CallInput<E>): Promise<never> {
      const found = directory.get(Number((input?.params as Record<string, unknown>).id));
      if (!found) throw new ApiNotFoundError({ method: 'GET', path: '/users/x', status: 404 });
      return found as never;
    },
    async *paginate(): AsyncIterable<never> {
      for (const u of users) yield u as never;
    },
  };
  const values = new Map<string, unknown>();
  const sent = { posts: [] as { target: unknown; message: OutgoingMessage }[], dms: [] as { userId: number; message: OutgoingMessage }[] };
  const logs: { level: string; message: string }[] = [];
  const log = (level: string) => (message: string) => void logs.push({ level, message });
  const ctx = {
    api,
    store: {
      get: async (key: string) => values.get(key),
      set: async (key: string, value: unknown) => void values.set(key, JSON.parse(JSON.stringify(value))),
      delete: async (key: string) => void values.delete(key),
    },
    log: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    progress: (text: string) => void logs.push({ level: 'progress', message: text }),
    config: CelebrationConfigSchema.parse({ templates: { post: 'birthday/post', dm: 'birthday/dm' }, ...config }),
    tenant: { id: 't', timezone: 'Europe/Berlin', locale: 'en' },
    dateOf: (instant: number) => localDate(instant, 'Europe/Berlin'),
    signal: new AbortController().signal,
    post: async (target: unknown, message: OutgoingMessage) => {
      sent.posts.push({ target, message });
      return { id: 'p' };
    },
    dm: async (userId: number, message: OutgoingMessage) => {
      sent.dms.push({ userId, message });
      return { id: 'd' };
    },
  } as unknown as BotContext<CelebrationConfig>;
  return { ctx, directory, sent, logs, values };
}

const spec: CelebrationSpec<CelebrationConfig> = {
  kind: 'birthday',
  select: (users, date, filter) => birthdaysOn(users, date, filter).map((u) => ({ user: u })),
};

describe('runCelebration', () => {
  it('greets everyone celebrating in one post with their names, then marks the day', async () => {
    const { ctx, sent, values } = fakeContext([user(1), user(2), user(3, { date_of_birth: '1990-06-11' })]);
    await runCelebration(ctx, { name: 'greet', slot: SLOT }, spec);
    expect(sent.posts).toEqual([
      {
        target: 'company',
        message: {
          template: 'birthday/post',
          data: {
            date: '2026-06-10',
            count: 2,
            celebrants: [
              { id: 1, name: 'Person 1', first_name: 'P1' },
              { id: 2, name: 'Person 2', first_name: 'P2' },
            ],
          },
        },
      },
    ]);
    expect(sent.dms).toEqual([]);
    expect(values.get(greetedKey('birthday', '2026-06-10'))).toMatchObject({ state: 'done', users: [1, 2] });
  });

  it('sends nothing on a second run the same day, and says so', async () => {
    const { ctx, sent, logs } = fakeContext([user(1)]);
    await runCelebration(ctx, { name: 'greet', slot: SLOT }, spec);
    await runCelebration(ctx, { name: 'greet', slot: SLOT + 3_600_000 }, spec);
    expect(sent.posts).toHaveLength(1);
    expect(logs.some((l) => l.message.startsWith('already greeted for 2026-06-10'))).toBe(true);
  });

  it('leaves the day to a run already in progress', async () => {
    const { ctx, sent, logs, values } = fakeContext([user(1)]);
    values.set(greetedKey('birthday', '2026-06-10'), { state: 'running', at: SLOT });
    await runCelebration(ctx, { name: 'greet', slot: SLOT }, spec);
    expect(sent.posts).toEqual([]);
    expect(logs.some((l) => l.message.startsWith('another run is greeting'))).toBe(true);
  });

  it('leaves no marker when a run fails, so a rerun can greet', async () => {
    const { ctx, sent, values } = fakeContext([user(1)]);
    const failing = {
      ...ctx,
      api: {
        ...ctx.api,
        call: async () => {
          throw new Error('platform down');
        },
      },
    } as unknown as BotContext<CelebrationConfig>;
    await expect(runCelebration(failing, { name: 'greet', slot: SLOT }, spec)).rejects.toThrow('platform down');
    expect(values.has(greetedKey('birthday', '2026-06-10'))).toBe(false);
    await runCelebration(ctx, { name: 'greet', slot: SLOT }, spec);
    expect(sent.posts).toHaveLength(1);
  });

  it('reads the day from the slot in the tenant zone, not UTC', async () => {
    const { ctx, sent } = fakeContext([user(1, { date_of_birth: '1990-01-01' })]);
    await runCelebration(ctx, { name: 'greet', slot: Date.UTC(2026, 11, 31, 23, 30) }, spec);
    expect(sent.posts).toHaveLength(1);
  });

  it('judges being away on the fresh read, not on the stored copy', async () => {
    const { ctx, directory, sent } = fakeContext([user(1), user(2)], { skip_away: true });
    directory.set(2, user(2, { is_away: true }));
    await runCelebration(ctx, { name: 'greet', slot: SLOT }, spec);
    expect(sent.posts[0]?.message).toMatchObject({ data: { celebrants: [{ id: 1 }] } });
  });

  it('filters by group name, and an unknown group name matches nobody with a warning', async () => {
    const users = [user(1), user(2, { groups: [OPS] })];
    const named = fakeContext(users, { groups: ['operations'] });
    await runCelebration(named.ctx, { name: 'greet', slot: SLOT }, spec);
    expect(named.sent.posts[0]?.message).toMatchObject({ data: { celebrants: [{ id: 2 }] } });

    const unknown = fakeContext(users, { groups: ['Marketing'] });
    await runCelebration(unknown.ctx, { name: 'greet', slot: SLOT }, spec);
    expect(unknown.sent.posts).toEqual([]);
    expect(unknown.logs.some((l) => l.level === 'warn')).toBe(true);
  });

  it('sends a direct message to each celebrant in dm mode, and no post', async () => {
    const { ctx, sent } = fakeContext([user(1), user(2)], { mode: 'dm' });
    await runCelebration(ctx, { name: 'greet', slot: SLOT }, spec);
    expect(sent.posts).toEqual([]);
    expect(sent.dms.map((d) => d.userId)).toEqual([1, 2]);
    expect(sent.dms[0]?.message).toEqual({ template: 'birthday/dm', data: { date: '2026-06-10', user: { id: 1, name: 'Person 1', first_name: 'P1' } } });
  });

  it('greets nobody who left the company since the copy was made', async () => {
    const { ctx, directory, sent } = fakeContext([user(1), user(2)]);
    directory.delete(2);
    await runCelebration(ctx, { name: 'greet', slot: SLOT }, spec);
    expect(sent.posts[0]?.message).toMatchObject({ data: { count: 1, celebrants: [{ id: 1 }] } });
  });
});
