import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { DELIVERY_LOG_PER_BOT, DELIVERY_LOG_TTL_MS, DeliveryLog, type HandledDelivery } from '../../src/runtime/ingest/delivery-log';
import type { InboxItem } from '../../src/store/inbox';
import { tempStore } from '../helpers/temp-store';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../src/testing';

describe('the recent history of handled deliveries (intrabot deliveries)', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/bots'), bots: ['echo'] });
  });
  afterAll(async () => pair?.close());

  const handled = async (): Promise<HandledDelivery[]> =>
    ((await (await fetch(`${pair.runtime.inspect().url}/_admin/deliveries?state=handled&limit=50`)).json()) as { data: HandledDelivery[] }).data;

  it('lists what each bot did with a delivery, newest first, and why it ignored one', async () => {
    const refs = directoryRefs(pair.sandbox.ctx)!;
    const post = await pair.platform.employeePost(refs.employee_ids[1]!, { wall_id: refs.company_wall_id, body: 'history please' });
    await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    // the echo's own comment comes back as comment.created: ignored by loop prevention
    const entries = await pair.platform.waitFor(handled, (list) => list.some((e) => e.event === 'comment.created'));
    const [newest, older] = [entries.find((e) => e.event === 'comment.created')!, entries.find((e) => e.event === 'post.created')!];
    expect(older).toMatchObject({ tenant: 'sandbox', bot: 'echo', outcome: 'handled', detail: 'on.post.created', recovered: false });
    expect(newest).toMatchObject({ outcome: 'ignored', detail: expect.stringContaining('loop prevention') });
    expect(entries.indexOf(newest)).toBeLessThan(entries.indexOf(older));
  });

  it('forgets them after a few hours', async () => {
    expect((await handled()).length).toBeGreaterThan(0);
    pair.clock.advance(DELIVERY_LOG_TTL_MS + 1);
    expect(await handled()).toEqual([]);
  });
});

describe('DeliveryLog', () => {
  it('keeps the last 100 per tenant and bot, so the history is bounded whatever the rate', async () => {
    const clock = new AdjustableClock({ frozen: true });
    const store = await tempStore(clock);
    try {
      const log = new DeliveryLog(store.kv('runtime:deliveries'), clock);
      const item = (bot: string, n: number): InboxItem => ({
        tenant: 't',
        bot,
        deliveryId: `${bot}-${n}`,
        event: 'post.created',
        dedupeKey: null,
        envelope: {} as never,
      });
      // concurrent appends to one bot, as the inbox's lanes make them
      await Promise.all(
        Array.from({ length: DELIVERY_LOG_PER_BOT + 5 }, (_, n) => {
          clock.advance(1);
          return log.record(item('busy', n), { status: 'handled', what: 'on.post.created' }, 1);
        }),
      );
      for (let n = 0; n < 3; n++) {
        clock.advance(1);
        await log.record(item('quiet', n), { status: 'ignored', reason: 'no handler' }, 1);
      }
      const all = await log.recent(1_000);
      expect(all.filter((e) => e.bot === 'busy')).toHaveLength(DELIVERY_LOG_PER_BOT);
      expect(all.filter((e) => e.bot === 'quiet')).toHaveLength(3);
      expect(all.some((e) => e.deliveryId === 'busy-0')).toBe(false);
      expect(all.some((e) => e.deliveryId === `busy-${DELIVERY_LOG_PER_BOT + 4}`)).toBe(true);
      expect((await log.recent(2)).map((e) => e.bot)).toEqual(['quiet', 'quiet']);
    } finally {
      await store.close();
    }
  });

  it('skips stored history values of another shape instead of failing the listing or the next append', async () => {
    const clock = new AdjustableClock({ frozen: true });
    const store = await tempStore(clock);
    try {
      const kv = store.kv('runtime:deliveries');
      await kv.set('["t","broken"]', null);
      await kv.set('["t","odd"]', [{ deliveryId: 'no other field' }, 7]);
      await kv.set('["t","echo"]', 'not a list');
      const log = new DeliveryLog(kv, clock);
      expect(await log.recent(10)).toEqual([]);
      const item: InboxItem = { tenant: 't', bot: 'echo', deliveryId: 'd-1', event: 'post.created', dedupeKey: null, envelope: {} };
      await log.record(item, { status: 'handled', what: 'on.post.created' }, 1);
      expect((await log.recent(10)).map((e) => e.deliveryId)).toEqual(['d-1']);
    } finally {
      await store.close();
    }
  });
});
