import { parseArgs } from 'node:util';
import type { Dispatcher } from 'undici';
import { redactSecrets } from '../../api/errors';
import { AdjustableClock, createSystemClock, type Clock } from '../../clock';
import {
  CONFORMANCE_CHECKS,
  openConformanceSession,
  parityHeader,
  parityLayout,
  parityRow,
  paritySummary,
  runConformance,
  sandboxControl,
  summarize,
  type CheckResult,
} from '../../conformance';
import { probeSandbox } from '../../conformance/sandbox-control';
import { createSandbox } from '../../sandbox/sandbox';
import type { CliCommand } from '../command';

/** What `intrabot conformance` reads and writes; the CLI passes the process, tests their own. */
export interface ConformanceCommandDeps {
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
  clock?: Clock;
  dispatcher?: Dispatcher;
}

const USAGE = 'conformance [--base-url URL --token T] [--narrow-token T2] [--allow-writes] [--yes] [--event-prefix P] [--json]';

interface ConformanceArgs {
  baseUrl: string | undefined;
  token: string | undefined;
  narrowToken: string | undefined;
  allowWrites: boolean;
  /** Consent to write to a host this command did not start (a sandbox given by --base-url, or a platform with --allow-writes). */
  yes: boolean;
  eventPrefix: string | undefined;
  json: boolean;
}

/** The suite raises an in-process sandbox's limit: its few hundred requests would take minutes at 60 per minute. */
const SANDBOX_RATE_LIMIT = 100_000;

