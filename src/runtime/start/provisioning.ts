import { configuredIncomingSecretName } from '../../bots/target-entry';
import type { LoopGuard } from '../../bots/loop-guard';
import { provisionTenant, type ProvisionResult } from '../../bots/provision/provisioner';
import type { Clock } from '../../clock';
import { keepAlive } from '../../clock/keep-alive';
import { IntrabotError } from '../../errors';
import { tracedApi } from '../../api/create-api-client';
import { traceProvision } from '../../tracing/trace-sites';
import type { Store } from '../../store/store';
import type { Logger } from '../../log';
import type { Deployment, DeploymentTable } from '../deployments';
import type { TenantRuntime } from '../tenants';
import type { ProvisioningProgress } from './provisioning-progress';

export interface ProvisionAllInput {
  table: DeploymentTable;
  store: Store;
  clock: Clock;
  loopGuard: LoopGuard;
  logger: Logger;
  publicUrl: string;
  dryRun?: boolean;
  /** Create no webhook endpoints (the runtime polls instead of receiving). */
  skipWebhooks?: boolean;
  /** Bots present but not loaded (their manifest or module is broken): kept, not retired. */
  keep?: readonly string[];
  /** How long a replica that did not win the claim waits for the one that did. */
  waitMs?: number;
  /** Told before each tenant (`intrabot provision` shows it as progress). */
  onTenant?: (tenant: string, index: number, total: number) => void;
  /** Told the bots done (start-up logs them and `/readyz` shows them); a dry run tells it nothing. */
  progress?: ProvisioningProgress;
}

/**
 * The provisioning claim is a short lock renewed while the leader works: a leader that crashed frees it
 * within this long (at once with SQLite, where its process is seen to be gone), not after a long TTL
 * during which every restart would wait for "another replica" with /readyz at 503.
 */
export const PROVISION_LEASE_MS = 15_000;
const RENEW_EVERY_MS = PROVISION_LEASE_MS / 3;
/** How long a replica waits for a live leader (one that keeps renewing) before giving up. */
const DEFAULT_WAIT_MS = 10 * 60_000;

/**
 * Provisions every tenant once, even when several replicas start together: the replica that claims
 * `provision:<tenant>` does the work and publishes the result in the store; the others wait for it.
 */
export async function provisionAll(input: ProvisionAllInput): Promise<ProvisionResult[]> {
  // every tenant, one with no bot deployed too: what bots no longer deployed (removed, skipped) left there is retired
  const tenants = input.table.tenants();
  const progress = input.dryRun ? undefined : input.progress;
  progress?.begin(input.table.all().length);
  try {
    return await provisionTenants(input, tenants, progress);
  } finally {
    progress?.end();
  }
}

async function provisionTenants(
  input: ProvisionAllInput,
  tenants: readonly TenantRuntime[],
  progress: ProvisioningProgress | undefined,
): Promise<ProvisionResult[]> {
  const results: ProvisionResult[] = [];
  for (const tenant of tenants) {
    const tenantId = tenant.config.id;
    const deployments = input.table.all().filter((d) => d.tenant.config.id === tenantId);
    input.onTenant?.(tenantId, results.length, tenants.length);
    const run = () =>
      traceProvision({ tenant: tenantId, dryRun: input.dryRun ?? false }, (trace) =>
        provisionTenant({
          tenant: tenantId,
          eventPrefix: tenant.config.event_prefix,
          api: tracedApi(tenant.api, trace),
          store: input.store,
          publicUrl: input.publicUrl,
          manifests: deployments.map((d) => d.manifest),
          dryRun: input.dryRun ?? false,
          skipWebhooks: input.skipWebhooks ?? false,
          keep: input.keep ?? [],
          walls: tenant.walls,
          ...(progress ? { onBot: (bot: string) => progress.botDone(bot) } : {}),
        }),
      );
    const result = input.dryRun ? await run() : await asLeader(input, tenantId, run);
    for (const missing of result.actions.filter((a) => a.resource === 'wall' && a.action === 'missing')) {
      input.logger.error(
        { tenant: tenantId, target: missing.name },
        `target ${missing.name}: ${missing.detail ?? 'no such wall'}; its messages are refused until the name is fixed`,
      );
    }
    if (!input.dryRun) {
      input.table.provisioned(result);
      await rememberConfiguredWebhooks(input.store, deployments);
      const ours = Object.fromEntries(Object.values(result.bots).flatMap((b) => (b.botUserId ? [[b.name, b.botUserId]] : [])));
      await input.loopGuard.noteBotUsers(tenantId, ours, result.allBotUserIds);
    }
    results.push(result);
  }
  return results;
}

