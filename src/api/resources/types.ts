import type { AnyEndpoint } from '../schemas/endpoint';
import type { CallInput, Caller } from '../caller';

/** An id in a path: a number, or a string as read from a URL or a config file. */
export type Id = number | string;

/** The query an endpoint accepts (what a caller may pass, before parsing). */
export type QueryInput<E extends AnyEndpoint> = NonNullable<CallInput<E>['query']>;

/** The JSON body an endpoint accepts (what a caller may pass, before defaults and transforms). */
export type BodyInput<E extends AnyEndpoint> = NonNullable<CallInput<E>['body']>;

/** `list` (one page) and `all` (every item, following `links.next`) of a list endpoint without path parameters. */
export function listing<E extends AnyEndpoint>(caller: Caller, endpoint: E) {
  return {
    list: (query?: QueryInput<E>) => caller.call(endpoint, { query } as CallInput<E>),
    all: (query?: QueryInput<E>) => caller.paginate(endpoint, { query } as CallInput<E>),
  };
}
