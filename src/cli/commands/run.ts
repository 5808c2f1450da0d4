import { createSystemClock, type Clock } from '../../clock';
import { OutboxRecordSchema } from '../../outbox/entry';
import { buildRuntime, type Runtime } from '../../runtime/build-runtime';
import type { RuntimeConfig, TenantConfig } from '../../runtime/config/config';
import { botNotDeployed } from '../../runtime/jobs/undeployed-bot';
import type { RunRecord } from '../../scheduler/run-record';
import type { QueueEntry } from '../../store/queue';
import type { CliCommand } from '../command';
import { rateNoticePrinter } from '../rate-notices';
import { messageOf, paint, processIo, progress, type CliIo } from '../output';
import { adminRefusal, answerMessage, cliConfig, createRuntimeClient, pickTenant, quietConfig, sandboxProblem, tenantProblem } from '../runtime-client';
import { readFlags } from '../read-flags';

const USAGE = 'run <bot> <job> [--tenant id] [--wait seconds]';

export interface RunDeps extends CliIo {
  clock?: Clock;
}

interface RunArgs {
  bot: string;
  job: string;
  tenant: string | undefined;
  waitMs: number;
}

function readArgs(args: string[]): RunArgs | string {
  const parsed = readFlags(args, { tenant: { type: 'string' }, wait: { type: 'string' } });
  if (typeof parsed === 'string') return parsed;
  const [bot, job, ...extra] = parsed.positionals;
  if (!bot || !job || extra.length > 0) return 'give a bot and a job';
  const wait = parsed.values.wait === undefined ? 60 : Number(parsed.values.wait);
  if (!Number.isFinite(wait) || wait < 0) return '--wait: a number of seconds';
  return { bot, job, tenant: parsed.values.tenant, waitMs: wait * 1000 };
}

/**
 * `intrabot run <bot> <job>`: asks the running runtime to run the job now (its loopback admin route);
 * with no runtime up, runs it in-process and delivers what it sent. Either way the job's messages go
 * through the durable outbox.
 */
