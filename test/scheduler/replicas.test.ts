import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSystemClock } from '../../src/clock';
import { openStore } from '../../src/store';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';

const REPLICA = fileURLToPath(new URL('./fixtures/replica.ts', import.meta.url));
const REPLICAS = 3;
const RUN_FOR_MS = 4_200;

function startReplica(url: string, prefix: string): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', REPLICA, url, prefix], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('READY')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`replica exited (${code}) before it was ready: ${err}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

describe('three runtime processes sharing Redis', () => {
  const url = redisTestUrl();

  it.runIf(url)('run each cron slot exactly once', { timeout: 40_000 }, async () => {
    const prefix = uniqueRedisPrefix('scheduler-replicas');
    const replicas = Array.from({ length: REPLICAS }, () => startReplica(url!, prefix));
    try {
      await Promise.all(replicas.map((r) => r.ready));
      // real time is the point here: three processes, each on its own clock, agree through Redis alone
      const from = Date.now();
      await new Promise((resolve) => setTimeout(resolve, RUN_FOR_MS));
      const until = Date.now();
      for (const r of replicas) r.child.kill('SIGTERM');
      expect(await Promise.all(replicas.map((r) => r.exited))).toEqual(replicas.map(() => 0));

      const store = await openStore({ kind: 'redis', url: url!, prefix }, { clock: createSystemClock() });
      const keys = (await store.kv('test-runs').list()).map((item) => item.key);
      await store.close();
      const bySlot = new Map<string, number>();
      for (const key of keys) {
        const slot = key.slice(0, key.lastIndexOf(':'));
        bySlot.set(slot, (bySlot.get(slot) ?? 0) + 1);
      }
      // every slot that ran, ran once
      expect([...bySlot.entries()].filter(([, count]) => count > 1)).toEqual([]);
      // and every slot while all three were up ran (a margin of a second at each end)
      const expected: string[] = [];
      for (let s = Math.ceil(from / 1000) * 1000 + 1000; s <= until - 1000; s += 1000) expected.push(new Date(s).toISOString());
      expect(expected.length).toBeGreaterThanOrEqual(2);
      expect(expected.filter((slot) => !bySlot.has(slot))).toEqual([]);
    } finally {
      for (const r of replicas) if (r.child.exitCode === null) r.child.kill('SIGKILL');
      await deleteRedisPrefix(url!, prefix);
    }
  });
});
