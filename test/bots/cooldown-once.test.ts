import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cooldown, type BotContext, type HandlerInput } from '../../src';
import { CLAIM_ONCE, type ClaimOnce } from '../../src/bots/claim-once';
import { botStore } from '../../src/bots/create-bot-context';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';

// issue #16: the cooldown read, then wrote the bot's store; two replicas taking the same user's command
// at the same instant both read "free" and both ran it. The decision is a claim now.
const REDIS = redisTestUrl();

const command: HandlerInput = {
  kind: 'command',
  what: '/deploy',
  command: { name: 'deploy', args: [], text: '/deploy', user: { id: 7, name: 'Ada' }, source: { postId: 1, wallId: 1 } } as never,
};

/** A context as one replica's run sees it: an empty bot store (neither replica has written yet) and the store's claims. */
function replicaContext(clock: AdjustableClock, claim: ClaimOnce, replies: string[]): BotContext {
  return {
    now: () => clock.now(),
    store: { get: async () => undefined, set: async () => undefined, delete: async () => undefined },
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    reply: async (text: string) => {
      replies.push(text);
      return { id: 'r' };
    },
    locals: { [CLAIM_ONCE.name]: claim },
  } as unknown as BotContext;
}

async function raceOn(store: Store, clock: AdjustableClock): Promise<number> {
  const middleware = cooldown({ per: '1m' });
  let ran = 0;
  const replies: string[] = [];
  const claim: ClaimOnce = (key, ttlMs) => store.claims.claim(`bot:sandbox:ops:${key}`, ttlMs);
  await Promise.all(
    [0, 1].map(() =>
      middleware(command, replicaContext(clock, claim, replies), async () => {
        ran++;
      }),
    ),
  );
  return ran;
}

describe('cooldown across replicas: one of two simultaneous commands runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-cooldown-'));
  const prefix = uniqueRedisPrefix('cooldown');
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (REDIS) await deleteRedisPrefix(REDIS, prefix);
  });

  it('on SQLite', async () => {
    const clock = new AdjustableClock({ frozen: true });
    const store = await openStore({ kind: 'sqlite', path: join(dir, 'intrabot.db') }, { clock, secretKey: 'k' });
    try {
      expect(await raceOn(store, clock)).toBe(1);
      clock.advance(61_000);
      expect(await raceOn(store, clock)).toBe(1);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!REDIS)('on Redis', async () => {
    const clock = new AdjustableClock({ frozen: true });
    const store = await openStore({ kind: 'redis', url: REDIS!, prefix }, { clock, secretKey: 'k' });
    try {
      expect(await raceOn(store, clock)).toBe(1);
    } finally {
      await store.close();
    }
  });
});

// issue #24: the first /cool ran; five more at once on three replicas each read "not told yet" before any
// wrote it, and 3 to 5 of them answered "please wait". The answer is claimed once per cooldown now.
async function noticesOn(replicas: Store[], clock: AdjustableClock): Promise<{ ran: number; replies: string[] }> {
  const middleware = cooldown({ per: '1m', commands: ['cool'] });
  const cool: HandlerInput = { ...command, what: '/cool', command: { ...(command as { command: object }).command, name: 'cool', text: '/cool' } } as never;
  let ran = 0;
  const replies: string[] = [];
  const contextOf = (store: Store): BotContext =>
    ({
      ...replicaContext(clock, (key, ttlMs) => store.claims.claim(`bot:sandbox:ops:${key}`, ttlMs), replies),
      store: botStore(store.kv('bot:ops')),
    }) as BotContext;
  const run = (i: number) =>
    middleware(cool, contextOf(replicas[i % replicas.length]!), async () => {
      ran++;
    });
  await run(0);
  await Promise.all([1, 2, 3, 4, 5].map(run));
  return { ran, replies };
}

describe('cooldown across replicas: one "please wait" per cooldown, however many tries at once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-cooldown-notice-'));
  const prefix = uniqueRedisPrefix('cooldown-notice');
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (REDIS) await deleteRedisPrefix(REDIS, prefix);
  });

  async function check(open: (clock: AdjustableClock) => Promise<Store>): Promise<void> {
    const clock = new AdjustableClock({ frozen: true });
    const replicas = [await open(clock), await open(clock), await open(clock)];
    try {
      const first = await noticesOn(replicas, clock);
      expect(first.ran).toBe(1);
      expect(first.replies).toEqual(['Ada, /cool can be used again in 60 s.']);
      // the next cooldown is a new window: its first try too early is told again, once
      clock.advance(61_000);
      expect((await noticesOn(replicas, clock)).replies).toHaveLength(1);
    } finally {
      await Promise.all(replicas.map((store) => store.close()));
    }
  }

  it('on SQLite (three stores on one file)', async () => {
    await check((clock) => openStore({ kind: 'sqlite', path: join(dir, 'intrabot.db') }, { clock, secretKey: 'k' }));
  });

  it.skipIf(!REDIS)('on Redis (three connections)', async () => {
    await check((clock) => openStore({ kind: 'redis', url: REDIS!, prefix }, { clock, secretKey: 'k' }));
  });
});