export async function runRun(argv: string[], deps: RunDeps): Promise<number> {
  const args = readArgs(argv);
  if (typeof args === 'string') {
    deps.stderr(`intrabot run: ${args}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const config = cliConfig(deps, 'run');
  if (!config) return 1;
  const tenant = pickTenant(config, args.tenant);
  if (!tenant) {
    deps.stderr(`intrabot run: ${tenantProblem(config, args.tenant)}\n`);
    return 2;
  }
  const client = createRuntimeClient({ env: deps.env });
  const path = `/_admin/jobs/${encodeURIComponent(tenant.id)}/${encodeURIComponent(args.bot)}/${encodeURIComponent(args.job)}/run`;
  const answer = await client.request<{ run?: { outcome?: string; error?: string } }>('POST', path);
  if (answer.reachable) return reportRemote(deps, args, tenant, answer.status, answer.body);
  deps.stdout(`no runtime is listening on ${client.baseUrl}: running ${args.bot}/${args.job} in-process\n`);
  return runInProcess(deps, config, tenant, args);
}

function reportRemote(
  deps: CliIo,
  args: RunArgs,
  tenant: TenantConfig,
  status: number,
  body: { run?: { outcome?: string; error?: string } } | undefined,
): number {
  const c = paint(deps);
  const refusal = adminRefusal(status);
  if (refusal) {
    deps.stderr(`intrabot run: ${refusal}\n`);
    return 1;
  }
  if (status === 404) {
    // the runtime names what is unknown: the bot (not deployed there, and why; or no such bot) or the job
    deps.stderr(`intrabot run: ${answerMessage(body)}\n`);
    return 1;
  }
  if (status < 200 || status >= 300) {
    deps.stderr(`intrabot run: ${c.red('failed')} (${status}): ${answerMessage(body)}\n`);
    return 1;
  }
  const outcome = body?.run?.outcome ?? 'ok';
  if (outcome !== 'ok') {
    deps.stderr(`intrabot run: ${args.bot}/${args.job} on ${tenant.id}: ${c.red(outcome)}${body?.run?.error ? `: ${body.run.error}` : ''}\n`);
    return 1;
  }
  deps.stdout(
    `${c.green('ran')} ${args.bot}/${args.job} on ${tenant.id} through the running runtime; what it sends goes through the outbox (intrabot outbox lists anything still waiting)\n`,
  );
  return 0;
}

async function runInProcess(deps: RunDeps, config: RuntimeConfig, tenant: TenantConfig, args: RunArgs): Promise<number> {
  const c = paint(deps);
  const problem = await sandboxProblem(config);
  if (problem) {
    deps.stderr(`intrabot run: ${problem}\n`);
    return 1;
  }
  const clock = deps.clock ?? createSystemClock();
  // every bot, not only this one: provisioning retires what the manifests it is given do not name
  const runtime = await buildRuntime({
    config: quietConfig(config, deps.env),
    clock,
    env: deps.env,
    pollMs: 100,
    reportsLoadFailures: true,
    onRateNotice: rateNoticePrinter(deps, 'intrabot run'),
  });
  try {
    if (runtime.inspect().failures.length > 0) {
      for (const failure of runtime.inspect().failures) deps.stderr(`${c.red('bot not loaded')}: ${failure.error.message}\n`);
      deps.stderr(
        'intrabot run: not running in-process while a bot fails to load: provisioning would retire its bot user and webhook. Fix it, or start the runtime.\n',
      );
      return 1;
    }
    // before provisioning: a name that runs nothing changes nothing
    const notDeployed = botNotDeployed(runtime.inspect(), tenant.id, args.bot);
    if (notDeployed) {
      deps.stderr(`intrabot run: ${notDeployed.message}\n`);
      return 1;
    }
    await runtime.provision();
    const deadBefore = new Set((await entriesOf(runtime, tenant.id, 'dead')).map((e) => e.id));
    const line = progress(deps, `running ${args.bot}/${args.job}`);
    let run: RunRecord;
    try {
      run = await runtime.runJob(tenant.id, args.bot, args.job, { onProgress: (text) => line.update(text) });
    } finally {
      line.done(`${args.bot}/${args.job} done`);
    }
    if (run.outcome !== 'ok') {
      deps.stderr(`intrabot run: ${args.bot}/${args.job} ${c.red(run.outcome)}${run.error ? `: ${run.error}` : ''}\n`);
      return 1;
    }
    const queued = (await entriesOf(runtime, tenant.id, 'live')).length;
    deps.stdout(`${c.green('ran')} ${args.bot}/${args.job} on ${tenant.id}; ${queued} message(s) queued\n`);
    return await deliver(deps, runtime, clock, tenant.id, args.waitMs, { queued, deadBefore });
  } catch (error) {
    deps.stderr(`intrabot run: ${args.bot}/${args.job} ${c.red('failed')}: ${messageOf(error)}\n`);
    return 1;
  } finally {
    await runtime.close();
  }
}

/** Sends the queued messages with the runtime's own sender (the runtime does not listen here). */
async function deliver(
  deps: CliIo,
  runtime: Runtime,
  clock: Clock,
  tenant: string,
  waitMs: number,
  before: { queued: number; deadBefore: Set<string> },
): Promise<number> {
  const c = paint(deps);
  const line = before.queued > 0 ? progress(deps, `delivering ${before.queued} message(s)`) : undefined;
  // what is queued now is sent (a job's messages, and anything older still waiting), as the runtime would
  const { left } = await runtime.flush({ waitMs, onProgress: (now) => line?.update(`${Math.max(before.queued - now, 0)} of ${before.queued}`) });
  const dead = (await entriesOf(runtime, tenant, 'dead')).filter((e) => !before.deadBefore.has(e.id));
  line?.done(`${before.queued - left - dead.length} of ${before.queued} message(s) delivered`);
  for (const entry of dead) deps.stderr(`${c.red('dead letter')} ${entry.id}: ${entry.deadReason ?? entry.lastError ?? 'no reason recorded'}\n`);
  if (left > 0)
    deps.stderr(`${c.yellow('still queued')}: ${left} message(s) after ${waitMs / 1000} s; they stay in the outbox and are sent when the runtime runs\n`);
  return dead.length === 0 && left === 0 ? 0 : 1;
}

async function entriesOf(runtime: Runtime, tenant: string, state: 'live' | 'dead'): Promise<QueueEntry[]> {
  const entries = await runtime.inspect().store.outbox.list({ state, limit: 10_000 });
  return entries.filter((e) => {
    const record = OutboxRecordSchema.safeParse(e.payload);
    return record.success && record.data.entry.tenant === tenant;
  });
}

export const command: CliCommand = {
  name: 'run',
  usage: USAGE,
  summary: 'Run a bot job now (through the running runtime, or in-process when none is up)',
  run: (args) => runRun(args, processIo()),
};
