import type { Claims } from '../store/claims';
import type { KvSpace } from '../store/kv';
import type { ItemKind } from './kinds/send-kinds';

/**
 * The items the outbox created on the platform, and which attempt each belongs to, kept per tenant in
 * the store so every replica sees them. Reconciling an uncertain create looks for an item with the same
 * text; an item another entry created (an earlier alert with the same text, an earlier identical reply)
 * is never taken for this entry's lost attempt, so a legitimate repeat is sent, not silently dropped.
 *
 * An item belongs to the first attempt that claims it: the one whose create answered with it, or the one
 * whose reconcile found it first. The claim is atomic across replicas (`store.claims`); its owner is
 * written beside it in the outbox's kv.
 */

/** What reconciling can read back and claim: the kinds of send with a `createdItem` (`src/outbox/kinds/`). */
export type { ItemKind };

export interface CreatedItem {
  kind: ItemKind;
  id: number;
}

/**
 * How long a claim is kept. An entry whose reconcile runs later than this (less the skew allowance)
 * after its first attempt might meet an item whose claim has already expired, so it resends instead
 * (see `OutboxSender`): entries retry for 24 hours by default.
 */
export const ITEM_CLAIM_TTL_MS = 3 * 24 * 60 * 60_000;

/** Who owns a created item: the attempt key (`attempt:<entry>` or `attempt:<entry>:<part>`). */
export type AttemptOwner = string;

export class CreatedItems {
  constructor(
    private readonly claims: Claims,
    private readonly kv: KvSpace,
    private readonly ttlMs = ITEM_CLAIM_TTL_MS,
  ) {}

  /**
   * Claims `item` for `owner`: true when it is now, or already was, that owner's; false when another
   * attempt holds it. Two attempts claiming one item at once: exactly one gets it (a claim taken by an
   * attempt that crashed before naming itself stays nobody's: the entry is sent again, a duplicate at
   * worst, never a loss).
   */
  async claim(tenant: string, item: CreatedItem, owner: AttemptOwner): Promise<boolean> {
    const key = itemKey(tenant, item);
    const holder = await this.kv.get(key);
    if (holder !== undefined) return holder === owner;
    if (await this.claims.claim(`outbox:${key}`, this.ttlMs)) {
      await this.kv.set(key, owner, { ttlMs: this.ttlMs });
      return true;
    }
    return (await this.kv.get(key)) === owner;
  }

  /**
   * The user the tenant's token writes as (spec: Authentication, 4: its creator or a system user),
   * learned from the comments and posts the outbox created: a reconcile only takes items by that author.
   */
  async noteTokenUser(tenant: string, userId: number): Promise<void> {
    await this.kv.set(tokenUserKey(tenant), userId, { ttlMs: this.ttlMs });
  }

  async tokenUser(tenant: string): Promise<number | undefined> {
    const value = await this.kv.get(tokenUserKey(tenant));
    return typeof value === 'number' ? value : undefined;
  }
}

function itemKey(tenant: string, item: CreatedItem): string {
  return `item:${tenant}:${item.kind}:${item.id}`;
}

function tokenUserKey(tenant: string): string {
  return `token-user:${tenant}`;
}