/** Where each tenant's last provisioning result is kept (`asLeader`), by tenant id. */
const PROVISION_KV = 'runtime:provision';

/**
 * The tenants this store has provisioned before, of `ids`: a tenant in it has answered at its URL once.
 * A store that cannot say counts every tenant as known (the start then retries as for any outage).
 */
export async function provisionedBefore(store: Store, ids: readonly string[]): Promise<Set<string>> {
  const kv = store.kv(PROVISION_KV);
  try {
    const found = await Promise.all(ids.map(async (id) => ((await kv.get(id)) === undefined ? [] : [id])));
    return new Set(found.flat());
  } catch {
    return new Set(ids);
  }
}

async function asLeader(input: ProvisionAllInput, tenantId: string, run: () => Promise<ProvisionResult>): Promise<ProvisionResult> {
  const kv = input.store.kv(PROVISION_KV);
  const key = `provision:${tenantId}`;
  const startedAt = input.clock.now();
  // elapsed real time (performance.now): this waits for another process, not for platform time; a
  // leader that died stops renewing its claim, which then runs out on the clock, and this one takes over
  const deadline = performance.now() + (input.waitMs ?? DEFAULT_WAIT_MS);
  let told = false;
  while (performance.now() < deadline) {
    if (await input.store.claims.claim(key, PROVISION_LEASE_MS, { lock: true })) {
      const stopRenewing = keepClaim(input, key);
      try {
        const result = await run();
        await kv.set(tenantId, { at: input.clock.now(), result: JSON.parse(JSON.stringify(result)) });
        return result;
      } finally {
        stopRenewing();
        await input.store.claims.release(key);
      }
    }
    const done = (await kv.get(tenantId)) as { at: number; result: ProvisionResult } | undefined;
    if (done && done.at >= startedAt) return done.result;
    if (!told) input.logger.info({ tenant: tenantId }, 'another replica is provisioning this tenant; waiting for it');
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new IntrabotError('conflict', `tenant ${tenantId}: another replica holds the provisioning claim and did not finish`);
}

/** Renews the provisioning claim on the clock while the work runs; a renewal that fails is logged, and the work goes on. */
function keepClaim(input: ProvisionAllInput, key: string): () => void {
  const renew = async (): Promise<void> => {
    if (!(await input.store.claims.renew(key, PROVISION_LEASE_MS)))
      input.logger.warn({ claim: key }, 'provisioning: the claim ran out before it could be renewed; another replica may provision too');
  };
  return keepAlive(input.clock, RENEW_EVERY_MS, renew, (err) => input.logger.warn({ err, claim: key }, 'provisioning: could not renew the claim'));
}

/** Incoming-webhook URLs given in configuration are secrets: kept encrypted, referenced by name. */
async function rememberConfiguredWebhooks(store: Store, deployments: readonly Deployment[]): Promise<void> {
  for (const d of deployments) {
    for (const [name, target] of Object.entries(d.manifest.targets)) {
      if ('incoming_webhook' in target) await store.secrets.put(configuredIncomingSecretName(d.tenant.config.id, d.bot.name, name), target.incoming_webhook);
    }
  }
}
