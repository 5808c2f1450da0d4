import type { CallOptions } from '../api/client';
import type { CallInput, CallResult, ItemOf } from '../api/caller';
import type { AnyEndpoint } from '../api/schemas/endpoint';

/**
 * What the sender needs from the API client: one call at a time, with `attempts: 1` (the outbox
 * owns retries; the client still paces), and pagination for reconciling. `ApiClient` fits.
 */
export interface SendClient {
  call<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E> & CallOptions): Promise<CallResult<E>>;
  paginate<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E> & CallOptions): AsyncIterable<ItemOf<E>>;
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

/** One attempt of a call whose input came from a stored entry. */
export async function callOnce(client: SendClient, endpoint: AnyEndpoint, input: LooseCall): Promise<unknown> {
  return client.call(endpoint, { ...(input as CallInput<AnyEndpoint>), attempts: 1, ...(input.repeatable ? { repeatable: true } : {}) });
}
