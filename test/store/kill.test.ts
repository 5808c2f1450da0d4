import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSystemClock } from '../../src/clock';
import { openStore, type StoreConfig } from '../../src/store';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';

const CHILD = fileURLToPath(new URL('./fixtures/kill-child.ts', import.meta.url));

/** Starts the child, lets it acknowledge `lines` things, SIGKILLs it, and returns every complete line it printed. */
function runAndKill(args: string[], lines: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.split('\n').length > lines) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') return reject(new Error(`child ended without being killed: ${err}`));
      // the last line may be cut: only complete lines count as acknowledged
      resolve(out.split('\n').slice(0, -1));
    });
  });
}

async function checkSurvivors(config: StoreConfig, lines: string[]): Promise<void> {
  const pick = (tag: string): string[] => lines.filter((l) => l.startsWith(`${tag} `)).map((l) => l.slice(tag.length + 1));
  const [accepted, enqueued, done, reserved] = [pick('ACC'), pick('ENQ'), new Set(pick('DONE')), new Set(pick('RES'))];
  expect(enqueued.length).toBeGreaterThan(20);
  const store = await openStore(config, { clock: createSystemClock() });
  try {
    const inbox = new Set((await store.inbox.list({ limit: 10_000 })).map((e) => e.payload.deliveryId));
    expect(accepted.filter((id) => !inbox.has(id))).toEqual([]);
    const again = await store.inbox.accept({ tenant: 't', bot: 'b', deliveryId: accepted[0]!, envelope: {} });
    expect(again.accepted).toBe(false);
    const outbox = new Set((await store.outbox.list({ limit: 10_000 })).map((e) => e.id));
    // an entry gone from the outbox must have been completed, which only a reserved one can be
    expect(enqueued.filter((id) => !done.has(id) && !reserved.has(id) && !outbox.has(id))).toEqual([]);
    expect([...done].filter((id) => outbox.has(id))).toEqual([]);
  } finally {
    await store.close();
  }
}

describe('a SIGKILLed process', () => {
  it('loses nothing acknowledged and redoes nothing completed (sqlite)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intrabot-kill-'));
    try {
      const path = join(dir, 'intrabot.db');
      const lines = await runAndKill(['sqlite', path], 300);
      await checkSurvivors({ kind: 'sqlite', path }, lines);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const url = redisTestUrl();
  it.skipIf(!url)('loses nothing acknowledged and redoes nothing completed (redis)', async () => {
    const prefix = uniqueRedisPrefix('kill');
    try {
      const lines = await runAndKill(['redis', url!, prefix], 300);
      await checkSurvivors({ kind: 'redis', url: url!, prefix }, lines);
    } finally {
      await deleteRedisPrefix(url!, prefix);
    }
  });
});
