import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../src/testing';

describe('polling instead of receiving (intrabot dev --poll)', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'], poll: { intervalMs: 200 } });
  });
  afterAll(async () => pair?.close());

  it('creates no webhook endpoint, since the platform cannot reach the runtime', async () => {
    const hooks = await pair.platform.request<{ data: { name: string }[] }>('GET', '/api/open/v1/webhooks', undefined, pair.sandbox.token);
    expect(hooks.data.map((h) => h.name)).not.toContain('intrabot:ops');
    expect(pair.runtime.inspect().provisionResults[0]?.bots.ops).toMatchObject({ enabled: true, webhookId: undefined });
  });

  it('finds a new command by polling and answers it once', async () => {
    const refs = directoryRefs(pair.sandbox.ctx)!;
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/oncall' });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments.map((c) => c.body)).toEqual(['On call: Ada Lovelace']);
    // a few more polling rounds see the same post again. A round starts by listing the walls, once the
    // round before it has ended: a third listing means two whole rounds since. Their reads are paced about
    // one a second on the shared clock, moved two seconds a look (each round looks back a minute past the last)
    await pair.platform.request('DELETE', '/_sandbox/requests');
    await pair.platform.waitFor(
      async () => {
        await pair.platform.advance(2);
        const log = await pair.platform.request<{ data: { method: string; path: string }[] }>('GET', '/_sandbox/requests?limit=500');
        return log.data.filter((r) => r.method === 'GET' && r.path.startsWith('/api/open/v1/walls?')).length;
      },
      (listings) => listings >= 3,
      15_000,
    );
    await pair.settle();
    expect(await pair.platform.commentsOn(post.id)).toHaveLength(1);
  });
});
