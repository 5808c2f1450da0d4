import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AdjustableClock } from '../../clock';
import { loadConfig } from '../../runtime/config';
import { buildRuntime } from '../../runtime/build-runtime';
import { createSandbox, type Sandbox } from '../../sandbox/sandbox';
import type { CliCommand } from '../command';

/**
 * `intrabot start`: the runtime, and in sandbox mode the emulated platform beside it on one shared
 * clock (advancing the sandbox's clock moves the runtime's too).
 */
export const command: CliCommand = {
  name: 'start',
  usage: 'start',
  summary: 'Start the runtime (and the sandbox when no tenant is configured)',
  async run() {
    const config = loadConfig();
    const clock = new AdjustableClock();
    mkdirSync(config.data_dir, { recursive: true });
    let sandbox: Sandbox | undefined;
    if (config.mode === 'sandbox') {
      // the sandbox keeps its own state in the data directory, so a restart restarts the runtime, not the "platform"
      sandbox = await createSandbox({ clock, port: config.sandbox_port, dataFile: join(config.data_dir, 'sandbox.db') });
    }
    const runtime = await buildRuntime({ config, clock });
    const url = await runtime.start();
    printBanner(url, sandbox);

    const stop = async (signal: string): Promise<void> => {
      process.stdout.write(`\n${signal}: stopping...\n`);
      // everything acknowledged is already durable: a shutdown that hangs may be cut short safely
      setTimeout(() => {
        process.stderr.write('intrabot: shutdown took longer than 30 s; exiting\n');
        process.exit(1);
      }, 30_000).unref();
      await runtime.close();
      await sandbox?.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
    return await new Promise<number>(() => {
      // runs until a signal stops it
    });
  },
};

function printBanner(url: string, sandbox: Sandbox | undefined): void {
  const lines = [`intrabot runtime listening on ${url}  (health: ${url}/healthz)`];
  if (sandbox) {
    lines.push(
      `sandbox platform on ${sandbox.baseUrl}  (token: ${sandbox.token})`,
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${sandbox.token}" ${sandbox.baseUrl}/api/open/v1/walls`,
      `  curl ${sandbox.baseUrl}/_sandbox/clock`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
