import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openStore, type Store } from '../../src/store';
import { POSTGRES_SCHEMA_VERSION, type PostgresStore } from '../../src/store/postgres';
import { dropPostgresSchema, postgresTestUrl, rawPostgres, uniquePostgresSchema } from '../helpers/postgres';
import { CONTRACT_KEY, storeContract } from './contract';

const url = postgresTestUrl();
const START = Date.UTC(2026, 10, 22, 9, 0, 0);

storeContract(
  'postgres',
  async () => {
    const schema = uniquePostgresSchema('contract');
    const clock = new AdjustableClock({ start: START, frozen: true });
    const raw = rawPostgres(url!);
    return {
      clock,
      open: ({ secretKey } = {}) => openStore({ kind: 'postgres', url: url!, schema }, { clock, secretKey }),
      rawSecrets: async () => JSON.stringify((await raw.query(`SELECT * FROM "${schema}".secrets`)).rows),
      forceSchemaVersion: async (version) =>
        void (await raw.query(`INSERT INTO "${schema}".schema_migrations (version, description) VALUES ($1, 'forced by a test')`, [version])),
      corruptPayload: async (queue, id, text) => void (await raw.query(`UPDATE "${schema}".${queue} SET payload = $2 WHERE id = $1`, [id, text])),
      cleanup: async () => {
        await raw.end();
        await dropPostgresSchema(url!, schema);
      },
    };
  },
  { skip: !url },
);
