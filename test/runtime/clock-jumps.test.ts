import { afterEach, describe, expect, it } from 'vitest';
import { startPair, type Pair } from '../../src/testing/start-pair';

// The sandbox's clock is moved by hand to see a weekly job or a conversation's timeout happen, and moved
// back after (docs/troubleshooting.md). Leases, pacing windows and timers set before a move must not
// hold the bots silent until real time catches up, nor let a send in progress be made twice.

let pair: Pair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

async function setClock(p: Pair, body: { now: string } | { advance_seconds: number }): Promise<void> {
  const res = await fetch(`${p.sandbox.baseUrl}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

/** Posts `/oncall` as an employee and resolves with the bot's comments once there is one. */
async function askOps(p: Pair, wallId: number, employeeId: number): Promise<number> {
  const post = await p.platform.employeePost(employeeId, { wall_id: wallId, body: '/oncall' });
  await p.platform.waitFor(
    () => p.platform.commentsOn(post.id),
    (c) => c.length > 0,
    10_000,
  );
  return post.id;
}

describe('the sandbox clock moved by hand', () => {
  it('answers at once after the clock is moved a week forward and back to now, each command once', async () => {
    pair = await startPair({ bots: ['ops'] });
    const refs = await pair.refs();
    const employee = refs.employee_ids[0]!;
    const posts = [await askOps(pair, refs.company_wall_id, employee)];
    const now = pair.clock.now();
    await setClock(pair, { advance_seconds: 7 * 86_400 });
    posts.push(await askOps(pair, refs.company_wall_id, employee));
    posts.push(await askOps(pair, refs.company_wall_id, employee));
    await setClock(pair, { now: new Date(now).toISOString() });
    for (let i = 0; i < 3; i++) posts.push(await askOps(pair, refs.company_wall_id, employee));
    await pair.settle();
    for (const id of posts) expect(await pair.platform.commentsOn(id)).toHaveLength(1);
  });
});
