import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertInputState, hashOf } from '../../src/alerts/alert-input-state';
import { AlertsBusyError } from '../../src/alerts/input-errors';
import { AdjustableClock } from '../../src/clock';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite';

/** The id of a process that ran on this host and has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

/** The claim `AlertInputState.exclusive` takes for one alert group. */
function groupLock(tenant: string, bot: string, key: string): string {
  return `alerts-lock:${hashOf(`${tenant}\u0000${bot}\u0000${key}`)}`;
}

/** Issue #12: the per-group claim of the alert inputs is a lock its holder loses when its process is gone. */
describe('the alert group lock', () => {
  let dir: string;
  const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
  const stores: SqliteStore[] = [];
  const open = (): SqliteStore => {
    const store = openSqliteStore({ path: join(dir, 'intrabot.db'), clock });
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'intrabot-alert-lock-'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is taken over at once when the process that held it crashed, instead of answering busy for 30 s', async () => {
    const store = open();
    // what a replica killed while handling the group leaves: its claim, with most of its TTL to run
    store.db
      .prepare('INSERT INTO claims (key, owner, expires_at) VALUES (?, ?, ?)')
      .run(groupLock('default', 'alerts', 'state:am:g1'), `${hostname()}/${deadPid()}/k1/${randomUUID()}`, clock.now() + 29_000);
    const state = new AlertInputState(store);
    await expect(state.exclusive('default', 'alerts', 'state:am:g1', async () => 'handled')).resolves.toBe('handled');
  });

  it('answers busy while a live replica holds it, and is free once that replica is done', async () => {
    const [a, b] = [new AlertInputState(open()), new AlertInputState(open())];
    let finish = (): void => undefined;
    const holding = a.exclusive('default', 'alerts', 'state:am:g2', () => new Promise<void>((resolve) => (finish = resolve)));
    await expect.poll(() => stores[0]?.db.prepare('SELECT count(*) AS n FROM claims').get()).toEqual({ n: 1 });
    await expect(b.exclusive('default', 'alerts', 'state:am:g2', async () => 'second')).rejects.toBeInstanceOf(AlertsBusyError);
    finish();
    await holding;
    await expect(b.exclusive('default', 'alerts', 'state:am:g2', async () => 'second')).resolves.toBe('second');
  });
});
