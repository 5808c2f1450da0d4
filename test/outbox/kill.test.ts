import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { Outbox } from '../../src/outbox/outbox';
import { openTempStore, startPlatform, waitUntil, type Platform, type TestStore } from './helpers';

const CHILD = fileURLToPath(new URL('./fixtures/kill-sender.ts', import.meta.url));
const POSTS = 12;

let platform: Platform | undefined;
let temp: TestStore | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.length = 0;
  await temp?.close();
  await platform?.close();
  temp = undefined;
  platform = undefined;
});

function startChild(args: string[]): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, err })),
  );
  return { child, exited };
}

describe('a sender killed in the middle of sending', () => {
  it('neither loses nor doubles a post once a new process takes over', async () => {
    const clock = new AdjustableClock();
    platform = await startPlatform(clock);
    temp = await openTempStore(clock);
    const outbox = new Outbox({ store: temp.store, clock });
    const bodies = Array.from({ length: POSTS }, (_, i) => `kill test ${i}`);
    for (const [i, body] of bodies.entries()) await outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: (i % 2) + 1, body });
    // every create takes 300 ms on the platform: a kill lands while requests are in flight
    await platform.control('POST', '/_sandbox/faults', { method: 'POST', path: '/api/open/v1/walls/*/posts', latency_ms: 300 });
    const ours = async () => (await Promise.all([1, 2].map((w) => platform!.wallPosts(w)))).flat().filter((p) => p.body.startsWith('kill test '));

    const first = startChild([JSON.stringify(temp.config), platform.baseUrl]);
    expect(await waitUntil(async () => (await ours()).length >= 3, 20_000)).toBe(true);
    first.child.kill('SIGKILL');
    const killed = await first.exited;
    expect(killed.signal).toBe('SIGKILL');
    const leftBehind = await temp.store.outbox.list();
    expect(leftBehind.length).toBeGreaterThan(0);
    expect(leftBehind.length).toBeLessThan(POSTS);
    // killed while holding entries: their requests were in flight, their outcome unknown to the next process
    expect(leftBehind.some((e) => e.state === 'leased')).toBe(true);

    const second = startChild([JSON.stringify(temp.config), platform.baseUrl, '--until-empty']);
    const done = await second.exited;
    expect(done.code, done.err).toBe(0);
    // the sandbox finishes a create whose client went away, 300 ms after it began: the killed process's
    // creates were all done before its 2-second leases ran out, and so before the second process could
    // take those entries over; a double would be on the walls by now
    expect((await ours()).map((p) => p.body).sort()).toEqual([...bodies].sort());
    expect(await temp.store.outbox.list({ state: 'dead' })).toEqual([]);
  }, 60_000);
});
