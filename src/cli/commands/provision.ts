import { formatPlan, isChange, type ProvisionResult } from '../../bots/provision/provisioner';
import { createSystemClock, type Clock } from '../../clock';
import { ConfigError } from '../../errors';
import { buildRuntime, type Runtime } from '../../runtime/build-runtime';
import type { RuntimeConfig } from '../../runtime/config/config';
import type { CliCommand } from '../command';
import { readFlags } from '../read-flags';
import { messageOf, paint, processIo, progress, type CliIo, type Paint } from '../output';
import { rateNoticePrinter } from '../rate-notices';
import { cliConfig, createRuntimeClient, isListening, quietConfig, sandboxProblem } from '../runtime-client';

const USAGE = 'provision [--dry-run] [--json]';

export interface ProvisionDeps extends CliIo {
  clock?: Clock;
}

const ACTION_COLOUR: Record<string, keyof Paint> = {
  create: 'green',
  update: 'yellow',
  reactivate: 'yellow',
  recreate: 'yellow',
  revoke: 'red',
  retire: 'red',
  disable: 'red',
  missing: 'red',
};

/** `formatPlan`'s text, with each action coloured by what it does (on a terminal). */
export function renderPlan(results: readonly ProvisionResult[], dryRun: boolean, c: Paint): string {
  const lines = formatPlan(results)
    .split('\n')
    .map((line) => {
      const action = /^ {2}(\S+)/.exec(line)?.[1];
      if (action && ACTION_COLOUR[action]) return line.replace(action, c[ACTION_COLOUR[action]](action));
      return line.startsWith('tenant ') ? c.bold(line) : line;
    });
  const changes = results.reduce((n, r) => n + r.actions.filter(isChange).length, 0);
  const footer = dryRun
    ? changes > 0
      ? c.cyan('dry run: nothing was changed; run `intrabot provision` to apply these changes')
      : c.cyan('dry run: nothing was changed, and nothing needs to')
    : changes > 0
      ? c.green(`applied ${changes} change(s)`)
      : c.green('already up to date: nothing changed');
  return `${lines.join('\n')}\n${footer}\n`;
}

/** Where the platform must reach `/hooks`: connected tenants need a public URL; the sandbox reaches loopback. */
function publicUrlOf(config: RuntimeConfig, env: CliIo['env']): string | undefined {
  if (config.public_url) return config.public_url;
  if (config.mode === 'sandbox') return `http://127.0.0.1:${env.INTRABOT_PORT || config.port}`;
  return undefined;
}

/**
 * `intrabot provision [--dry-run]`: reconciles every tenant with the bots' manifests (bot users,
 * webhook endpoints, incoming webhooks, retirement of removed bots) without starting the runtime;
 * `--dry-run` prints the plan and changes nothing. Exit 1 when provisioning failed, or when a bot
 * failed to load (its resources would look removed: nothing is applied then; a dry run still plans).
 */
export async function runProvision(argv: string[], deps: ProvisionDeps): Promise<number> {
  const c = paint(deps);
  const parsed = readFlags(argv, { 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } });
  const argsProblem = typeof parsed === 'string' ? parsed : parsed.positionals[0] !== undefined ? `unexpected argument "${parsed.positionals[0]}"` : undefined;
  if (argsProblem !== undefined || typeof parsed === 'string') {
    deps.stderr(`intrabot provision: ${argsProblem}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const { values } = parsed;
  const dryRun = values['dry-run'] ?? false;
  const config = cliConfig(deps, 'provision');
  if (!config) return 1;
  const publicUrl = publicUrlOf(config, deps.env);
  if (!publicUrl) {
    deps.stderr('intrabot provision: INTRABOT_PUBLIC_URL is required: it is where the platform delivers events (<url>/hooks/<tenant>/<bot>)\n');
    return 1;
  }
  const problem = await sandboxProblem(config);
  if (problem) {
    deps.stderr(`intrabot provision: ${problem}\n`);
    return 1;
  }
  let runtime: Runtime;
  try {
    runtime = await buildRuntime({
      config: quietConfig(config, deps.env),
      clock: deps.clock ?? createSystemClock(),
      env: deps.env,
      reportsLoadFailures: true,
      onRateNotice: rateNoticePrinter(deps, 'intrabot provision'),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    deps.stderr(`intrabot provision: ${error.message}\n`);
    return 1;
  }
  try {
    for (const failure of runtime.inspect().failures) deps.stderr(`${c.red('bot not loaded')}: ${failure.error.message}\n`);
    // part of the plan: a skipped bot is not provisioned (and what it had is retired)
    for (const skipped of runtime.inspect().skipped) {
      const line = `${c.yellow('skipped')} ${skipped.name}: ${skipped.reason}\n`;
      if (values.json) deps.stderr(line);
      else deps.stdout(line);
    }
    if (!dryRun && runtime.inspect().failures.length > 0) {
      // a bot that fails to load looks removed: applying now would retire its bot user and endpoint
      deps.stderr('intrabot provision: nothing applied while a bot fails to load (it would be retired as removed). Fix it, or see the plan with --dry-run.\n');
      return 1;
    }
    const tenants = runtime.inspect().config.tenants.length;
    const line = values.json
      ? undefined
      : progress(deps, `${dryRun ? 'planning' : 'provisioning'} ${runtime.inspect().bots.length} bot(s) on ${tenants} tenant(s)`);
    const results = await runtime.provision({
      dryRun,
      publicUrl,
      onTenant: (tenant, index, total) => line?.update(`tenant ${tenant} (${index + 1} of ${total})`),
    });
    line?.done(`${dryRun ? 'planned' : 'provisioned'} ${results.length} tenant(s)`);
    deps.stdout(values.json ? `${JSON.stringify(results, null, 2)}\n` : renderPlan(results, dryRun, c));
    const changed = results.some((r) => r.actions.some(isChange));
    if (!dryRun && changed && (await isListening(`${createRuntimeClient({ env: deps.env }).baseUrl}/healthz`))) {
      deps.stdout(c.yellow('a runtime is running: restart it so it picks up what changed\n'));
    }
    // a target naming a wall the tenant does not have is a configuration error: the bot would fail to send there
    const missing = results.flatMap((r) => r.actions.filter((a) => a.action === 'missing'));
    if (missing.length > 0) {
      const list = missing.map((a) => `${a.name} (${a.detail ?? a.resource}, tenant ${a.tenant})`).join(', ');
      deps.stderr(
        `intrabot provision: ${missing.length} target(s) name a wall the tenant does not have: ${list}. Fix the wall name in bot.yaml (or the config it reads).\n`,
      );
      return 1;
    }
    return runtime.inspect().failures.length > 0 ? 1 : 0;
  } catch (error) {
    deps.stderr(`intrabot provision: ${c.red('failed')}: ${messageOf(error)}\n`);
    return 1;
  } finally {
    await runtime.close();
  }
}

export const command: CliCommand = {
  name: 'provision',
  usage: USAGE,
  summary: 'Reconcile bot users and webhooks on every tenant with the manifests (--dry-run: plan only)',
  run: (args) => runProvision(args, processIo()),
};
