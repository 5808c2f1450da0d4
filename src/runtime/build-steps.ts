import { SharedRateLimiter } from '../api/shared-rate-limiter';
import { commandOverlaps } from '../bots/command-overlaps';
import { loadBots, type BotRegistry } from '../bots/registry';
import type { Logger } from '../log';
import type { Store } from '../store/store';
import { usableInMode } from './config/bot-mode-check';
import { checkEnabledNames, skipReason } from './config/bot-selection';
import type { RuntimeDeps } from './build-runtime';
import { botsSettingName } from './config/config';
import type { RuntimeMetrics } from './operations/metrics';
import type { ProvisioningProgress } from './start/provisioning-progress';
import { RateBudgetHistory } from './operations/rate-budget-history';
import { buildTenants, type TenantRuntime } from './tenants';

/**
 * The `bots` step of `buildRuntime`: the bots of `bots_dir` this runtime deploys (usable in its mode, and
 * chosen by `INTRABOT_BOTS` or, in connected mode, not examples). A list naming a bot that is not there
 * is a config error (`abandon` closes what was opened first). Load failures are logged unless the caller
 * prints them itself; each skipped bot is said once.
 */
export async function loadDeployableBots(
  deps: Pick<RuntimeDeps, 'config' | 'only' | 'botsVersion' | 'reportsLoadFailures'>,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
  abandon: () => Promise<void>,
): Promise<BotRegistry> {
  const { config } = deps;
  const choice = { mode: config.mode, enabled: config.bots, setting: botsSettingName(env) };
  const registry = await loadBots(config.bots_dir, env, deps.only, {
    check: usableInMode(config.mode),
    skip: (bot) => skipReason(choice, bot),
    ...(deps.botsVersion ? { version: deps.botsVersion } : {}),
  });
  try {
    checkEnabledNames(choice, registry);
  } catch (error) {
    await abandon();
    throw error;
  }
  if (!deps.reportsLoadFailures) for (const failure of registry.failures) logger.error({ dir: failure.dir }, `bot not loaded: ${failure.error.message}`);
  // said once, at start: a skipped bot gets no bot user, no endpoint, no routes and no jobs
  for (const skipped of registry.skipped) logger.info({ bot: skipped.name }, `bot skipped: ${skipped.name}: ${skipped.reason}`);
  // two bots answering one /command on the same walls: each works alone, together a post gets both answers
  for (const overlap of commandOverlaps(
    registry.bots,
    config.tenants.map((tenant) => tenant.id),
  ))
    logger.warn({ bots: overlap.bots, command: overlap.command, tenants: overlap.tenants }, overlap.message);
  return registry;
}

/**
 * The `tenants` step: one API client per tenant, all paced by one rate limiter over the store (shared by
 * every replica), watched for the console's budget history; long waits and clamped headers are told to
 * `onRateNotice` (a CLI command prints them), and every wait for budget to `progress` (start-up
 * provisioning shows it).
 */
export function buildPacedTenants(
  deps: Pick<RuntimeDeps, 'config' | 'clock' | 'dispatcher' | 'onRateNotice'>,
  store: Store,
  logger: Logger,
  progress: ProvisioningProgress,
  metrics?: RuntimeMetrics,
): { limiter: SharedRateLimiter; rateHistory: RateBudgetHistory; tenants: ReadonlyMap<string, TenantRuntime> } {
  const { clock, onRateNotice } = deps;
  const limiter = new SharedRateLimiter({
    rate: store.rate,
    clock,
    onError: (err) => logger.warn({ err }, 'rate budget: store write failed'),
    onWait: (waitMs: number) => {
      progress.budgetWait(waitMs);
      onRateNotice?.({ kind: 'waiting', waitMs, why: 'budget' });
    },
  });
  const rateHistory = new RateBudgetHistory(clock);
  const tenants = buildTenants({
    tenants: deps.config.tenants,
    clock,
    store,
    limiter: rateHistory.watch(limiter),
    dispatcher: deps.dispatcher,
    logger,
    onRateNotice,
    metrics,
  });
  return { limiter, rateHistory, tenants };
}
