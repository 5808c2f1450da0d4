import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/store';
import { dropPostgresSchema, postgresTestUrl, uniquePostgresSchema } from '../helpers/postgres';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';
import { transferRoundTrip, type TransferEnd } from './transfer-contract';

const pgUrl = postgresTestUrl();
const redisUrl = redisTestUrl();

const sqlite = (): TransferEnd => {
  const path = join(mkdtempSync(join(tmpdir(), 'intrabot-transfer-')), 'intrabot.db');
  return { open: (clock, secretKey) => openStore({ kind: 'sqlite', path }, { clock, secretKey }), cleanup: async () => undefined };
};

const postgres = (): TransferEnd => {
  const schema = uniquePostgresSchema('transfer');
  return {
    open: (clock, secretKey) => openStore({ kind: 'postgres', url: pgUrl!, schema }, { clock, secretKey }),
    cleanup: () => dropPostgresSchema(pgUrl!, schema),
  };
};

const redis = (): TransferEnd => {
  const prefix = uniqueRedisPrefix('transfer');
  return {
    open: (clock, secretKey) => openStore({ kind: 'redis', url: redisUrl!, prefix }, { clock, secretKey }),
    cleanup: () => deleteRedisPrefix(redisUrl!, prefix),
  };
};

transferRoundTrip('sqlite to sqlite', sqlite, sqlite);
transferRoundTrip('sqlite to postgres', sqlite, postgres, { skip: !pgUrl });
transferRoundTrip('postgres to sqlite', postgres, sqlite, { skip: !pgUrl });
transferRoundTrip('sqlite to redis', sqlite, redis, { skip: !redisUrl });
transferRoundTrip('redis to sqlite', redis, sqlite, { skip: !redisUrl });
transferRoundTrip('postgres to redis', postgres, redis, { skip: !pgUrl || !redisUrl });
