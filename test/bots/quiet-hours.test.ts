import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { quietHours } from '../../src';
import { startPair, testBot, type Pair } from '../../src/testing';

// issue #16, item 2: quiet hours hold a bot's non-urgent posts until the window opens, in the tenant's zone
const QUIET = 'test/fixtures/bots-middleware/quiet';

describe('quietHours', () => {
  it("holds a job's posts during quiet hours until they end, on the tenant's wall clock", async () => {
    // 21:00 in Berlin on a Tuesday
    const bot = await testBot(QUIET, { now: '2026-06-02T19:00:00Z' });
    expect(await bot.job('remind')).toEqual([
      { kind: 'post', wall: 'Engineering', text: 'Please fill in your timesheet.', heldUntil: '2026-06-03T06:00:00.000Z' },
    ]);
  });

  it('lets the same post go at once outside quiet hours', async () => {
    const bot = await testBot(QUIET, { now: '2026-06-02T09:00:00Z' });
    expect(await bot.job('remind')).toEqual([{ kind: 'post', wall: 'Engineering', text: 'Please fill in your timesheet.' }]);
  });

  it('follows the tenant’s zone: 21:00 in Berlin is 15:00 in New York, not quiet there', async () => {
    const bot = await testBot(QUIET, { now: '2026-06-02T19:00:00Z', tenant: { timezone: 'America/New_York' } });
    expect((await bot.job('remind'))[0]).not.toHaveProperty('heldUntil');
  });

  // issue #25, item 1: alerts pass through the bot's middleware as every other trigger does
  it('holds an alert post during quiet hours, as any other send (urgent can let alerts through)', async () => {
    const firing = JSON.parse(readFileSync('test/fixtures/alerts/alertmanager-firing.json', 'utf8')) as unknown;
    const bot = await testBot(QUIET, { now: '2026-06-02T19:00:00Z' });
    const run = await bot.alert('am', firing);
    expect(run.sent.length).toBeGreaterThan(0);
    expect(run.sent.every((sent) => 'heldUntil' in sent && sent.heldUntil === '2026-06-03T06:00:00.000Z')).toBe(true);
  });

  it('answers a command at once even at night: someone is waiting for it', async () => {
    const bot = await testBot(QUIET, { now: '2026-06-02T22:00:00Z' });
    expect(await bot.command('/ping')).toEqual([{ kind: 'comment', postId: 5001, text: 'pong' }]);
  });

  it('holds a whole weekend when asked to', async () => {
    // Saturday 6 June, noon in Berlin
    const bot = await testBot(QUIET, { now: '2026-06-06T10:00:00Z' });
    expect((await bot.job('remind'))[0]).toMatchObject({ heldUntil: '2026-06-08T06:00:00.000Z' });
  });

  it('refuses bad options, naming the field', () => {
    expect(() => quietHours({ from: '7pm', to: '08:00' })).toThrow(/quietHours\.from/);
    expect(() => quietHours({ from: '19:00', to: '25:00' })).toThrow(/quietHours\.to/);
  });
});

describe('quietHours over real HTTP', () => {
  let pair: Pair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('keeps the held post in the outbox through the night and posts it when the quiet hours end', async () => {
    // 20:30 in Berlin
    pair = await startPair({ botsDir: 'test/fixtures/bots-middleware', bots: ['quiet'], start: Date.UTC(2026, 5, 2, 18, 30) });
    const refs = await pair.refs();
    const wall = refs.department_walls.Engineering!;
    const before = (await pair.platform.wallPosts(wall)).length;
    await pair.runJob('quiet', 'remind');
    const held = await pair.runtime.inspect().store.outbox.list({ limit: 10 });
    expect(held).toHaveLength(1);
    expect(held[0]!.notBefore).toBe(Date.UTC(2026, 5, 3, 6, 0));
    expect(await pair.platform.wallPosts(wall)).toHaveLength(before);
    // the night passes: 08:00 in Berlin
    await pair.platform.advance(11.5 * 3600);
    await pair.settle();
    const posts = await pair.platform.wallPosts(wall);
    expect(posts.map((p) => p.body)).toContain('Please fill in your timesheet.');
  });
  it("does not hold up a command's answer behind a held post to the same wall: held sends wait in a line of their own", async () => {
    // 20:30 in Berlin: the reminder is held until 08:00; /ping on the same wall is answered at once
    pair = await startPair({ botsDir: 'test/fixtures/bots-middleware', bots: ['quiet'], start: Date.UTC(2026, 5, 2, 18, 30) });
    const refs = await pair.refs();
    const wall = refs.department_walls.Engineering!;
    await pair.runJob('quiet', 'remind');
    expect(await pair.runtime.inspect().store.outbox.list({ limit: 10 })).toHaveLength(1);
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: wall, body: '/ping' });
    const comments = await pair.platform.waitFor(
      () => pair!.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments.map((c) => c.body)).toEqual(['pong']);
    expect((await pair.platform.wallPosts(wall)).map((p) => p.body)).not.toContain('Please fill in your timesheet.');
  });
});