function readArgs(args: string[], env: ConformanceCommandDeps['env']): ConformanceArgs | string {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        token: { type: 'string' },
        'narrow-token': { type: 'string' },
        'allow-writes': { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
        'event-prefix': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const baseUrl = values['base-url'] ?? env.INTRABOT_BASE_URL;
  const token = values.token ?? env.INTRABOT_TOKEN;
  if ((baseUrl === undefined) !== (token === undefined)) return '--base-url and --token go together (or INTRABOT_BASE_URL and INTRABOT_TOKEN)';
  if (baseUrl === undefined && values['narrow-token'] !== undefined) return '--narrow-token needs --base-url (the sandbox makes its own)';
  return {
    baseUrl,
    token,
    narrowToken: values['narrow-token'],
    allowWrites: values['allow-writes'] ?? false,
    yes: values.yes ?? false,
    eventPrefix: values['event-prefix'],
    json: values.json ?? false,
  };
}

interface Target {
  baseUrl: string;
  token: string;
  clock: Clock;
  label: string;
  /** The in-process sandbox runs on `clock`. */
  sharedClock?: boolean;
  rateLimitPerMinute?: number;
  close(): Promise<void>;
}

function hostTarget(baseUrl: string, token: string, deps: ConformanceCommandDeps): Target {
  return { baseUrl, token, clock: deps.clock ?? createSystemClock(), label: new URL(baseUrl).origin, close: async () => undefined };
}

/** A sandbox started in this process on a random port; the clients share its clock. */
async function sandboxTarget(): Promise<Target> {
  const clock = new AdjustableClock();
  const sandbox = await createSandbox({ port: 0, clock });
  try {
    await sandboxControl(sandbox.baseUrl).settings({ rate_limit_per_minute: SANDBOX_RATE_LIMIT });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    baseUrl: sandbox.baseUrl,
    token: sandbox.token,
    clock,
    label: `the in-process sandbox (${sandbox.baseUrl})`,
    sharedClock: true,
    rateLimitPerMinute: SANDBOX_RATE_LIMIT,
    close: () => sandbox.close(),
  };
}

interface RunOptions {
  narrowToken?: string | undefined;
  allowWrites?: boolean | undefined;
  eventPrefix?: string | undefined;
  dispatcher?: Dispatcher | undefined;
  onResult?: ((result: CheckResult) => void) | undefined;
}

async function runAgainst(target: Target, options: RunOptions): Promise<CheckResult[]> {
  try {
    const session = await openConformanceSession({
      baseUrl: target.baseUrl,
      token: target.token,
      narrowToken: options.narrowToken,
      allowWrites: options.allowWrites,
      clock: target.clock,
      eventPrefix: options.eventPrefix,
      dispatcher: options.dispatcher,
      clockSharedWithHost: target.sharedClock,
      rateLimitPerMinute: target.rateLimitPerMinute,
    });
    try {
      return await runConformance(CONFORMANCE_CHECKS, session, options.onResult);
    } finally {
      await session.close();
    }
  } finally {
    await target.close();
  }
}

interface Outcome {
  label: string;
  results: CheckResult[];
  /** The same checks against a fresh sandbox, when the host is another one: the parity column. */
  sandbox?: CheckResult[] | undefined;
}

/** What the writing checks leave on a host, said before they run there. */
const WRITES =
  'posts, comments and deletions on the first wall, webhook endpoints created and revoked, two achievements and a few back-dated awards (the API cannot delete those)';

/**
 * Why the run would write to a host this command did not start, or undefined when it would not: a
 * sandbox given by `--base-url` (the writing checks always run on a sandbox, which may be the one a
 * runtime is using) or a platform with `--allow-writes`. Such a run needs `--yes` (issue #15).
 */
async function writeRefusal(args: ConformanceArgs, deps: ConformanceCommandDeps): Promise<string | undefined> {
  if (args.baseUrl === undefined || args.yes) return undefined;
  const origin = new URL(args.baseUrl).origin;
  if (await probeSandbox(args.baseUrl, deps.dispatcher)) {
    return (
      `${origin} is a sandbox this command did not start, and not a throw-away one: its writing checks would leave ${WRITES}, ` +
      `make a narrow token, and move its clock 31 minutes ahead (put back afterwards). ` +
      'Run with --yes to go ahead, or without --base-url to check a fresh sandbox started for the run.'
    );
  }
  if (args.allowWrites) return `--allow-writes on ${origin} would leave ${WRITES}. Run with --yes as well to go ahead.`;
  return undefined;
}

/**
 * Runs the checks; in table mode each row is printed as its check finishes. Against another host
 * the sandbox goes first (it takes seconds), so every row can show its sandbox outcome.
 */
async function execute(args: ConformanceArgs, deps: ConformanceCommandDeps): Promise<Outcome> {
  const host = args.baseUrl !== undefined && args.token !== undefined ? hostTarget(args.baseUrl, args.token, deps) : undefined;
  // the sandbox makes its own narrow token and speaks the spec's `service` prefix
  const sandbox = host ? await runAgainst(await sandboxTarget(), {}) : undefined;
  const target = host ?? (await sandboxTarget());
  const layout = parityLayout(CONFORMANCE_CHECKS, sandbox !== undefined);
  const reference = new Map((sandbox ?? []).map((r) => [r.id, r.outcome]));
  if (!args.json) deps.stdout(parityHeader(layout));
  const results = await runAgainst(target, {
    ...(host ? { narrowToken: args.narrowToken, allowWrites: args.allowWrites, eventPrefix: args.eventPrefix, dispatcher: deps.dispatcher } : {}),
    onResult: (result) => {
      if (!args.json) deps.stdout(parityRow(layout, result, reference.get(result.id)));
    },
  });
  return { label: target.label, results, sandbox };
}

/**
 * `intrabot conformance`: runs the fidelity checks against a host and prints the parity table.
 * Without `--base-url` it checks a sandbox started for the run. With one, it checks that host and,
 * in a `sandbox` column, a fresh in-process sandbox, so the rows where the emulator and the
 * platform part ways stand out. Against a host that is not a sandbox only the read-only checks
 * run (about 120 requests: two minutes at 60 a minute), unless `--allow-writes`: writing checks
 * post, comment and delete on the first wall, create and revoke webhooks, and leave two
 * achievements and a few back-dated awards behind (the API cannot delete those). A sandbox given
 * by `--base-url` has its clock moved on by the comment edit window check, and put back afterwards.
 * Writing to a host this command did not start (a sandbox given by `--base-url`, a platform with
 * `--allow-writes`) needs `--yes`: without it the command says what it would write and stops.
 *
 * @example
 * // intrabot conformance --base-url https://acme.example --token "$INTRABOT_TOKEN" --narrow-token "$READ_WALLS_TOKEN"
 */
export function createConformanceCommand(deps: ConformanceCommandDeps): CliCommand {
  return {
    name: 'conformance',
    usage: USAGE,
    summary: 'Check a host (default: a fresh sandbox) against the spec and print a parity table.',
    async run(argv) {
      const args = readArgs(argv, deps.env);
      if (typeof args === 'string') {
        deps.stderr(`intrabot conformance: ${redactSecrets(args)}\nUsage: intrabot ${USAGE}\n`);
        return 2;
      }
      try {
        const refusal = await writeRefusal(args, deps);
        if (refusal) {
          deps.stderr(`intrabot conformance: ${refusal}\n`);
          return 1;
        }
        const { results, label, sandbox } = await execute(args, deps);
        const json = { host: label, summary: summarize(results), results, ...(sandbox ? { sandbox } : {}) };
        deps.stdout(args.json ? `${JSON.stringify(json, null, 2)}\n` : paritySummary(results, label, sandbox));
        return summarize(results).fail === 0 ? 0 : 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        deps.stderr(`intrabot conformance: ${redactSecrets(message)}\n`);
        return 1;
      }
    },
  };
}

export const command: CliCommand = createConformanceCommand({
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
