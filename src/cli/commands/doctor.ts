import { AdjustableClock } from '../../clock';
import { runDoctor, storeFailure, type Check } from '../../runtime/operations/doctor';
import { openRuntimeStore, runtimeStoreConfig } from '../../runtime/start/open-runtime-store';
import type { Store } from '../../store';
import type { CliCommand } from '../command';
import { readFlags } from '../read-flags';
import { processIo, type CliIo } from '../output';
import { rateNoticePrinter } from '../rate-notices';
import { cliConfig } from '../runtime-client';

const USAGE = 'doctor [--json]';

const MARK: Record<Check['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

/** `intrabot doctor`: each check with a clear fix; exit 1 when any check fails, 2 on bad arguments. */
export async function runDoctorCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = readFlags(argv, { json: { type: 'boolean' } });
  const problem = typeof parsed === 'string' ? parsed : parsed.positionals[0] !== undefined ? `unexpected argument "${parsed.positionals[0]}"` : undefined;
  if (problem !== undefined || typeof parsed === 'string') {
    io.stderr(`intrabot doctor: ${problem}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const json = parsed.values.json ?? false;
  const config = cliConfig(io, 'doctor');
  if (!config) return 1;
  const clock = new AdjustableClock();
  // each check is printed as it completes: a slow platform shows which check waits, never a silent screen
  const print = (c: Check): void => {
    io.stdout(`${MARK[c.status]}  ${c.name}: ${c.detail}\n`);
    if (c.fix && c.status !== 'ok') io.stdout(`      fix: ${c.fix}\n`);
  };
  let store: Store;
  try {
    // doctor looks and never changes the schema: a PostgreSQL schema behind is reported, with the fix
    store = await openRuntimeStore({ ...config, database_migrate: false }, clock, io.env);
  } catch (error) {
    // a store that cannot be opened (a database away, a schema behind) is a failed check like any other
    const failed = storeFailure(runtimeStoreConfig(config).kind, error);
    if (json) io.stdout(`${JSON.stringify([failed], null, 2)}\n`);
    else print(failed);
    return 1;
  }
  try {
    const checks = await runDoctor({
      config,
      clock,
      store,
      env: io.env,
      onRateNotice: rateNoticePrinter(io, 'intrabot doctor'),
      ...(json ? {} : { onCheck: print }),
    });
    if (json) io.stdout(`${JSON.stringify(checks, null, 2)}\n`);
    return checks.some((c) => c.status === 'fail') ? 1 : 0;
  } finally {
    await store.close();
  }
}

export const command: CliCommand = {
  name: 'doctor',
  usage: USAGE,
  summary: 'Check token, scopes, reachability, clock skew, webhook pings and the store',
  run: (args) => runDoctorCommand(args, processIo()),
};
