import { ApiNotFoundError } from '../../api/errors';
import { webhookName, webhookSecretName, type Remote } from '../../bots/provision/provision-bot';
import type { Clock } from '../../clock';
import { IntrabotError } from '../../errors';
import type { Store } from '../../store/store';
import { toPlatformEvent } from '../../webhooks/events';
import type { DeploymentTable } from '../deployments';
import { ROTATION_OVERLAP_MS, type RotationPlan, type RotationPlans } from './rotation-plan';
import { retiringSecretName } from './signing-secrets';
import type { TenantRuntime } from '../tenants';

export interface RotationStepDeps {
  store: Store;
  clock: Clock;
  table: DeploymentTable;
  plans: RotationPlans;
}

/**
 * Moves a rotation on as far as it can go now: `creating -> overlap` at once, `overlap -> done` once its
 * `revokeAt` has passed on the clock. Every step can run again after a crash (the plan is saved after each
 * one that the next depends on), so a replica or a restart that takes the plan over finishes it.
 */
export async function advanceRotation(deps: RotationStepDeps, tenant: TenantRuntime, plan: RotationPlan): Promise<RotationPlan> {
  let current = plan;
  if (current.phase === 'creating') current = await createAndSubscribe(deps, tenant, current);
  if (current.phase === 'overlap' && current.revokeAt !== undefined && deps.clock.now() >= current.revokeAt) current = await revokeOld(deps, tenant, current);
  return current;
}

/**
 * The new endpoint, made quiet: subscribed to the ping alone (`<prefix>.test`), so nothing is sent to it
 * before its secret is stored and every replica accepts it; then the secrets stored (the old one as
 * retiring), then the old endpoint's events and filters given to it. From that moment every event goes
 * to both endpoints, and the inbox's event keys keep a copy from being handled twice.
 */
async function createAndSubscribe(deps: RotationStepDeps, tenant: TenantRuntime, plan: RotationPlan): Promise<RotationPlan> {
  const { api } = tenant;
  const tenantId = tenant.config.id;
  let current = plan;
  let newId = current.newEndpointId ?? (await adoptEarlier(tenant, current));
  if (newId === undefined) {
    const quiet = [toPlatformEvent('test', tenant.config.event_prefix)];
    const created = (await api.webhooks.create({ name: webhookName(current.bot), url: current.url, events: quiet })) as Remote;
    newId = created.id;
  }
  if (current.newEndpointId !== newId) current = await deps.plans.put({ ...current, newEndpointId: newId });

  // the old secret from the platform, not the store: after a crash here the store may hold the new one already;
  // an old endpoint deleted meanwhile sends nothing more, so there is no secret of it to keep accepting
  const oldSecret = await secretOf(tenant, current.oldEndpointId);
  const newSecret = await secretOf(tenant, newId);
  if (newSecret === undefined) {
    const { newEndpointId: _gone, ...rest } = current;
    await deps.plans.put(rest);
    throw new IntrabotError('conflict', `the new endpoint ${newId} is gone from the platform; the next check makes another`);
  }
  if (oldSecret === undefined) await deps.store.secrets.delete(retiringSecretName(tenantId, current.bot));
  else await deps.store.secrets.put(retiringSecretName(tenantId, current.bot), oldSecret);
  await deps.store.secrets.put(webhookSecretName(tenantId, current.bot), newSecret);
  deps.table.forgetSecrets();

  await api.webhooks.update(newId, { events: current.events, filters: current.filters });
  await deps.store.provisioning.put(tenantId, { kind: 'webhook_endpoint', name: current.bot, remoteId: newId });
  const now = deps.clock.now();
  const { lastError: _cleared, ...rest } = current;
  return deps.plans.put({ ...rest, phase: 'overlap', subscribedAt: now, revokeAt: now + ROTATION_OVERLAP_MS });
}

/**
 * An endpoint a crashed run created before it could save the id: ours by name, live, and not the old one.
 * The newest is taken; any other such leftover is revoked (the old endpoint still receives everything).
 */
async function adoptEarlier(tenant: TenantRuntime, plan: RotationPlan): Promise<number | undefined> {
  const ours: Remote[] = [];
  for await (const item of tenant.api.webhooks.all()) {
    const hook = item as Remote;
    if (hook.name === webhookName(plan.bot) && !hook.revoked_at && hook.id !== plan.oldEndpointId) ours.push(hook);
  }
  ours.sort((a, b) => b.id - a.id);
  const [newest, ...leftovers] = ours;
  for (const hook of leftovers) await revokeIfThere(tenant, hook.id);
  return newest?.id;
}

/** The overlap is over: no delivery to the old endpoint alone can be retried any more. It is revoked (the spec's only removal: permanent, its logs kept), and its secret forgotten. */
async function revokeOld(deps: RotationStepDeps, tenant: TenantRuntime, plan: RotationPlan): Promise<RotationPlan> {
  await revokeIfThere(tenant, plan.oldEndpointId);
  await deps.store.secrets.delete(retiringSecretName(tenant.config.id, plan.bot));
  deps.table.forgetSecrets();
  const { lastError: _cleared, ...rest } = plan;
  return deps.plans.put({ ...rest, phase: 'done', finishedAt: deps.clock.now() });
}

async function secretOf(tenant: TenantRuntime, id: number): Promise<string | undefined> {
  try {
    return ((await tenant.api.webhooks.secret(id)) as { secret: string }).secret;
  } catch (error) {
    if (error instanceof ApiNotFoundError) return undefined;
    throw error;
  }
}

async function revokeIfThere(tenant: TenantRuntime, id: number): Promise<void> {
  try {
    await tenant.api.webhooks.revoke(id);
  } catch (error) {
    if (!(error instanceof ApiNotFoundError)) throw error;
  }
}
