import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { runDeliveries } from '../../src/cli/commands/deliveries';
import { createJobsCommand } from '../../src/cli/commands/jobs';
import { runOutboxCommand } from '../../src/cli/commands/outbox';
import { runTrigger } from '../../src/cli/commands/trigger';
import { AdjustableClock } from '../../src/clock';
import { Outbox } from '../../src/outbox/outbox';
import { JobRecords } from '../../src/scheduler';
import { openStore, sqliteStorePath, type StoreConfig } from '../../src/store';
import { captureIo, FIXTURE_BOTS, freePort, type CapturedIo } from './cli-io';
import { deleteRedisPrefix, redisTestUrl, uniqueRedisPrefix } from '../helpers/redis';

/** What was put in the store before the commands looked. */
interface Seeded {
  outboxId: string;
  deliveryId: string;
}

const SECRET_KEY = 'a-key-only-this-test-uses';
const JOB = 'seeded-job';

/** Writes one of each thing the commands read, opened with the settings spelled out (not through the CLI's opener). */
async function seed(config: StoreConfig, clock: AdjustableClock): Promise<Seeded> {
  const store = await openStore(config, { clock, secretKey: SECRET_KEY });
  try {
    const { id: outboxId } = await new Outbox({ store, clock }).enqueue({ kind: 'post', tenant: 'sandbox', wallId: 3, body: 'seeded entry' });
    const accepted = await store.inbox.accept({
      tenant: 'sandbox',
      bot: 'chores',
      deliveryId: randomUUID(),
      envelope: { event: 'post.created' },
      event: 'post.created',
    });
    if (!accepted.accepted) throw new Error('the seeded delivery was taken for a duplicate');
    await new JobRecords(store).saveSchedules([{ tenant: 'sandbox', bot: 'chores', job: JOB, cron: '0 9 * * *', timezone: 'Europe/Berlin', overlap: 'skip' }]);
    // encrypted with SECRET_KEY: a command opening the store with another key cannot read it
    await store.secrets.put(webhookSecretName('sandbox', 'chores'), 'seeded-signing-secret');
    return { outboxId, deliveryId: accepted.id };
  } finally {
    await store.close();
  }
}

/** A command that opens the store, and how to see it found what was seeded. */
interface StoreCommand {
  name: string;
  run(io: CapturedIo, clock: AdjustableClock, seeded: Seeded): Promise<number>;
  found(io: CapturedIo, seeded: Seeded): void;
}

const COMMANDS: StoreCommand[] = [
  {
    name: 'outbox list',
    run: (io, clock) => runOutboxCommand(['list'], { ...io, clock }),
    found: (io, seeded) => expect(io.out).toContain(seeded.outboxId),
  },
  {
    name: 'outbox drop',
    run: (io, clock, seeded) => runOutboxCommand(['drop', seeded.outboxId], { ...io, clock }),
    found: (io, seeded) => expect(io.out).toContain(`${seeded.outboxId} dropped`),
  },
  {
    name: 'jobs',
    run: (io, clock) => createJobsCommand({ ...io, clock }).run([]),
    found: (io) => expect(io.out).toContain(JOB),
  },
  {
    name: 'deliveries (no runtime up: from the store)',
    run: (io, clock) => runDeliveries([], { ...io, clock }),
    found: (io, seeded) => expect(io.out).toContain(seeded.deliveryId),
  },
  {
    name: 'trigger (reads the webhook secret)',
    run: (io, clock) => runTrigger(['chores', 'test'], { ...io, clock }),
    // it signed with the stored secret and tried to post; no runtime listens, which is fine here
    found: (io) => {
      expect(io.err).not.toContain('no webhook secret');
      expect(io.out).toContain('POST ');
    },
  },
];

/**
 * Runs every command against a store of its own that `freshEnv` points at (so a drop in one case
 * hides nothing from another), seeded first with the same settings spelled out.
 */
function describeSettings(label: string, freshEnv: () => Promise<Record<string, string>>): void {
  it.each(COMMANDS)(`${label}: $name finds what was stored there`, async (command) => {
    const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
    const env = await freshEnv();
    const seeded = await seed(storeConfigFor(env), clock);
    const io = captureIo(env, env.INTRABOT_DATA_DIR);
    await command.run(io, clock, seeded);
    command.found(io, seeded);
  });
}

/** The store the environment names, spelled out: what the runtime opens. */
function storeConfigFor(env: Record<string, string>): StoreConfig {
  if (env.INTRABOT_REDIS_URL) return { kind: 'redis', url: env.INTRABOT_REDIS_URL, prefix: env.INTRABOT_REDIS_PREFIX! };
  return { kind: 'sqlite', path: sqliteStorePath(env.INTRABOT_DATA_DIR!) };
}

describe('every CLI command that opens the store opens the one the runtime uses', () => {
  const root = mkdtempSync(join(tmpdir(), 'intrabot-cli-store-settings-'));
  const redisUrl = redisTestUrl();
  const prefixes: string[] = [];
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    for (const prefix of prefixes) await deleteRedisPrefix(redisUrl!, prefix);
  });

  async function baseEnv(): Promise<Record<string, string>> {
    return {
      INTRABOT_DATA_DIR: mkdtempSync(join(root, 'case-')),
      INTRABOT_BOTS_DIR: FIXTURE_BOTS,
      INTRABOT_SECRET_KEY: SECRET_KEY,
      // nothing listens here: the commands that ask the runtime first fall back to the store
      INTRABOT_PORT: String(await freePort()),
      INTRABOT_SANDBOX_PORT: String(await freePort()),
      INTRABOT_LOG_LEVEL: 'silent',
    };
  }

  describeSettings('SQLite under INTRABOT_DATA_DIR, secrets under INTRABOT_SECRET_KEY', baseEnv);

  describe.skipIf(!redisUrl)('Redis', () => {
    describeSettings('Redis at INTRABOT_REDIS_URL under a non-default INTRABOT_REDIS_PREFIX', async () => {
      const prefix = uniqueRedisPrefix('cli-store-settings');
      prefixes.push(prefix);
      return { ...(await baseEnv()), INTRABOT_REDIS_URL: redisUrl!, INTRABOT_REDIS_PREFIX: prefix };
    });
  });
});

describe('the CLI opens the store in one place', () => {
  it('no command opens a store itself: each goes through openRuntimeStore (or a runtime, which does)', () => {
    const dir = fileURLToPath(new URL('../../src/cli/', import.meta.url));
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const direct = files.filter((f) => /\bopen(Sqlite|Redis)?Store\(/.test(readFileSync(join(dir, f), 'utf8')));
    expect(direct).toEqual([]);
  });
});
