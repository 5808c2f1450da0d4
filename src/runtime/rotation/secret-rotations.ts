import { ApiNotFoundError } from '../../api/errors';
import type { Clock, TimerHandle } from '../../clock';
import { keepAlive } from '../../clock/keep-alive';
import { IntrabotError } from '../../errors';
import type { Logger } from '../../log';
import type { Store } from '../../store/store';
import type { DeploymentTable } from '../deployments';
import { RotationPlans, rotationClaimKey, type RotationPlan } from './rotation-plan';
import { advanceRotation } from './rotation-steps';
import type { TenantRuntime } from '../tenants';

export interface SecretRotationsDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  table: DeploymentTable;
}

/** How often unfinished rotations are looked for (one another replica began and could not finish). */
export const ROTATION_CHECK_MS = 60_000;
/** The claim on one rotation is a short lock, renewed while a step runs. */
const CLAIM_MS = 30_000;

/**
 * Zero-downtime rotation of the bots' signing secrets (`intrabot rotate-secret`). The spec has no rotate
 * endpoint, so a rotation makes a second endpoint, accepts both secrets while both deliver, and revokes
 * the old one once none of its retries can come (the steps are in `rotation-steps.ts`). Plans live in
 * the store; each step runs under a claim, so one replica does it, and any replica, a restarted one too,
 * carries on a plan: at start, at each plan's `revokeAt` and every minute on the clock.
 */
export class SecretRotations {
  readonly plans: RotationPlans;
  private timer: TimerHandle | undefined;
  private dueAt: number | undefined;
  private checking: Promise<void> = Promise.resolve();
  private running = false;

  constructor(private readonly deps: SecretRotationsDeps) {
    this.plans = new RotationPlans(deps.store);
  }

  start(): void {
    this.running = true;
    this.checkSoon(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) this.deps.clock.clearTimeout(this.timer);
    await this.checking;
  }

  /**
   * Begins a rotation and runs it up to its overlap: resolves once the new endpoint receives every event
   * and both secrets are accepted. Refused (409) while the bot's last rotation is unfinished.
   */
  async rotate(tenantId: string, bot: string): Promise<RotationPlan> {
    const tenant = this.deps.table.tenant(tenantId);
    if (!tenant) throw new IntrabotError('unknown_tenant', `no tenant "${tenantId}" is configured`);
    if (!this.deps.table.get(tenantId, bot)) throw new IntrabotError('unknown_bot', `no bot "${bot}" is deployed to tenant "${tenantId}"`);
    const plan = await this.claimed(tenantId, bot, async () => {
      const last = await this.plans.get(tenantId, bot);
      if (last && last.phase !== 'done') throw inProgress(last);
      const record = await this.deps.store.provisioning.get(tenantId, 'webhook_endpoint', bot);
      if (!record)
        throw new IntrabotError(
          'conflict',
          `bot "${bot}" has no webhook endpoint on tenant "${tenantId}" (it subscribes to no events, or is not provisioned yet)`,
        );
      const old = await endpointOf(tenant, record.remoteId);
      if (!old || old.revoked_at)
        throw new IntrabotError(
          'conflict',
          `the endpoint of bot "${bot}" on tenant "${tenantId}" is gone or revoked; restart the runtime to provision a new one`,
        );
      const begun = await this.plans.put({
        tenant: tenantId,
        bot,
        phase: 'creating',
        startedAt: this.deps.clock.now(),
        oldEndpointId: Number(record.remoteId),
        url: old.url,
        events: old.events,
        filters: old.filters ?? {},
      });
      this.deps.logger.info({ tenant: tenantId, bot, endpoint: begun.oldEndpointId }, 'secret rotation: begun');
      return this.step(begun);
    });
    if (!plan) throw new IntrabotError('conflict', `another replica is rotating the secret of bot "${bot}" on tenant "${tenantId}"`);
    this.checkSoon(plan.revokeAt === undefined ? ROTATION_CHECK_MS : plan.revokeAt - this.deps.clock.now());
    return plan;
  }

  /** Every tenant's and bot's last rotation. */
  list(): Promise<RotationPlan[]> {
    return this.plans.all();
  }

