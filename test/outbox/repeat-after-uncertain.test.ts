import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Item, type Pair } from '../../src/testing';

/**
 * A create whose answer was a 5xx is reconciled before it is sent again (DESIGN.md: "A create that
 * timed out is checked against the platform before it is sent again"). A legitimate repeat of an
 * earlier message (same text, same author) must not be taken for the lost attempt: the earlier
 * message was created by another outbox entry, so it is not this one's.
 */
let pair: Pair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

const fixture = (name: string): string => readFileSync(`test/fixtures/alerts/${name}`, 'utf8');

/** Moves the shared clock past the outbox's wait before reconciling (30 s) until `done` holds. */
async function advanceUntil<T>(p: Pair, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return p.platform.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) await p.platform.advance(31);
      return value;
    },
    done,
    15_000,
  );
}

async function failedOnce(p: Pair, method: string, pattern: RegExp): Promise<void> {
  await p.platform.waitFor(
    () => p.platform.request<{ data: { method: string; path: string; status: number }[] }>('GET', '/_sandbox/requests?limit=500'),
    (r) => r.data.some((q) => q.method === method && pattern.test(q.path) && q.status === 503),
  );
}

describe('a repeat of an earlier message after an uncertain attempt', () => {
  it('answers a second /oncall after a 503 on its reply instead of taking the first reply for it', async () => {
    pair = await startPair({ bots: ['ops'] });
    const refs = directoryRefs(pair.sandbox.ctx)!;
    const [first, second, author] = [refs.employee_ids[1]!, refs.employee_ids[2]!, refs.employee_ids[0]!];
    const post = await pair.platform.employeePost(author, { wall_id: refs.company_wall_id, body: 'Who do I call about the VPN?' });
    await pair.platform.employeeComment(first, { post_id: post.id, body: '/oncall' });
    const replies = (c: Item[]) => c.filter((x) => x.body === 'On call: Ada Lovelace');
    await pair.platform.waitFor(
      () => pair!.platform.commentsOn(post.id),
      (c) => replies(c).length === 1,
    );

    await pair.platform.fault({ method: 'POST', path: '/api/open/v1/posts/*/comments', status: 503, count: 1 });
    await pair.platform.employeeComment(second, { post_id: post.id, body: '/oncall' });
    await failedOnce(pair, 'POST', /^\/api\/open\/v1\/posts\/\d+\/comments$/);
    const comments = await advanceUntil(
      pair,
      () => pair!.platform.commentsOn(post.id),
      (c) => replies(c).length === 2,
    );
    expect(replies(comments)).toHaveLength(2);
    expect(await pair.runtime.inspect().store.outbox.list({ state: 'dead' })).toEqual([]);
  });

  it('posts an alert that fires again after a 503 instead of taking the post of its earlier firing for it', async () => {
    pair = await startPair({ bots: ['alerts'] });
    await pair.platform.settings({ rate_limit_per_minute: 600 });
    const wall = directoryRefs(pair.sandbox.ctx)!.department_walls.Operations!;
    const send = async (name: string) => {
      const res = await fetch(`${pair!.runtime.inspect().url}/alerts/alerts/alertmanager`, {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-alert-token', 'content-type': 'application/json' },
        body: fixture(name),
      });
      expect(res.status).toBe(202);
    };
    const firing = (posts: Item[]) => posts.filter((p) => p.body?.includes('HighHTTPErrorRate'));

    await send('alertmanager-firing.json');
    const [post] = firing(
      await pair.platform.waitFor(
        () => pair!.platform.wallPosts(wall),
        (p) => firing(p).length === 1,
      ),
    );
    await send('alertmanager-resolved.json');
    await pair.platform.waitFor(
      () => pair!.platform.commentsOn(post!.id),
      (c) => c.length > 0,
    );

    await pair.platform.fault({ method: 'POST', path: '/api/open/v1/walls/*/posts', status: 503, count: 1 });
    await send('alertmanager-firing.json');
    await failedOnce(pair, 'POST', /^\/api\/open\/v1\/walls\/\d+\/posts$/);
    const posts = await advanceUntil(
      pair,
      () => pair!.platform.wallPosts(wall),
      (p) => firing(p).length === 2,
    );
    // the new firing is a post of its own; the earlier one, kept current, says its incident resolved
    expect(firing(posts).map((p) => p.body)).toEqual([post!.body, `${post!.body}\n\n✅ Resolved: all 3 alerts`]);
  });
});
