import { describe, expect, it } from 'vitest';
import type { CallInput, Caller } from '../../../src/api/caller';
import type { AnyEndpoint } from '../../../src/api/schemas/endpoint';
import { fillPath } from '../../../src/api/schemas/endpoint';
import { endpointList } from '../../../src/api/schemas/endpoints';
import { createResources } from '../../../src/api/resources';

interface Recorded {
  id: string;
  method: string;
  path: string;
  kind: 'call' | 'paginate';
  query?: unknown;
  body?: unknown;
  form?: FormData;
}

/** An in-memory Caller that records each call and answers with canned data. */
function fakeCaller(answer: (endpoint: AnyEndpoint) => unknown = () => ({ id: 1 })) {
  const calls: Recorded[] = [];
  const record = (kind: Recorded['kind'], endpoint: AnyEndpoint, input: CallInput<AnyEndpoint> = {}) => {
    calls.push({
      id: endpoint.id,
      method: endpoint.method,
      path: fillPath(endpoint.path, input.params as Record<string, string | number>),
      kind,
      ...(input.query === undefined ? {} : { query: input.query }),
      ...(input.body === undefined ? {} : { body: input.body }),
      ...(input.form === undefined ? {} : { form: input.form }),
    });
  };
  const caller: Caller = {
    call: async (endpoint, input) => {
      record('call', endpoint, input as CallInput<AnyEndpoint>);
      return answer(endpoint) as never;
    },
    paginate: (endpoint, input) => {
      record('paginate', endpoint, input as CallInput<AnyEndpoint>);
      return (async function* () {
        yield* [{ id: 1 }, { id: 2 }] as never[];
      })();
    },
  };
  return { caller, calls };
}

describe('createResources', () => {
  it('reaches every endpoint of the catalogue through some method', async () => {
    const { caller, calls } = fakeCaller();
    const api = createResources(caller) as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>;
    for (const group of Object.values(api)) {
      for (const method of Object.values(group)) {
        // ids, then a body-ish object: every method takes at most (id, id, body)
        await method(11, 22, { body: 'x' });
      }
    }
    const reached = new Set(calls.map((c) => c.id));
    expect(endpointList.map((e) => e.id).filter((id) => !reached.has(id))).toEqual([]);
  });

  it('fills the wall and post ids into the path and sends the body as given', async () => {
    const { caller, calls } = fakeCaller();
    const api = createResources(caller);
    await api.posts.create(3, { body: 'Hello', media_ids: [5] });
    await api.posts.update(3, 9, { body: 'Edited' });
    await api.posts.delete(3, 9);
    expect(calls).toEqual([
      { id: 'posts.create', method: 'POST', path: '/walls/3/posts', kind: 'call', body: { body: 'Hello', media_ids: [5] } },
      { id: 'posts.update', method: 'PUT', path: '/walls/3/posts/9', kind: 'call', body: { body: 'Edited' } },
      { id: 'posts.delete', method: 'DELETE', path: '/walls/3/posts/9', kind: 'call' },
    ]);
  });

  it('lists one page with the query, and iterates every item through caller.paginate', async () => {
    const { caller, calls } = fakeCaller();
    const api = createResources(caller);
    await api.posts.list(3, { status: 'draft', per_page: 50 });
    const ids: number[] = [];
    for await (const post of api.posts.all(3, { since: '2026-05-01' })) ids.push(post.id);
    expect(ids).toEqual([1, 2]);
    expect(calls.map(({ id, path, kind, query }) => ({ id, path, kind, query }))).toEqual([
      { id: 'posts.list', path: '/walls/3/posts', kind: 'call', query: { status: 'draft', per_page: 50 } },
      { id: 'posts.list', path: '/walls/3/posts', kind: 'paginate', query: { since: '2026-05-01' } },
    ]);
  });

  it("wraps award rows in { awards } and reads a user's achievements by user id (spec: Achievements)", async () => {
    const { caller, calls } = fakeCaller();
    const api = createResources(caller);
    await api.achievements.award(7, [{ user_id: 42, awarded_at: '2026-05-01' }]);
    await api.achievements.userAchievements(42);
    await api.achievements.patch(7, { is_published: true });
    expect(calls.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: '/achievements/7/awards', body: { awards: [{ user_id: 42, awarded_at: '2026-05-01' }] } },
      { method: 'GET', path: '/users/42/achievements', body: undefined },
      { method: 'PATCH', path: '/achievements/7', body: { is_published: true } },
    ]);
  });

  it('sends an incoming webhook payload to /incoming/{token}, encoding the token', async () => {
    const { caller, calls } = fakeCaller();
    await createResources(caller).incomingWebhooks.send('a/b', { text: 'Disk almost full' });
    expect(calls[0]).toMatchObject({ id: 'incomingWebhooks.send', path: '/incoming/a%2Fb', body: { text: 'Disk almost full' } });
  });

  it('passes the multipart form of an upload untouched', async () => {
    const { caller, calls } = fakeCaller();
    const form = new FormData();
    form.set('type', 'image');
    await createResources(caller).media.upload(form);
    await createResources(caller).users.setAvatar(4, form);
    expect(calls.map((c) => [c.path, c.form])).toEqual([
      ['/media', form],
      ['/users/4/avatar', form],
    ]);
  });

  it('sends a direct message to the user in the path, and pins by chat message id', async () => {
    const { caller, calls } = fakeCaller();
    const api = createResources(caller);
    await api.directMessages.send(42, { bot_user_id: 5, text: 'Happy birthday!' });
    await api.chatMessages.pin(8);
    await api.chatMessages.unpin(8);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /users/42/messages', 'POST /chat-messages/8/pin', 'DELETE /chat-messages/8/pin']);
  });

  it('returns what the caller answers', async () => {
    const { caller } = fakeCaller((endpoint) => (endpoint.id === 'token.get' ? { name: 'ci', scopes: ['read:posts'], expires_at: null } : {}));
    const token = await createResources(caller).token.get();
    expect(token.scopes).toEqual(['read:posts']);
  });
});
