import { AdjustableClock } from '../../clock';
import { loadConfig } from '../../runtime/config';
import { runDoctor, type Check } from '../../runtime/doctor';
import { openRuntimeStore } from '../../runtime/open-runtime-store';
import type { CliCommand } from '../command';

const MARK: Record<Check['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

/** `intrabot doctor`: each check with a clear fix; exit 1 when any check fails. */
export const command: CliCommand = {
  name: 'doctor',
  usage: 'doctor [--json]',
  summary: 'Check token, scopes, reachability, clock skew, webhook pings and the store',
  async run(args) {
    const config = loadConfig();
    const clock = new AdjustableClock();
    const store = await openRuntimeStore(config, clock, process.env);
    try {
      const checks = await runDoctor({ config, clock, store, env: process.env });
      if (args.includes('--json')) process.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
      else {
        for (const c of checks) {
          process.stdout.write(`${MARK[c.status]}  ${c.name}: ${c.detail}\n`);
          if (c.fix && c.status !== 'ok') process.stdout.write(`      fix: ${c.fix}\n`);
        }
      }
      return checks.some((c) => c.status === 'fail') ? 1 : 0;
    } finally {
      await store.close();
    }
  },
};
