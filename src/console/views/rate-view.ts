import type { RateBudgetEntry, RateBudgetView } from '../console-views';

/** One limiter key's history (src/runtime/operations/rate-budget-history.ts `RateKeyHistory`). */
export interface RateKeyInput {
  key: string;
  last: { limit: number; remaining: number; resetAtMs: number | undefined; at: number } | undefined;
  requestsLastMinute: number;
  throttledLastMinute: number;
  samples: readonly { at: number; remaining: number; limit: number; requests: number; throttled: number }[];
}

/** What a limiter key stands for: a tenant's token or one incoming webhook. */
export interface RateKeyLabel {
  kind: 'token' | 'incoming';
  label: string;
  tenant: string;
}

/**
 * Every rate budget with its gauge over time: the tenants' tokens first (listed before their first
 * request too), then the incoming webhooks, then budgets the runtime cannot name.
 */
export function rateView(input: {
  now: number;
  bucketMs: number;
  spanMs: number;
  keys: readonly RateKeyInput[];
  labels: ReadonlyMap<string, RateKeyLabel>;
}): RateBudgetView {
  const seen = new Map(input.keys.map((k) => [k.key, k]));
  const budgets: RateBudgetEntry[] = [];
  for (const [key, label] of input.labels) {
    const history = seen.get(key);
    if (label.kind === 'token' || history) budgets.push(entry(key, label, history, input.now));
  }
  for (const history of input.keys) {
    if (!input.labels.has(history.key)) budgets.push(entry(history.key, undefined, history, input.now));
  }
  const order = { token: 0, incoming: 1, other: 2 };
  budgets.sort((a, b) => order[a.kind] - order[b.kind] || a.label.localeCompare(b.label));
  return { now: input.now, bucketMs: input.bucketMs, spanMs: input.spanMs, budgets };
}

function entry(key: string, label: RateKeyLabel | undefined, history: RateKeyInput | undefined, now: number): RateBudgetEntry {
  const last = history?.last;
  // past the platform's reset, the budget is whole again whatever the last answer said
  const reset = last?.resetAtMs !== undefined && last.resetAtMs <= now;
  return {
    // the limiter key is already a hash; shortened further, it only tells budgets apart
    id: key.replace(/^rl:/, '').slice(0, 12),
    kind: label?.kind ?? 'other',
    label: label?.label ?? 'A budget the runtime cannot name (an incoming webhook of another configuration?)',
    tenant: label?.tenant ?? null,
    limit: last?.limit ?? null,
    remaining: last ? (reset ? last.limit : last.remaining) : null,
    resetAt: last?.resetAtMs ?? null,
    observedAt: last?.at ?? null,
    requestsLastMinute: history?.requestsLastMinute ?? 0,
    throttledLastMinute: history?.throttledLastMinute ?? 0,
    samples: [...(history?.samples ?? [])],
  };
}
