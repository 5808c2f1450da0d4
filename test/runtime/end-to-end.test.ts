import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Pair } from '../../src/testing';

describe('runtime and sandbox end to end', () => {
  let pair: Pair;
  let wall: number;
  let employee: number;

  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
    const refs = directoryRefs(pair.sandbox.ctx)!;
    wall = refs.company_wall_id;
    employee = refs.employee_ids[0]!;
  });
  afterAll(async () => pair?.close());

  it('provisions the bot as a bot user with a webhook endpoint pointing at the runtime', async () => {
    const bot = pair.runtime.inspect().provisionResults[0]?.bots.ops;
    expect(bot).toMatchObject({ enabled: true });
    const hooks = await pair.platform.request<{ data: { name: string; url: string }[] }>('GET', '/api/open/v1/webhooks', undefined, pair.sandbox.token);
    expect(hooks.data).toContainEqual(expect.objectContaining({ name: 'intrabot:ops', url: `${pair.runtime.inspect().url}/hooks/sandbox/ops` }));
  });

  it('answers an employee command posted through the sandbox with a comment on that post', async () => {
    const post = await pair.platform.employeePost(employee, { wall_id: wall, body: '/oncall' });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments[0]?.body).toBe('On call: Ada Lovelace');
  });

  it('lists the commands on /help', async () => {
    const post = await pair.platform.employeePost(employee, { wall_id: wall, body: '@Ops Bot help' });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments[0]?.body).toMatch(/^Ops Bot commands:\n/);
    expect(comments[0]?.body).toContain('/status');
    expect(comments[0]?.body).toContain('/oncall');
    // the restriction is said once, by the help itself
    expect(comments[0]?.body).toMatch(/\/declare <service> <state> — [^\n]*\(managers only\)$/m);
    expect(comments[0]?.body).not.toContain('(managers only) (managers only)');
  });

  it('refuses a managers-only command politely to an employee and runs it for a manager', async () => {
    const refs = directoryRefs(pair.sandbox.ctx)!;
    const refused = await pair.platform.employeePost(employee, { wall_id: wall, body: '/declare api degraded' });
    const answer = await pair.platform.waitFor(
      () => pair.platform.commentsOn(refused.id),
      (c) => c.length > 0,
    );
    expect(answer[0]?.body).toMatch(/manager/i);
    const manager = refs.manager_ids[0]!;
    const allowed = await pair.platform.employeePost(manager, { wall_id: wall, body: '/declare api degraded' });
    const ok = await pair.platform.waitFor(
      () => pair.platform.commentsOn(allowed.id),
      (c) => c.length > 0,
    );
    expect(ok[0]?.body).toBe('Noted: api is degraded.');
    const status = await pair.platform.employeePost(employee, { wall_id: wall, body: '/status api' });
    const shown = await pair.platform.waitFor(
      () => pair.platform.commentsOn(status.id),
      (c) => c.length > 0,
    );
    expect(shown[0]?.body).toBe('⚠️ api: degraded');
  });

  it('does not react to its own comments (no reply loops)', async () => {
    const post = await pair.platform.employeePost(employee, { wall_id: wall, body: '/status' });
    await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    // let a loop show itself: the bot's comment fires comment.created back at the runtime, handled before the pair settles
    await pair.settle();
    expect(await pair.platform.commentsOn(post.id)).toHaveLength(1);
  });

  it('counts deliveries, handler runs and rejections in /metrics', async () => {
    const forged = await fetch(`${pair.runtime.inspect().url}/hooks/sandbox/ops`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', signature: 'ab'.repeat(32), timestamp: String(Math.floor(pair.clock.now() / 1000)) },
      body: '{}',
    });
    expect(forged.status).toBe(401);
    const text = await (await fetch(`${pair.runtime.inspect().url}/metrics`)).text();
    expect(text).toMatch(/intrabot_deliveries_received_total\{tenant="sandbox",bot="ops",event="post.created",duplicate="false"\} [1-9]/);
    expect(text).toMatch(/intrabot_handler_runs_total\{bot="ops",outcome="handled"\} [1-9]/);
    expect(text).toMatch(/intrabot_deliveries_rejected_total\{reason="mismatch"\} 1/);
    expect(text).toContain('intrabot_outbox_depth');
    expect(text).toMatch(/intrabot_rate_budget_remaining\{tenant="sandbox"\} \d+/);
  });
});
