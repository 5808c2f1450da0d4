import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { newClaimOwner, ownerIsGone } from '../../src/store/claim-owner';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite';

const MINUTE = 60_000;

/** The id of a process that ran on this host and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('a claim owner', () => {
  it('names the host and the process', () => {
    expect(newClaimOwner()).toMatch(new RegExp(`^${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${process.pid}/[0-9a-f-]{36}$`));
  });

  it('is gone only when it ran on this host, is not this process, and its process no longer exists', () => {
    const alive = (): boolean => true;
    const dead = (): boolean => false;
    expect(ownerIsGone(`${hostname()}/4242/x`, dead)).toBe(true);
    expect(ownerIsGone(`${hostname()}/4242/x`, alive)).toBe(false);
    expect(ownerIsGone(`another-host/4242/x`, dead)).toBe(false);
    expect(ownerIsGone(`${hostname()}/${process.pid}/x`, dead)).toBe(false);
    // an owner id of an older version (a bare UUID) is never judged
    expect(ownerIsGone(randomUUID(), dead)).toBe(false);
    expect(ownerIsGone(`${hostname()}/not-a-pid/x`, dead)).toBe(false);
  });

  it('checks the process for real', () => {
    expect(ownerIsGone(`${hostname()}/${deadPid()}/x`)).toBe(true);
  });
});

/** Issue #12, defect 4: a lock a crashed process left behind is taken over at once in the SQLite store. */
describe('SQLite locks whose holder is gone', () => {
  let dir: string;
  const clock = new AdjustableClock({ frozen: true });
  const stores: SqliteStore[] = [];
  const open = (): SqliteStore => {
    const store = openSqliteStore({ path: join(dir, 'intrabot.db'), clock });
    stores.push(store);
    return store;
  };
  /** A claim as a process that was killed leaves it: its row, its owner, its TTL still running. */
  const leaveClaim = (store: SqliteStore, key: string, owner: string): void => {
    store.db.prepare('INSERT INTO claims (key, owner, expires_at) VALUES (?, ?, ?)').run(key, owner, clock.now() + 10 * MINUTE);
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intrabot-claim-lock-'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes over a lock whose holder process is gone before its TTL, and holds it from then on', async () => {
    const store = open();
    leaveClaim(store, 'provision:acme', `${hostname()}/${deadPid()}/${randomUUID()}`);
    expect(await store.claims.claim('provision:acme', 15_000, { lock: true })).toBe(true);
    expect(await open().claims.claim('provision:acme', 15_000, { lock: true })).toBe(false);
    expect(await store.claims.renew('provision:acme', 15_000)).toBe(true);
  });

  it('lets one of two stores take over a dead lock together', async () => {
    const [a, b] = [open(), open()];
    leaveClaim(a, 'provision:acme', `${hostname()}/${deadPid()}/${randomUUID()}`);
    const won = await Promise.all([a, b, a, b].map((s) => s.claims.claim('provision:acme', 15_000, { lock: true })));
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('keeps a lock whose holder lives (another store of this process), until its TTL', async () => {
    const holder = open();
    expect(await holder.claims.claim('provision:acme', 15_000, { lock: true })).toBe(true);
    expect(await open().claims.claim('provision:acme', 15_000, { lock: true })).toBe(false);
  });

  it('keeps a mark (a claim that is no lock) of a process that is gone: a cron slot it took is not run again', async () => {
    const store = open();
    leaveClaim(store, 'cron:acme:kudos:digest:2026-03-23T09:00', `${hostname()}/${deadPid()}/${randomUUID()}`);
    expect(await store.claims.claim('cron:acme:kudos:digest:2026-03-23T09:00', 24 * 60 * MINUTE)).toBe(false);
  });
});
