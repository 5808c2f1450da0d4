import type { Clock } from '../clock';
import { IntrabotError } from '../errors';
import type { ShareView } from './response-headers';
import { MemoryShareBudget, proxyShare, type ShareBudget } from './share-budget';

/** spec: Limits: the budget is counted per minute. */
const WINDOW_MS = 60_000;
/** The default until the platform's `X-RateLimit-Limit` says otherwise (spec: Limits: 60 per minute). */
const DEFAULT_TOKEN_LIMIT = 60;
/** While the bots are idle the proxy is only counted, not limited: the shared limiter paces it. */
const UNBOUNDED = 1_000_000;

export interface ShareGateOptions {
  clock: Clock;
  /** True while the outbox has work queued for the tenant (the bots come first). */
  outboxBusy: (tenant: string) => Promise<boolean>;
  /** The proxy's share of the token's budget while the outbox is busy, 0 < share <= 1. */
  share: number;
  budget?: ShareBudget | undefined;
}

/** The proxy answers 429 itself: the platform was not called. */
export class ProxyShareExceededError extends IntrabotError {
  readonly retryAfterSeconds: number;
  readonly view: ShareView;
  constructor(tenant: string, waitMs: number, view: ShareView) {
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    super(
      'proxy_share_exceeded',
      `the proxy's share of the ${tenant} token budget (${view.limit} per minute while the bots have work queued) is spent; retry after ${retryAfterSeconds} s`,
      { details: { retry_after: retryAfterSeconds } },
    );
    this.retryAfterSeconds = retryAfterSeconds;
    this.view = view;
  }

  /** As the platform answers a 429: when to retry, and the budget that was spent. */
  override responseHeaders(): Record<string, string> {
    return { 'retry-after': String(this.retryAfterSeconds), 'x-ratelimit-limit': String(this.view.limit), 'x-ratelimit-remaining': '0' };
  }
}

/**
 * Keeps proxy callers to their share of a token's budget while the bots have work queued, so a
 * script cannot starve the birthday bot. Every proxied call is counted, busy or not: a script that
 * spent the whole minute before the outbox filled waits like one that spends it after.
 */
export class ShareGate {
  private readonly tokenLimits = new Map<string, number>();
  private readonly budget: ShareBudget;

  constructor(private readonly options: ShareGateOptions) {
    this.budget = options.budget ?? new MemoryShareBudget(options.clock);
  }

  /** Admits one call for `tenant`, or throws `ProxyShareExceededError`; returns the share in force, if any. */
  async admit(tenant: string): Promise<ShareView | undefined> {
    const key = `proxy:${tenant}`;
    if (!(await this.options.outboxBusy(tenant))) {
      await this.budget.take(key, { limit: UNBOUNDED, windowMs: WINDOW_MS });
      return undefined;
    }
    const limit = proxyShare(this.tokenLimits.get(tenant) ?? DEFAULT_TOKEN_LIMIT, this.options.share);
    const decision = await this.budget.take(key, { limit, windowMs: WINDOW_MS });
    if (!decision.ok) throw new ProxyShareExceededError(tenant, decision.waitMs, { limit, remaining: 0 });
    return { limit, remaining: decision.remaining };
  }

  /**
   * Learns the token's limit from the platform's `X-RateLimit-Limit` (it is configurable per
   * server), and returns the share of this call restated under that limit.
   */
  observe(tenant: string, headers: Record<string, string>, view: ShareView | undefined): ShareView | undefined {
    const limit = Number(headers['x-ratelimit-limit']);
    if (Number.isInteger(limit) && limit > 0) this.tokenLimits.set(tenant, limit);
    if (!view) return undefined;
    const shareLimit = proxyShare(this.tokenLimits.get(tenant) ?? DEFAULT_TOKEN_LIMIT, this.options.share);
    if (view.remaining === undefined) return { limit: shareLimit, remaining: undefined };
    const used = view.limit - view.remaining;
    return { limit: shareLimit, remaining: Math.max(0, shareLimit - used) };
  }
}
