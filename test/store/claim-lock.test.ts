import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { newClaimOwner, ownerIsGone, parseOwner, thisProcess, type OwnerProbe } from '../../src/store/claim-owner';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite';

const MINUTE = 60_000;

/** The id of a process that ran on this host and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('a claim owner', () => {
  const here = thisProcess();
  const probe = (over: Partial<OwnerProbe> = {}): OwnerProbe => ({ self: here, isAlive: () => true, startOf: () => undefined, ...over });

  it('names the host, the process and when the process started', () => {
    const escaped = hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(newClaimOwner()).toMatch(new RegExp(`^${escaped}/${process.pid}/(k\\d+|t\\d+)/[0-9a-f-]{36}$`));
    expect(parseOwner(newClaimOwner())).toEqual(here);
  });

  it('is gone only when it ran on this host, is not this process, and its process no longer exists', () => {
    const dead = probe({ isAlive: () => false });
    expect(ownerIsGone(`${hostname()}/4242/k100/x`, dead)).toBe(true);
    expect(ownerIsGone(`${hostname()}/4242/k100/x`, probe())).toBe(false);
    expect(ownerIsGone(`another-host/4242/k100/x`, dead)).toBe(false);
    expect(ownerIsGone(newClaimOwner(here), dead)).toBe(false);
    // an owner id of an older version: a bare UUID is never judged; host/pid/random by its pid alone
    expect(ownerIsGone(randomUUID(), dead)).toBe(false);
    expect(ownerIsGone(`${hostname()}/4242/${randomUUID()}`, dead)).toBe(true);
    expect(ownerIsGone(`${hostname()}/${process.pid}/${randomUUID()}`, dead)).toBe(false);
    expect(ownerIsGone(`${hostname()}/not-a-pid/k100/x`, dead)).toBe(false);
  });

  it("is gone when it had this process's id but started at another time: a restarted container's process 1 took its id", () => {
    const container = probe({ self: { host: 'web-1', pid: 1, start: 'k5000' } });
    expect(ownerIsGone(`web-1/1/k900/${randomUUID()}`, container)).toBe(true);
    // the same process (another store it opened) lives
    expect(ownerIsGone(`web-1/1/k5000/${randomUUID()}`, container)).toBe(false);
    // starts counted differently, or unknown, are not compared
    expect(ownerIsGone(`web-1/1/t1700000000000/${randomUUID()}`, container)).toBe(false);
    expect(ownerIsGone(`web-1/1/-/${randomUUID()}`, container)).toBe(false);
  });

  it('is gone when its process id now belongs to a process that started at another time (the id was reused)', () => {
    const reused = probe({ startOf: () => 'k7000' });
    expect(ownerIsGone(`${hostname()}/4242/k100/x`, reused)).toBe(true);
    expect(ownerIsGone(`${hostname()}/4242/k7000/x`, reused)).toBe(false);
    // a host that cannot tell another process's start: alive is alive
    expect(ownerIsGone(`${hostname()}/4242/k100/x`, probe())).toBe(false);
  });

  it('checks the process for real', () => {
    expect(ownerIsGone(`${hostname()}/${deadPid()}/k1/x`)).toBe(true);
    expect(ownerIsGone(newClaimOwner())).toBe(false);
  });

  it.runIf(here.start?.startsWith('k'))(
    'tells this process from an earlier one with its id, and a live process from one whose id it reused, for real (Linux)',
    () => {
      expect(ownerIsGone(`${hostname()}/${process.pid}/k1/x`)).toBe(true);
      expect(ownerIsGone(`${hostname()}/${process.ppid}/k1/x`)).toBe(true);
      expect(ownerIsGone(newClaimOwner({ ...here, pid: process.ppid, start: startOfParent() }))).toBe(false);
    },
  );
});

/** The parent process's start as the kernel counts it (Linux). */
function startOfParent(): string | undefined {
  const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
  return `k${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

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
    leaveClaim(store, 'provision:acme', `${hostname()}/${deadPid()}/k1/${randomUUID()}`);
    expect(await store.claims.claim('provision:acme', 15_000, { lock: true })).toBe(true);
    expect(await open().claims.claim('provision:acme', 15_000, { lock: true })).toBe(false);
    expect(await store.claims.renew('provision:acme', 15_000)).toBe(true);
  });

  it('takes over at once a lock left by an earlier process of the same host and id (a restarted container)', async () => {
    const store = open();
    // what the process before the restart left: same host name, same process id, an earlier start
    const earlier = `${thisProcess().start?.[0] ?? 'k'}1`;
    leaveClaim(store, 'provision:acme', `${hostname()}/${process.pid}/${earlier}/${randomUUID()}`);
    expect(await store.claims.claim('provision:acme', 15_000, { lock: true })).toBe(true);
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
