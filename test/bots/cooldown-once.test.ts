import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cooldown, type BotContext, type HandlerInput } from '../../src';
import { CLAIM_ONCE, type ClaimOnce } from '../../src/bots/claim-once';
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
