import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runOutboxCommand } from '../../src/cli/commands/outbox';
import { AdjustableClock } from '../../src/clock';
import { Outbox } from '../../src/outbox/outbox';
import { openStore, sqliteStorePath } from '../../src/store';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });

/** A data dir whose store holds one waiting post and one dead-lettered DM. */
async function seeded(): Promise<{ waiting: string; dead: string }> {
  dir = await mkdtemp(join(tmpdir(), 'intrabot-cli-outbox-'));
  const store = await openStore({ kind: 'sqlite', path: sqliteStorePath(dir) }, { clock });
  try {
    const outbox = new Outbox({ store, clock });
    const dm = await outbox.enqueue({ kind: 'dm', tenant: 'sandbox', userId: 11, botUserId: 46, text: 'your laptop is ready' });
    const waiting = await outbox.enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'Deploy finished' });
    const lease = await store.outbox.reserve(10_000);
    expect(lease?.id).toBe(dm.id);
    await store.outbox.deadLetter(lease!, '422 the recipient is no longer a registered user (field user_id)');
    return { waiting: waiting.id, dead: dm.id };
  } finally {
    await store.close();
  }
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runOutboxCommand(args, {
    env: { INTRABOT_DATA_DIR: dir },
    cwd: dir ?? '.',
    clock,
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
  });
  return { code, out, err };
}

describe('intrabot outbox', () => {
  it('lists waiting entries and, under dead, the dead letters with the platform message', async () => {
    const { waiting, dead } = await seeded();
    const list = await run(['list']);
    expect(list.code).toBe(0);
    expect(list.out).toContain(waiting);
    expect(list.out).toContain('post: Deploy finished');
    expect(list.out).not.toContain(dead);
    const letters = await run(['dead']);
    expect(letters.out).toContain(dead);
    expect(letters.out).toContain('422 the recipient is no longer a registered user (field user_id)');
  });

  it('answers JSON with --json', async () => {
    const { dead } = await seeded();
    const { out } = await run(['dead', '--json']);
    expect((JSON.parse(out) as { id: string; state: string }[]).map((e) => [e.id, e.state])).toEqual([[dead, 'dead']]);
  });

  it('puts a dead letter back in line with retry, and drops an entry with drop', async () => {
    const { waiting, dead } = await seeded();
    expect((await run(['retry', dead])).code).toBe(0);
    expect((await run(['dead'])).out).toContain('No dead letters.');
    expect((await run(['list'])).out).toContain(dead);
    expect((await run(['drop', waiting])).code).toBe(0);
    expect((await run(['list'])).out).not.toContain(waiting);
  });

  it('says there is no store instead of creating one when nothing ran in the data dir', async () => {
    dir = await mkdtemp(join(tmpdir(), 'intrabot-cli-outbox-'));
    const result = await run(['list']);
    expect(result.code).toBe(0);
    expect(result.err).toContain('no store at');
    expect(existsSync(sqliteStorePath(dir))).toBe(false);
  });

  it('fails with 1 for an unknown id and 2 for a usage error', async () => {
    await seeded();
    const missing = await run(['drop', 'no-such-id']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no-such-id');
    expect((await run(['retry'])).code).toBe(2);
    expect((await run(['list', '--limit', 'zero'])).code).toBe(2);
  });
});