  /** Moves every unfinished plan on that can move now, then waits for the next due one (at most a minute). */
  private async check(): Promise<void> {
    const now = this.deps.clock.now();
    let next = now + ROTATION_CHECK_MS;
    for (const plan of await this.plans.all()) {
      if (plan.phase === 'done' || !this.deps.table.tenant(plan.tenant)) continue;
      if (plan.phase === 'overlap' && plan.revokeAt !== undefined && plan.revokeAt > now) {
        next = Math.min(next, plan.revokeAt);
        continue;
      }
      const moved = await this.claimed(plan.tenant, plan.bot, async () => {
        const fresh = await this.plans.get(plan.tenant, plan.bot);
        return fresh && fresh.phase !== 'done' ? this.step(fresh) : fresh;
      }).catch(() => undefined);
      if (moved?.phase === 'overlap' && moved.revokeAt !== undefined) next = Math.min(next, moved.revokeAt);
    }
    this.checkSoon(next - this.deps.clock.now());
  }

  /** One advance of a plan; a failure is kept on the plan (and logged) and the step tried again at the next check. */
  private async step(plan: RotationPlan): Promise<RotationPlan> {
    const tenant = this.deps.table.tenant(plan.tenant);
    if (!tenant) return plan;
    try {
      const after = await advanceRotation({ ...this.deps, plans: this.plans }, tenant, plan);
      if (after.phase !== plan.phase) this.deps.logger.info({ tenant: plan.tenant, bot: plan.bot, phase: after.phase }, `secret rotation: ${after.phase}`);
      return after;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn(
        { tenant: plan.tenant, bot: plan.bot, phase: plan.phase, err: error },
        'secret rotation: a step failed; it is tried again within a minute',
      );
      const saved = (await this.plans.get(plan.tenant, plan.bot)) ?? plan;
      await this.plans.put({ ...saved, lastError: message });
      throw error;
    }
  }

  /** Runs `work` holding the rotation's claim (renewed meanwhile); undefined when another replica holds it. */
  private async claimed<T>(tenant: string, bot: string, work: () => Promise<T>): Promise<T | undefined> {
    const { store, clock, logger } = this.deps;
    const key = rotationClaimKey(tenant, bot);
    if (!(await store.claims.claim(key, CLAIM_MS, { lock: true }))) return undefined;
    const stop = keepAlive(
      clock,
      CLAIM_MS / 3,
      () => store.claims.renew(key, CLAIM_MS),
      (err) => logger.warn({ err, claim: key }, 'secret rotation: could not renew the claim'),
    );
    try {
      return await work();
    } finally {
      stop();
      await store.claims.release(key);
    }
  }

  /** Arms the next check in `delayMs`, unless one is armed sooner; a check that fails is tried again a minute later. */
  private checkSoon(delayMs: number): void {
    if (!this.running) return;
    const wait = Math.max(delayMs, 0);
    const due = this.deps.clock.now() + wait;
    if (this.timer && this.dueAt !== undefined && this.dueAt <= due) return;
    if (this.timer) this.deps.clock.clearTimeout(this.timer);
    this.dueAt = due;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined;
      this.dueAt = undefined;
      this.checking = this.checking
        .then(() => this.check())
        .catch((err: unknown) => {
          this.deps.logger.warn({ err }, 'secret rotation: the check failed; it is tried again within a minute');
          this.checkSoon(ROTATION_CHECK_MS);
        });
    }, wait);
  }
}

type RemoteEndpoint = { url: string; events: string[]; filters?: Record<string, number[]> | null; revoked_at?: string | null };

async function endpointOf(tenant: TenantRuntime, id: number | string): Promise<RemoteEndpoint | undefined> {
  try {
    return (await tenant.api.webhooks.get(id)) as RemoteEndpoint;
  } catch (error) {
    if (error instanceof ApiNotFoundError) return undefined;
    throw error;
  }
}

function inProgress(plan: RotationPlan): IntrabotError {
  const until =
    plan.revokeAt === undefined ? 'its new endpoint is still being made' : `the old endpoint is revoked at ${new Date(plan.revokeAt).toISOString()}`;
  return new IntrabotError('conflict', `a rotation of bot "${plan.bot}" on tenant "${plan.tenant}" is in progress (${plan.phase}): ${until}`);
}
