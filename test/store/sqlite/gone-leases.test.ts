import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../src/clock';
import { openStore, type Store } from '../../../src/store';
import { leaseOwner, leaseToken } from '../../../src/store/sqlite/gone-leases';

const CHILD = fileURLToPath(new URL('../fixtures/lease-and-die.ts', import.meta.url));
const START = Date.parse('2026-11-23T08:00:00Z');

/** Issue #12 (claims that outlive their owner): the leases of a process that crashed, on its restart. */
describe('SQLite leases whose holder is gone', () => {
  let dir: string;
  const stores: Store[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intrabot-gone-leases-'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('are released when the store opens again: the entries a crashed process was sending are due at once, not a minute later', async () => {
    const path = join(dir, 'intrabot.db');
    const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, path, String(START)], { encoding: 'utf8', timeout: 30_000 });
    expect(child.signal).toBe('SIGKILL');
    const left = JSON.parse(child.stdout) as { outbox: string; inbox: string };
    expect(left.outbox).toEqual(expect.any(String));

    // the restart, on the same clock reading: the child's leases still have a minute to run
    const store = await openStore({ kind: 'sqlite', path }, { clock: new AdjustableClock({ start: START + 1_000, frozen: true }) });
    stores.push(store);
    const outbox = await store.outbox.reserve(60_000);
    const inbox = await store.inbox.reserve(60_000);
    expect(outbox?.id).toBe(left.outbox);
    expect(inbox?.id).toBe(left.inbox);
    // taken twice: the crash counts as an attempt, as an expired lease would
    expect(outbox?.attempts).toBe(2);
  });

  it('are kept while their holder lives (another store of this process)', async () => {
    const path = join(dir, 'intrabot.db');
    const clock = new AdjustableClock({ start: START, frozen: true });
    const first = await openStore({ kind: 'sqlite', path }, { clock });
    stores.push(first);
    await first.outbox.enqueue({ target: 'wall:1', payload: { body: 'x' } });
    expect(await first.outbox.reserve(60_000)).not.toBeNull();
    const second = await openStore({ kind: 'sqlite', path }, { clock });
    stores.push(second);
    expect(await second.outbox.reserve(60_000)).toBeNull();
  });

  it('name their holder in the token, and tokens of an older version name none', () => {
    expect(leaseOwner(leaseToken('web-1/1/k5000/0b7e'))).toBe('web-1/1/k5000/0b7e');
    expect(leaseOwner(leaseToken(undefined))).toBeUndefined();
  });
});
