import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { openRuntimeStore } from '../../src/runtime/start/open-runtime-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { startPair, type Item, type Pair } from '../../src/testing';

describe('recovering events missed while the runtime was down', () => {
  let pair: Pair;
  let wall: number;
  let employee: number;

  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
    const refs = directoryRefs(pair.sandbox.ctx)!;
    wall = refs.company_wall_id;
    employee = refs.employee_ids[2]!;
    // the bot has handled one event, so it has a cursor to recover from
    const first = await pair.platform.employeePost(employee, { wall_id: wall, body: '/oncall' });
    await pair.platform.waitFor(
      () => pair.platform.commentsOn(first.id),
      (c) => c.length > 0,
    );
  });
  afterAll(async () => pair?.close());

  it('answers, once, a command posted while the runtime was down longer than the platform retries', async () => {
    let missed: Item | undefined;
    await pair.restartRuntime(async () => {
      missed = await pair.platform.employeePost(employee, { wall_id: wall, body: '/oncall' });
      // past the platform's last retry at 10 minutes: the delivery is given up
      await pair.platform.advance(11 * 60);
    });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(missed!.id),
      (c) => c.length > 0,
    );
    expect(comments.map((c) => c.body)).toEqual(['On call: Ada Lovelace']);
  });

  it('answers once an event posted during a short restart, delivered by the platform retry', async () => {
    let missed: Item | undefined;
    await pair.restartRuntime(async () => {
      missed = await pair.platform.employeePost(employee, { wall_id: wall, body: '/oncall' });
    });
    await pair.platform.advance(61); // the first retry reaches the restarted runtime
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(missed!.id),
      (c) => c.length > 0,
    );
    expect(comments).toHaveLength(1);
  });

  it("acknowledges the platform's own late retry of a recovered event without answering twice", async () => {
    let missed: Item | undefined;
    await pair.restartRuntime(async () => {
      missed = await pair.platform.employeePost(employee, { wall_id: wall, body: '/oncall' });
      // down for 9.5 minutes: long enough to look for missed events, and the platform's last retry is still to come
      await pair.platform.advance(570);
    });
    await pair.platform.waitFor(
      () => pair.platform.commentsOn(missed!.id),
      (c) => c.length > 0,
    );
    await pair.platform.advance(60); // the 10-minute retry now reaches the runtime
    await pair.settle();
    expect(await pair.platform.commentsOn(missed!.id)).toHaveLength(1);
  });
});

describe('deliveries recorded but not handled when the runtime stopped', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ bots: ['ops'] });
  });
  afterAll(async () => pair?.close());

  it('handles what the inbox holds after a restart', async () => {
    const refs = directoryRefs(pair.sandbox.ctx)!;
    let post: Item | undefined;
    await pair.restartRuntime(async () => {
      post = await pair.platform.employeePost(refs.employee_ids[3]!, { wall_id: refs.company_wall_id, body: '/oncall' });
      // as if the receiver had recorded the delivery just before the process stopped
      const store = await openRuntimeStore(pair.runtime.inspect().config, pair.clock, process.env);
      const envelope = {
        id: randomUUID(),
        event: 'service.post.created',
        version: 'v1',
        timestamp: Math.floor(pair.clock.now() / 1000),
        customer: 'sandbox',
        payload: post,
      };
      await store.inbox.accept({ tenant: 'sandbox', bot: 'ops', deliveryId: envelope.id, dedupeKey: `post.created:${post.id}`, envelope: envelope as never });
      await store.close();
    });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post!.id),
      (c) => c.length > 0,
    );
    expect(comments.map((c) => c.body)).toEqual(['On call: Ada Lovelace']);
  });
});

describe('a recovered event, as its handler sees it', () => {
  it('is marked recovered, where a delivered one is not', async () => {
    const pair = await startPair({ botsDir: resolve('test/fixtures/bots'), bots: ['echo'] });
    try {
      const refs = directoryRefs(pair.sandbox.ctx)!;
      const author = refs.employee_ids[2]!;
      const delivered = await pair.platform.employeePost(author, { wall_id: refs.company_wall_id, body: 'live' });
      await pair.platform.waitFor(
        () => pair.platform.commentsOn(delivered.id),
        (c) => c.length > 0,
      );
      let missed: Item | undefined;
      await pair.restartRuntime(async () => {
        missed = await pair.platform.employeePost(author, { wall_id: refs.company_wall_id, body: 'while down' });
        await pair.platform.advance(11 * 60);
      });
      const comments = await pair.platform.waitFor(
        () => pair.platform.commentsOn(missed!.id),
        (c) => c.length > 0,
      );
      expect(comments.map((c) => c.body)).toEqual(['echo: while down (recovered)']);
      expect((await pair.platform.commentsOn(delivered.id)).map((c) => c.body)).toEqual(['echo: live']);
    } finally {
      await pair.close();
    }
  });
});
