import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../src/cli/commands/deliveries';
import { AdjustableClock } from '../../src/clock';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { openStore, type InboxEntry, type Store } from '../../src/store';
import { UNREADABLE_PAYLOAD_REASON } from '../../src/store/queue';
import { startPair, type Pair } from '../../src/testing';
import { captureIo, pairEnv } from '../cli/cli-io';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';

const REDIS = redisTestUrl();
const BOTS = resolve('test/fixtures/bots');
const TOO_DEEP = 'the stored delivery nests too deeply to be read';

/** A store of the kind under test, and how to clean up after it. */
async function openKind(kind: 'sqlite' | 'redis', clock: AdjustableClock): Promise<{ store: Store; cleanup: () => Promise<void> }> {
  const secretKey = 'poison-inbox-test-key';
  if (kind === 'redis') {
    const prefix = uniqueRedisPrefix('poison');
    const store = await openStore({ kind: 'redis', url: REDIS!, prefix }, { clock, secretKey });
    return { store, cleanup: () => deleteRedisPrefix(REDIS!, prefix) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-poison-'));
  const store = await openStore({ kind: 'sqlite', path: join(dir, 'intrabot.db') }, { clock, secretKey });
  return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Issue #12, defect 3: a delivery the inbox cannot read (planted straight in the store, past the
 * receiver's depth limit) used to fail every reservation ("inbox: reserve failed ... RangeError"), its
 * attempts growing forever, and every listing with it. Now it goes dead with its reason at once.
 */
describe.each([
  { kind: 'sqlite' as const, skip: false },
  { kind: 'redis' as const, skip: !REDIS },
])('a poison inbox entry in the $kind store', ({ kind, skip }) => {
  let pair: Pair;
  let store: Store;
  let cleanup: () => Promise<void>;
  const ids: Record<'deep' | 'broken', string> = { deep: '', broken: '' };

  beforeAll(async () => {
    if (skip) return;
    const opened = await openKind(kind, new AdjustableClock());
    store = opened.store;
    cleanup = opened.cleanup;
    pair = await startPair({ botsDir: BOTS, bots: ['echo'], store });
    // written as the receiver would write a delivery, but with texts no reader can take
    const plant = async (envelopeJson: string): Promise<string> => {
      const result = await store.inbox.accept({ tenant: 'sandbox', bot: 'echo', deliveryId: randomUUID(), envelope: {}, envelopeJson });
      if (!result.accepted) throw new Error('not accepted');
      return result.id;
    };
    ids.deep = await plant(`{"id":"x","payload":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    ids.broken = await plant('{"id":"x","payload":');
  }, 60_000);
  afterAll(async () => {
    if (skip) return;
    await pair?.close();
    await store?.close();
    await cleanup?.();
  });

  const dead = (): Promise<InboxEntry[]> => store.inbox.list({ state: 'dead' });

  it.skipIf(skip)('goes dead with its reason on its first attempt, within the attempt maximum', async () => {
    const entries = await pair.platform.waitFor(dead, (list) => list.length === 2, 10_000);
    const byId = new Map(entries.map((e) => [e.id, e]));
    expect(byId.get(ids.deep)).toMatchObject({ state: 'dead', attempts: 1, deadReason: TOO_DEEP });
    expect(byId.get(ids.broken)).toMatchObject({ state: 'dead', attempts: 1, deadReason: UNREADABLE_PAYLOAD_REASON });
  });

  it.skipIf(skip)('leaves the admin route answering: the bad entries are listed with their reasons', async () => {
    await pair.platform.waitFor(dead, (list) => list.length === 2, 10_000);
    const res = await fetch(`${pair.runtime.inspect().url}/_admin/deliveries?state=dead`);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: InboxEntry[] };
    expect(data.map((e) => [e.id, e.deadReason, e.payload.bot]).sort()).toEqual(
      [
        [ids.deep, TOO_DEEP, 'echo'],
        [ids.broken, UNREADABLE_PAYLOAD_REASON, '?'],
      ].sort(),
    );
    expect((await fetch(`${pair.runtime.inspect().url}/_admin/deliveries`)).status).toBe(200);
  });

  it.skipIf(skip)('leaves intrabot deliveries --dead answering, with the reasons', async () => {
    await pair.platform.waitFor(dead, (list) => list.length === 2, 10_000);
    const io = captureIo(pairEnv(pair, BOTS));
    expect(await runDeliveries(['--dead'], io)).toBe(0);
    expect(io.out).toContain('2 dead letter(s)');
    expect(io.out).toContain(TOO_DEEP);
    expect(io.out).toContain(UNREADABLE_PAYLOAD_REASON);
  });

  it.skipIf(skip)('keeps handling the deliveries around it', async () => {
    const refs = directoryRefs(pair.sandbox.ctx)!;
    const post = await pair.platform.employeePost(refs.employee_ids[1]!, { wall_id: refs.company_wall_id, body: 'still there?' });
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
      10_000,
    );
    expect(comments).toHaveLength(1);
  });
});
