import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_LOG_TTL_MS, type HandledDelivery } from '../../src/runtime/delivery-log';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../src/testing';

describe('the recent history of handled deliveries (intrabot deliveries)', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/bots'), bots: ['echo'] });
  });
  afterAll(async () => pair?.close());

  const handled = async (): Promise<HandledDelivery[]> =>
    ((await (await fetch(`${pair.runtime.url}/_admin/deliveries?state=handled&limit=50`)).json()) as { data: HandledDelivery[] }).data;

  it('lists what each bot did with a delivery, newest first, and why it ignored one', async () => {
    const refs = directoryRefs(pair.sandbox.ctx)!;
    const post = await pair.platform.employeePost(refs.employee_ids[1]!, { wall_id: refs.company_wall_id, body: 'history please' });
    await pair.platform.waitFor(() => pair.platform.commentsOn(post.id), (c) => c.length > 0);
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
