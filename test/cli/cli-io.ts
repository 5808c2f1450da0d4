import { fileURLToPath } from 'node:url';
import type { CliIo } from '../../src/cli/output';
import type { Pair } from '../../src/testing';

/** A CLI's io with stdout and stderr captured; not a terminal, so output carries no colour codes. */
export interface CapturedIo extends CliIo {
  out: string;
  err: string;
}

export function captureIo(env: Record<string, string | undefined>, cwd = process.cwd()): CapturedIo {
  const io: CapturedIo = {
    env,
    cwd,
    isTTY: false,
    out: '',
    err: '',
    stdout: (text) => {
      io.out += text;
    },
    stderr: (text) => {
      io.err += text;
    },
  };
  return io;
}

/** The fixture bots of the CLI tests (`chores`: jobs that post, one that fails). */
export const FIXTURE_BOTS = fileURLToPath(new URL('./fixtures/bots', import.meta.url));

/** The environment that points a command at a pair's runtime, store and sandbox (nothing from the real process). */
export function pairEnv(pair: Pair, botsDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    INTRABOT_PORT: new URL(pair.runtime.inspect().url!).port,
    INTRABOT_SANDBOX_PORT: new URL(pair.sandbox.baseUrl).port,
    INTRABOT_DATA_DIR: pair.runtime.inspect().config.data_dir,
    INTRABOT_BOTS_DIR: botsDir,
    INTRABOT_LOG_LEVEL: 'silent',
    ...extra,
  };
}

/** A loopback port nothing listens on (taken, then released). */
export { freePort } from '../helpers/free-port';
