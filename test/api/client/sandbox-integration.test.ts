import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type IntrabotApi } from '../../../src/api/create-api-client';
import { ApiForbiddenError, ApiValidationError } from '../../../src/api/errors';
import { endpoints } from '../../../src/api/schemas/endpoints';
import { AdjustableClock } from '../../../src/clock';
import { createSandbox, type Sandbox } from '../../../src/sandbox/sandbox';

/** The production client against the in-process sandbox over real loopback HTTP, on one shared clock. */
describe('ApiClient against the sandbox', () => {
  let sandbox: Sandbox;
  let clock: AdjustableClock;
  const clients: IntrabotApi[] = [];

  function client(token?: string): IntrabotApi {
    const api = createApiClient({ baseUrl: sandbox.baseUrl, token: token ?? sandbox.token, clock, retry: { attempts: 1 } });
    clients.push(api);
    return api;
  }

  async function control(method: string, path: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${sandbox.baseUrl}/_sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  }

  beforeAll(async () => {
    clock = new AdjustableClock();
    sandbox = await createSandbox({ port: 0, seed: 'large', users: 120, clock });
  });

  afterAll(async () => {
    await Promise.all(clients.map((api) => api.close()));
    await sandbox.close();
  });

  it('reads every user across pages of 50, following links.next to the end (spec: Pagination)', async () => {
    const api = client();
    const first = await api.call(endpoints['users.list'], { query: { per_page: 50 } });
    const all = [];
    for await (const user of api.paginate(endpoints['users.list'])) all.push(user);
    expect(all).toHaveLength(Number(first.meta?.total));
    expect(new Set(all.map((u) => u.id)).size).toBe(all.length);
  });

  it('names the missing scope of a 403 (spec: Authentication 2)', async () => {
    const { token } = (await control('POST', '/tokens', { name: 'walls only', scopes: ['read:walls'] })) as { token: string };
    const error = await client(token)
      .call(endpoints['users.list'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'read:users', platformStatus: 403 });
    expect(JSON.stringify(error)).not.toContain(token);
  });

  it('names the failing row of a refused award batch (spec: Award rules 2)', async () => {
    const api = client();
    const achievements = await api.call(endpoints['achievements.list'], { query: { is_published: true } as never });
    const target = achievements.data.find((a) => a.type !== 'employee_of_the_month');
    expect(target).toBeDefined();
    const body = { awards: [{ user_id: 999_999, awarded_at: '2026-01-01' }] };
    const error = await api.call(endpoints['achievements.award'], { params: { id: target!.id }, body }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'awards.0.user_id' });
  });

  it('uploads a file and creates a post carrying it, in one call (spec: Media, two-step use)', async () => {
    const api = client();
    const walls = await api.call(endpoints['walls.list']);
    const wall = walls.data[0]!;
    const post = await api.posts.createWithMedia({
      wallId: wall.id,
      body: 'Quarterly numbers',
      media: [{ data: Buffer.from('%PDF-1.7'), filename: 'q3.pdf', type: 'document' }],
    });
    expect(post).toMatchObject({ body: 'Quarterly numbers', wall_id: wall.id });
  });

  it('stays under a 5-per-minute limit without a single 429 (spec: Limits)', async () => {
    await control('PUT', '/settings', { rate_limit_per_minute: 5 });
    const api = client(((await control('POST', '/tokens', { name: 'paced', scopes: ['read:walls'] })) as { token: string }).token);
    let done = 0;
    // a single attempt each: a 429 would surface as an error instead of being retried away
    const calls = Array.from({ length: 8 }, () => api.call(endpoints['walls.list']).then(() => (done += 1)));
    // whenever the client holds back, move the shared clock on so the platform's window can reset
    for (let i = 0, seen = -1; i < 60 && done < 8; i += 1, seen = done) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      if (done === seen) clock.advance(10_000);
    }
    await expect(Promise.all(calls)).resolves.toHaveLength(8);
    await control('PUT', '/settings', { rate_limit_per_minute: 60 });
  });
});
