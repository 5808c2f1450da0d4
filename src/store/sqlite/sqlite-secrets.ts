import type { Database } from 'better-sqlite3';
import type { Clock } from '../../clock';
import { newSalt } from '../secret-box';
import type { SealedSecretStorage } from '../secrets';

/** Sealed secrets in the `secrets` table; the passphrase salt in `meta`. */
export function sqliteSecretStorage(db: Database, clock: Clock): SealedSecretStorage {
  const read = db.prepare('SELECT sealed FROM secrets WHERE name = ?');
  const write = db.prepare(`INSERT INTO secrets (name, sealed, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`);
  const insertNew = db.prepare('INSERT INTO secrets (name, sealed, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING');
  const remove = db.prepare('DELETE FROM secrets WHERE name = ?');
  const names = db.prepare('SELECT name FROM secrets ORDER BY name');
  const saltInit = db.prepare("INSERT INTO meta (key, value) VALUES ('secret_salt', ?) ON CONFLICT (key) DO NOTHING");
  const saltRead = db.prepare("SELECT value FROM meta WHERE key = 'secret_salt'");
  return {
    read: async (name) => (read.get(name) as { sealed: string } | undefined)?.sealed,
    write: async (name, sealed) => void write.run(name, sealed, clock.now()),
    writeIfAbsent: async (name, sealed) => {
      insertNew.run(name, sealed, clock.now());
      return (read.get(name) as { sealed: string }).sealed;
    },
    remove: async (name) => remove.run(name).changes === 1,
    names: async () => (names.all() as { name: string }[]).map((row) => row.name),
    salt: async () => {
      saltInit.run(newSalt().toString('base64'));
      return Buffer.from((saltRead.get() as { value: string }).value, 'base64');
    },
  };
}
