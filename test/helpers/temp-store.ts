import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';

/** A real SQLite store in a fresh temporary directory, with a fixed test key for secrets. */
export async function tempStore(clock: Clock, dir = mkdtempSync(join(tmpdir(), 'intrabot-store-'))): Promise<Store & { dir: string }> {
  const store = await openStore({ kind: 'sqlite', path: join(dir, 'intrabot.db') }, { clock, secretKey: 'test-secret-key-not-for-production' });
  return Object.assign(store, { dir });
}
