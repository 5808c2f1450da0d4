import { setTimeout as sleep } from 'node:timers/promises';
import { SeedRefsSchema, type SeedRefs } from '../sandbox/seed/seed-refs';
import { ALL_SCOPES } from '../sandbox/state/records';

type Json = Record<string, unknown>;

/** A post or comment as the sandbox answers it. */
export type Item = Json & { id: number; body?: string };

/**
 * The sandbox's control API and read-backs over real HTTP, for tests: act as employees, move the
 * clock, and read what bots sent (posts, comments, messages, deliveries).
 */
export class SandboxControl {
  private harnessToken: Promise<string> | undefined;

  constructor(readonly baseUrl: string) {}

  /**
   * API reads of the harness use a token of their own: the platform's rate limit is per token, so a
   * test polling for a bot's output never spends the budget of the token the runtime uses.
   */
  private apiToken(): Promise<string> {
    this.harnessToken ??= this.request<{ token: string }>('POST', '/_sandbox/tokens', { name: 'test-harness', scopes: [...ALL_SCOPES] }).then((r) => r.token);
    return this.harnessToken;
  }

  /** `token` overrides the harness token (e.g. to see the webhooks that belong to the runtime's token). */
  async request<T = Json>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    let res = await this.send(method, path, body, token);
    if (res.status === 401 && token === undefined && path.startsWith('/api/')) {
      // a reset of the sandbox (`POST /_sandbox/reset`) forgets every token: the harness makes its own again
      this.harnessToken = undefined;
      res = await this.send(method, path, body, token);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async send(method: string, path: string, body: unknown, token: string | undefined): Promise<Response> {
    const auth: Record<string, string> = path.startsWith('/api/') ? { authorization: `Bearer ${token ?? (await this.apiToken())}` } : {};
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...auth },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /**
   * The seed's named ids (`GET /_sandbox/refs`): employees, managers, departments and groups, walls,
   * chat rooms and the demo achievements, so a test never hard-codes an id. Rejects after the `empty`
   * seed, which names nothing.
   *
   * @example
   * const refs = await platform.refs();
   * await platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.department_walls.Sales!, body: '/hello' });
   */
  async refs(): Promise<SeedRefs> {
    return SeedRefsSchema.parse(await this.request('GET', '/_sandbox/refs'));
  }

  /** Resolves once no outgoing-webhook delivery of the sandbox is in flight (each has its answer). */
  async settleDeliveries(): Promise<void> {
    await this.request('POST', '/_sandbox/deliveries/settle', {});
  }

  /** An employee posts on a wall (fires `post.created`). */
  async employeePost(userId: number, input: { wall_id: number; body: string; scheduled_at?: string }): Promise<Item> {
    return (await this.request<{ data: Item }>('POST', `/_sandbox/users/${userId}/posts`, input)).data;
  }

  /** An employee comments on a post (fires `comment.created`). */
  async employeeComment(userId: number, input: { post_id: number; body: string }): Promise<Item> {
    return (await this.request<{ data: Item }>('POST', `/_sandbox/users/${userId}/comments`, input)).data;
  }

  /**
   * An admin awards an achievement to an employee (fires `achievement.awarded`), dated today on the
   * sandbox's clock unless `awarded_at` is given. `department_id` defaults to the employee's
   * department (an employee-of-the-month award needs one). Answers the award rows created.
   */
  async award(achievementId: number, userId: number, row: { awarded_at?: string; department_id?: number } = {}): Promise<Json[]> {
    const user = (await this.request<{ data: { groups?: { id: number; type: string }[] } }>('GET', `/api/open/v1/users/${userId}`)).data;
    const departmentId = row.department_id ?? user.groups?.find((g) => g.type === 'department')?.id;
    const awardedAt = row.awarded_at ?? (await this.today());
    const answer = await this.request<{ data: Json[] }>('POST', `/api/open/v1/achievements/${achievementId}/awards`, {
      awards: [{ user_id: userId, awarded_at: awardedAt, ...(departmentId === undefined ? {} : { department_id: departmentId }) }],
    });
    return answer.data;
  }

  /** The sandbox's date today (its clock and time zone), `YYYY-MM-DD`. */
  async today(): Promise<string> {
    const clock = await this.request<{ epoch_ms: number }>('GET', '/_sandbox/clock');
    const settings = await this.request<{ timezone: string }>('GET', '/_sandbox/settings');
    return new Intl.DateTimeFormat('en-CA', { timeZone: settings.timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(clock.epoch_ms),
    );
  }

  /** A pending user accepts the invite (fires `user.registered`). */
  async register(userId: number): Promise<Json> {
    return this.request('POST', `/_sandbox/users/${userId}/register`, {});
  }

  async completeOnboarding(userId: number): Promise<Json> {
    return this.request('POST', `/_sandbox/users/${userId}/onboarding`, {});
  }

  /** Every post of a wall, newest first, including scheduled ones. */
  async wallPosts(wallId: number): Promise<Item[]> {
    return (await this.request<{ data: Item[] }>('GET', `/_sandbox/walls/${wallId}/posts`)).data;
  }

  /** A post's comments, oldest first, read through the control API: polling for a bot's answer spends no rate budget. */
  async commentsOn(postId: number): Promise<Item[]> {
    return (await this.request<{ data: Item[] }>('GET', `/_sandbox/posts/${postId}/comments`)).data;
  }

  /** Chat messages, direct messages and notifications received. */
  async messages(query: { kind?: 'chat' | 'direct' | 'notification'; user_id?: number; chat_id?: number } = {}): Promise<Item[]> {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return (await this.request<{ data: Item[] }>('GET', `/_sandbox/messages${qs ? `?${qs}` : ''}`)).data;
  }

  /** Every outgoing-webhook attempt, once none is in flight. */
  async deliveries(query: { event?: string } = {}): Promise<Json[]> {
    await this.settleDeliveries();
    const qs = query.event ? `?event=${encodeURIComponent(query.event)}` : '';
    return (await this.request<{ data: Json[] }>('GET', `/_sandbox/deliveries${qs}`)).data;
  }

  /** Moves the shared clock; what became due on the platform runs before this resolves. */
  async advance(seconds: number): Promise<void> {
    await this.request('POST', '/_sandbox/clock', { advance_seconds: seconds });
  }

  async settings(patch: Json): Promise<Json> {
    return this.request('PUT', '/_sandbox/settings', patch);
  }

  async fault(fault: { path: string; method?: string; status?: number; latency_ms?: number; count?: number }): Promise<void> {
    await this.request('POST', '/_sandbox/faults', fault);
  }

  async clearFaults(): Promise<void> {
    await this.request('DELETE', '/_sandbox/faults');
  }

  /**
   * Polls `read` until `done` holds (real time: it waits for the runtime's asynchronous work),
   * failing with the last value seen after `timeoutMs`.
   */
  async waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
    const started = performance.now();
    let last: T = await read();
    // backs off from 25 ms to 400 ms: quick answers are seen at once, long waits poll gently
    for (let wait = 25; !done(last); wait = Math.min(wait * 2, 400)) {
      if (performance.now() - started > timeoutMs) throw new Error(`waitFor: gave up after ${timeoutMs} ms; last value: ${JSON.stringify(last).slice(0, 500)}`);
      await sleep(wait);
      last = await read();
    }
    return last;
  }
}
