import type { z } from 'zod';
import type { AnyEndpoint, EndpointDef } from './schemas/endpoint';

/** The paginated list envelope (spec: Pagination). */
export interface Page<T> {
  data: T[];
  links?: { first?: string | null; last?: string | null; prev?: string | null; next?: string | null } | undefined;
  meta?: Record<string, unknown> | undefined;
}

type ParamsOf<E> = E extends EndpointDef<string, infer P, z.ZodType, z.ZodType, z.ZodType> ? P : never;
type QueryOf<E> = E extends { query?: infer Q } ? (Q extends z.ZodType ? z.input<Q> : never) : never;
type BodyOf<E> = E extends { body?: infer B } ? (B extends z.ZodType ? z.input<B> : never) : never;
type ResOf<E> = E extends { response: infer R } ? (R extends z.ZodType ? z.output<R> : unknown) : unknown;

/** What a call takes: path parameters, query, JSON body, and an abort signal. */
export interface CallInput<E extends AnyEndpoint> {
  params?: [ParamsOf<E>] extends [never] ? Record<string, never> : Record<ParamsOf<E>, string | number>;
  query?: Partial<QueryOf<E>> & Record<string, unknown>;
  body?: BodyOf<E>;
  /** For multipart endpoints: the form fields (files as Blob). */
  form?: FormData;
  signal?: AbortSignal;
}

/** What a call returns, by the endpoint's `responseKind`. */
export type CallResult<E extends AnyEndpoint> = E['responseKind'] extends 'single'
  ? ResOf<E>
  : E['responseKind'] extends 'list' | 'meta-list'
    ? Page<ResOf<E>>
    : E['responseKind'] extends 'array'
      ? ResOf<E>[]
      : E['responseKind'] extends 'empty'
        ? void
        : ResOf<E>;

/** One item of a list endpoint. */
export type ItemOf<E extends AnyEndpoint> = ResOf<E>;

/**
 * The door every typed resource method goes through. `ApiClient` implements it over HTTP; tests may
 * implement it in memory. `call` validates the body against the endpoint's schema before anything
 * is sent (a bad body throws `InvalidInputError` naming the field) and parses the answer.
 */
export interface Caller {
  call<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E>): Promise<CallResult<E>>;
  /** Every item of a list endpoint, following `links.next` (or page numbers for `meta-list`) to the end. */
  paginate<E extends AnyEndpoint>(endpoint: E, input?: CallInput<E>): AsyncIterable<ItemOf<E>>;
}
