import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiCommand } from '../../src/cli/commands/api';
import { runBots } from '../../src/cli/commands/bots';
import { createConformanceCommand } from '../../src/cli/commands/conformance';
import { runDeliveries } from '../../src/cli/commands/deliveries';
import { runDev } from '../../src/cli/commands/dev';
import { runDoctorCommand } from '../../src/cli/commands/doctor';
import { createJobsCommand } from '../../src/cli/commands/jobs';
import { runInit } from '../../src/cli/commands/init';
import { runMigrate } from '../../src/cli/commands/migrate';
import { runNew } from '../../src/cli/commands/new';
import { createOpenApiCommand } from '../../src/cli/commands/openapi';
import { runOutboxCommand } from '../../src/cli/commands/outbox';
import { runProvision } from '../../src/cli/commands/provision';
import { runRotateSecret } from '../../src/cli/commands/rotate-secret';
import { runStore } from '../../src/cli/commands/store';
import { runRun } from '../../src/cli/commands/run';
import { runSandboxCommand } from '../../src/cli/commands/sandbox';
import { runStart } from '../../src/cli/commands/start';
import { runTrigger } from '../../src/cli/commands/trigger';
import { listCommands } from '../../src/cli/main';
import { captureIo, type CapturedIo } from './cli-io';

const dir = mkdtempSync(join(tmpdir(), 'intrabot-cli-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each command's entry with the io passed in; every one must stop at its arguments. */
const RUNNERS: Record<string, (argv: string[], io: CapturedIo) => Promise<number>> = {
  api: (argv, io) => createApiCommand(io).run(argv),
  bots: (argv, io) => runBots(argv, io),
  conformance: (argv, io) => createConformanceCommand(io).run(argv),
  deliveries: runDeliveries,
  dev: (argv, io) => runDev(argv, { ...io, stopped: Promise.resolve() }),
  doctor: runDoctorCommand,
  init: runInit,
  jobs: (argv, io) => createJobsCommand(io).run(argv),
  migrate: runMigrate,
  new: runNew,
  openapi: (argv, io) => createOpenApiCommand(io).run(argv),
  outbox: runOutboxCommand,
  provision: runProvision,
  'rotate-secret': runRotateSecret,
  run: runRun,
  sandbox: (argv, io) => runSandboxCommand(argv, { ...io, stopped: Promise.resolve() }),
  start: runStart,
  store: runStore,
  trigger: runTrigger,
};

const IN_OUR_WORDS = new Set(['api', 'bots', 'deliveries', 'doctor', 'jobs', 'migrate', 'outbox', 'provision', 'rotate-secret', 'run', 'store', 'trigger']);

describe('unknown flags', () => {
  it('are refused by every command with exit 2 and a message naming the flag, before anything runs', async () => {
    expect(Object.keys(RUNNERS).sort()).toEqual((await listCommands()).map((c) => c.name));
    // typical positionals first, so the flag is the only thing wrong
    const positionals: Record<string, string[]> = {
      api: ['GET', '/walls'],
      bots: ['pause', 'ops'],
      init: ['some-project'],
      new: ['some-bot'],
      run: ['ops', 'job'],
      'rotate-secret': ['ops'],
      store: ['export'],
      trigger: ['ops', 'test'],
    };
    for (const [name, run] of Object.entries(RUNNERS)) {
      const io = captureIo({ INTRABOT_DATA_DIR: dir, INTRABOT_BOTS_DIR: join(dir, 'bots') }, dir);
      expect(await run([...(positionals[name] ?? []), '--no-such-flag'], io), name).toBe(2);
      expect(io.err, name).toContain('--no-such-flag');
      expect(io.err, name).toContain(`Usage: intrabot ${name}`);
      // the commands that read their flags with readFlags say it in our words, not node's
      if (IN_OUR_WORDS.has(name)) expect(io.err, name).toContain(`intrabot ${name}: unknown flag --no-such-flag`);
    }
    // nothing was created on the way: no store, no bot folder
    expect(readdirSync(dir)).toEqual([]);
  });

  it('are refused by start, which takes no arguments at all', async () => {
    const io = captureIo({ INTRABOT_DATA_DIR: dir }, dir);
    expect(await runStart(['now'], io)).toBe(2);
    expect(io.err).toContain("'now'");
  });
});
