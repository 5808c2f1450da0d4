import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../src/cli/commands/deliveries';
import { AUDIT_TRAIL_SPACE, AuditTrail } from '../../src/runtime/ingest/audit-trail';
import { zonedTime } from '../../src/cli/time';
import type { InboxEntry } from '../../src/store/inbox';
import { startPair, type Pair } from '../../src/testing';
import { captureIo, FIXTURE_BOTS, freePort, pairEnv } from './cli-io';
import { postCreatedEnvelope } from '../helpers/deliveries';

describe('intrabot deliveries', () => {
  let pair: Pair;
  let deadId: string;

  beforeAll(async () => {
    pair = await startPair({ bots: ['chores'], botsDir: FIXTURE_BOTS });
    const envelope = postCreatedEnvelope(pair.clock, { id: 4242, body: 'please explode' });
    await pair.runtime.receive({ tenant: 'sandbox', bot: 'chores', deliveryId: envelope.id, envelope });
    // the handler throws on every attempt; the retries wait on the clock, which the test moves on
    const dead = await pair.platform.waitFor(
      async () => {
        pair.clock.advance(61_000);
        return pair.runtime.inspect().store.inbox.list({ state: 'dead' });
      },
      (entries) => entries.length > 0,
      10_000,
    );
    deadId = dead[0]!.id;
  });
  afterAll(async () => pair?.close());

  it("lists dead letters with the bot, the event and the handler's error, through the admin route", async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runDeliveries(['--dead'], io)).toBe(0);
    expect(io.out).toContain('1 dead letter(s)');
    // the summary line can start with the same digits as a short id: the row is the one naming the bot
    const row = io.out.split('\n').find((l) => l.split(/\s+/)[0] === deadId && l.includes('chores'));
    expect(row).toMatch(/chores\s+(service\.)?post\.created\s+dead\s+3\s/);
    expect(row).toContain('boom: cannot handle this post');
    expect(io.out).toContain('intrabot deliveries replay <id>');
  });

  it("shows when each delivery was received in its tenant's time zone, with the offset", async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runDeliveries(['--dead'], io)).toBe(0);
    const entry = (await pair.runtime.inspect().store.inbox.list({ state: 'dead' })).find((e) => e.id === deadId)!;
    const row = io.out.split('\n').find((l) => l.split(/\s+/)[0] === deadId && l.includes('chores'));
    // the sandbox tenant runs on Europe/Berlin
    expect(row).toContain(zonedTime(entry.enqueuedAt, 'Europe/Berlin'));
    expect(row).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0[12]:00/);
  });

  it('prints the entries as JSON with --json', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runDeliveries(['--dead', '--json'], io)).toBe(0);
    const entries = JSON.parse(io.out) as InboxEntry[];
    expect(entries.map((e) => e.id)).toEqual([deadId]);
  });

  it('reads the store directly when no runtime is up', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS, { INTRABOT_PORT: String(await freePort()) }));
    expect(await runDeliveries(['--dead'], io)).toBe(0);
    expect(io.out).toContain(deadId);
  });

  it('lists what the bots did with recent deliveries with --handled, and why one was ignored, from the runtime or the store', async () => {
    const at = new Date(pair.clock.now()).toISOString();
    const payload = {
      id: 4343,
      body: 'from a bot',
      wall_id: 1,
      wall_name: 'Company',
      author: { id: 10, name: 'Ada', email: 'ada@example.com' },
      created_at: at,
      updated_at: at,
    };
    const envelope = {
      id: randomUUID(),
      event: 'service.comment.deleted',
      version: 'v1' as const,
      timestamp: Math.floor(pair.clock.now() / 1000),
      customer: 'sandbox',
      payload,
    };
    await pair.runtime.receive({ tenant: 'sandbox', bot: 'chores', deliveryId: envelope.id, envelope });
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    await pair.platform.waitFor(
      async () => {
        io.out = '';
        await runDeliveries(['--handled'], io);
        return io.out;
      },
      (out) => out.includes('comment.deleted'),
    );
    const row = io.out.split('\n').find((l) => l.includes('comment.deleted'))!;
    expect(row).toContain('chores');
    expect(row).toContain('ignored');
    expect(row).toContain('no handler for comment.deleted');
    const offline = captureIo(pairEnv(pair, FIXTURE_BOTS, { INTRABOT_PORT: String(await freePort()) }));
    expect(await runDeliveries(['--handled', '--json'], offline)).toBe(0);
    expect(JSON.parse(offline.out)).toContainEqual(expect.objectContaining({ bot: 'chores', event: 'comment.deleted', outcome: 'ignored' }));
  });

  it('lists the audit log with --audit: who, what, where and what the bot sent, from the runtime or the store', async () => {
    await new AuditTrail(pair.runtime.inspect().store.kv(AUDIT_TRAIL_SPACE)).record({
      at: pair.clock.now(),
      tenant: 'sandbox',
      bot: 'chores',
      kind: 'command',
      what: '/deploy',
      who: { id: 10, name: 'Ada' },
      where: 'post 4444 on wall 1',
      did: ['comment to post 4444'],
      outcome: 'done',
    });
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runDeliveries(['--audit'], io)).toBe(0);
    const row = io.out.split('\n').find((l) => l.includes('/deploy'))!;
    expect(row).toContain('Ada (10)');
    expect(row).toContain('post 4444 on wall 1');
    expect(row).toContain('comment to post 4444');
    const offline = captureIo(pairEnv(pair, FIXTURE_BOTS, { INTRABOT_PORT: String(await freePort()) }));
    expect(await runDeliveries(['--audit', '--json'], offline)).toBe(0);
    expect(JSON.parse(offline.out)).toContainEqual(expect.objectContaining({ bot: 'chores', what: '/deploy', did: ['comment to post 4444'] }));
    expect(await runDeliveries(['--audit', '--handled'], captureIo(pairEnv(pair, FIXTURE_BOTS)))).toBe(2);
  });

  it('says there is nothing waiting when the inbox is empty', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runDeliveries([], io)).toBe(0);
    expect(io.out).toContain('No deliveries waiting');
  });

  it('replays a dead letter: it leaves the dead letters and is handed to the bot again', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runDeliveries(['replay', deadId], io)).toBe(0);
    expect(io.out).toContain(`replaying ${deadId}`);
    expect((await pair.runtime.inspect().store.inbox.list({ state: 'dead' })).map((e) => e.id)).not.toContain(deadId);
    const again = await pair.platform.waitFor(
      () => pair.runtime.inspect().store.inbox.get(deadId),
      (e) => (e?.attempts ?? 0) >= 1,
    );
    expect(again?.lastError).toContain('boom');
  });

  it('exits 1 for an unknown delivery and 2 for bad arguments', async () => {
    const io = captureIo(pairEnv(pair, FIXTURE_BOTS));
    expect(await runDeliveries(['replay', 'no-such-id'], io)).toBe(1);
    expect(io.err).toContain('no-such-id');
    expect(await runDeliveries(['replay'], captureIo(pairEnv(pair, FIXTURE_BOTS)))).toBe(2);
    expect(await runDeliveries(['--limit', 'many'], captureIo(pairEnv(pair, FIXTURE_BOTS)))).toBe(2);
    expect(await runDeliveries(['purge'], captureIo(pairEnv(pair, FIXTURE_BOTS)))).toBe(2);
  });
});
