import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDoctorCommand } from '../../src/cli/commands/doctor';
import { freePort } from '../helpers/free-port';
import { captureIo } from './cli-io';

describe('intrabot doctor and a store that cannot be opened', () => {
  it('reports the store check as failed with where to look, never the password, and exits 1', async () => {
    const port = await freePort();
    const io = captureIo({
      INTRABOT_DATA_DIR: mkdtempSync(join(tmpdir(), 'intrabot-doctor-store-')),
      INTRABOT_REDIS_URL: `redis://:hunter2-secret@127.0.0.1:${port}`,
    });
    expect(await runDoctorCommand([], io)).toBe(1);
    expect(io.out).toMatch(/^FAIL {2}store: cannot reach Redis at 127\.0\.0\.1:\d+\n {6}fix: check INTRABOT_REDIS_URL and that Redis answers there\n$/);
    expect(io.out + io.err).not.toContain('hunter2');
  });
});
