import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runOutboxCommand } from '../../src/cli/commands/outbox';
import { AdjustableClock } from '../../src/clock';
import { Outbox } from '../../src/outbox/outbox';
import { openStore, sqliteStorePath } from '../../src/store';
import { captureIo } from './cli-io';

describe('intrabot outbox', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intrabot-cli-outbox-times-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("shows when a waiting entry is tried next in its tenant's time zone, with the offset", async () => {
    const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
    const store = await openStore({ kind: 'sqlite', path: sqliteStorePath(dir) }, { clock });
    try {
      await new Outbox({ store, clock }).enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'Deploy finished' });
    } finally {
      await store.close();
    }
    // sandbox mode: the sandbox tenant runs on Europe/Berlin
    const io = captureIo({ INTRABOT_DATA_DIR: dir }, dir);
    expect(await runOutboxCommand(['list'], { ...io, clock })).toBe(0);
    expect(io.out).toContain('next 2026-11-23 09:00:00 +01:00');
  });
});
