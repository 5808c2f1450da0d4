import { createSystemClock } from '../../clock';
import { runtimeStoreConfig } from '../../runtime/start/open-runtime-store';
import { migrateStore } from '../../store/store-backends';
import type { CliCommand } from '../command';
import { messageOf, processIo, type CliIo } from '../output';
import { readFlags } from '../read-flags';
import { cliConfig } from '../runtime-client';

const USAGE = 'migrate [--json]';

/**
 * `intrabot migrate`: brings the configured store's schema up to date, once, before replicas of a new
 * release start with `--no-migrate` (PostgreSQL); SQLite and Redis migrate whenever they open, and this
 * opens them once. Safe to run from several places at once: the backend migrates under its lock.
 */
export async function runMigrate(argv: string[], io: CliIo): Promise<number> {
  const parsed = readFlags(argv, { json: { type: 'boolean' } });
  const problem = typeof parsed === 'string' ? parsed : parsed.positionals[0] !== undefined ? `unexpected argument "${parsed.positionals[0]}"` : undefined;
  if (problem !== undefined || typeof parsed === 'string') {
    io.stderr(`intrabot migrate: ${problem}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const config = cliConfig(io, 'migrate');
  if (!config) return 1;
  try {
    const result = await migrateStore(runtimeStoreConfig({ ...config, database_migrate: true }), { clock: createSystemClock() });
    if (parsed.values.json) io.stdout(`${JSON.stringify(result)}\n`);
    else if (result.from === result.to) io.stdout(`the ${result.kind} store is at schema version ${result.to}: nothing to migrate\n`);
    else io.stdout(`the ${result.kind} store is migrated from schema version ${result.from} to ${result.to}\n`);
    return 0;
  } catch (error) {
    io.stderr(`intrabot migrate: ${messageOf(error)}\n`);
    return 1;
  }
}

export const command: CliCommand = {
  name: 'migrate',
  usage: USAGE,
  summary: "Bring the store's schema up to date (before replicas start with --no-migrate)",
  run: (args) => runMigrate(args, processIo()),
};
