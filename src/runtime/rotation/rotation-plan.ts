import { z } from 'zod';
import type { JsonValue } from '../../store/json';
import type { KvSpace } from '../../store/kv';
import type { Store } from '../../store/store';

/** spec: Events, Outgoing webhooks — "retries run 1 minute and 10 minutes after the first attempt". */
export const LAST_RETRY_AFTER_MS = 10 * 60_000;
/**
 * Beyond the last retry: the platform's queue may start a first attempt late, and its clock may be up to
 * the 5 minutes apart from ours that the signature check tolerates.
 */
export const RETRY_MARGIN_MS = 5 * 60_000;
/** How long the retiring secret stays accepted after the new endpoint receives every event too. */
export const ROTATION_OVERLAP_MS = LAST_RETRY_AFTER_MS + RETRY_MARGIN_MS;

/**
 * One rotation of a bot's signing secret on one tenant, kept in the store so that any replica, or this one
 * after a restart, carries it on from where it stopped:
 *
 * - `creating`: the new endpoint is being made (quiet, then given the old one's events) and its secret stored;
 * - `overlap`: both endpoints receive every event, both secrets are accepted, until `revokeAt`;
 * - `done`: the old endpoint is revoked and its secret forgotten.
 */
export const RotationPlanSchema = z.object({
  tenant: z.string(),
  bot: z.string(),
  phase: z.enum(['creating', 'overlap', 'done']),
  startedAt: z.number(),
  oldEndpointId: z.number().int(),
  /** The old endpoint's subscription, copied at the start: the new one receives exactly the same. */
  url: z.string(),
  events: z.array(z.string()),
  filters: z.record(z.string(), z.array(z.number())),
  newEndpointId: z.number().int().optional(),
  /** When the new endpoint began to receive every event: an event sent to the old one alone went out before. */
  subscribedAt: z.number().optional(),
  /** When no retry of a delivery to the old endpoint alone can still come: `subscribedAt + ROTATION_OVERLAP_MS`. */
  revokeAt: z.number().optional(),
  finishedAt: z.number().optional(),
  /** The last step that failed (retried at the next check), without secrets. */
  lastError: z.string().optional(),
});
export type RotationPlan = z.infer<typeof RotationPlanSchema>;

/** The plans in the store, one per tenant and bot (the last rotation of each). */
export class RotationPlans {
  private readonly kv: KvSpace;

  constructor(store: Pick<Store, 'kv'>) {
    this.kv = store.kv('runtime:rotation');
  }

  async get(tenant: string, bot: string): Promise<RotationPlan | undefined> {
    const value = await this.kv.get(keyOf(tenant, bot));
    const parsed = RotationPlanSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  }

  async put(plan: RotationPlan): Promise<RotationPlan> {
    // through JSON: the fields left undefined are dropped, as the store's JSON values require
    await this.kv.set(keyOf(plan.tenant, plan.bot), JSON.parse(JSON.stringify(plan)) as JsonValue);
    return plan;
  }

  async all(): Promise<RotationPlan[]> {
    const items = await this.kv.list();
    return items.flatMap((item) => {
      const parsed = RotationPlanSchema.safeParse(item.value);
      return parsed.success ? [parsed.data] : [];
    });
  }
}

/** The claim a replica holds while it moves one rotation on. */
export const rotationClaimKey = (tenant: string, bot: string): string => `rotation:${tenant}:${bot}`;

function keyOf(tenant: string, bot: string): string {
  return `${tenant}/${bot}`;
}
