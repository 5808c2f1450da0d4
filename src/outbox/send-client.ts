import type { CallOptions } from '../api/client';
import type { CallInput, CallResult, ItemOf } from '../api/caller';
import type { Pace } from '../api/rate-limiter';
import type { AnyEndpoint } from '../api/schemas/endpoint';
import type { TraceContext } from '../tracing/spans';

/**
 * What the sender needs from the API client: one call at a time, with `attempts: 1` (the outbox
 * owns retries; the client still paces), and pagination for reconciling. `ApiClient` fits. Every
 * request the sender makes for an entry is paced `spread` (`OUTBOX_PACE`).
 */
export interface SendClient {
  call<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E> & CallOptions): Promise<CallResult<E>>;
  paginate<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E> & CallOptions): AsyncIterable<ItemOf<E>>;
}

/** The client as one entry's send sees it: every request goes under the entry's span (tracing on). */
export function tracedSendClient(client: SendClient, trace: TraceContext | undefined): SendClient {
  if (trace === undefined) return client;
  return {
    call: <E extends AnyEndpoint>(endpoint: E, input?: CallInput<E> & CallOptions) => client.call(endpoint, { ...input, trace }),
    paginate: <E extends AnyEndpoint>(endpoint: E, input?: CallInput<E> & CallOptions) => client.paginate(endpoint, { ...input, trace }),
  };
}

/** The loosely typed input the outbox builds from JSON entries; the client validates it against the endpoint. */
export interface LooseCall {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  form?: FormData;
  signal?: AbortSignal;
  repeatable?: boolean;
}

/**
 * The outbox's sends (posts, comments, messages, incoming-webhook calls, uploads, and the reads of a
 * reconcile) are spread at least one spacing apart per token and per incoming webhook even after a quiet
 * minute: a storm must not go out half a minute's worth at once (issue #12, defect 11). The runtime's
 * other calls may still burst on a quiet budget (src/api/pacing.ts).
 */
export const OUTBOX_PACE: Pace = 'spread';

/** One attempt of a call whose input came from a stored entry, paced `spread`. */
export async function callOnce(client: SendClient, endpoint: AnyEndpoint, input: LooseCall): Promise<unknown> {
  return client.call(endpoint, {
    ...(input as CallInput<AnyEndpoint>),
    attempts: 1,
    pace: OUTBOX_PACE,
    ...(input.repeatable ? { repeatable: true } : {}),
  });
}
