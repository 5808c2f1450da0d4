import { z } from 'zod';
import { defineEndpoint, type EndpointDef, type ResponseKind } from '../endpoint';

/** The `{name}` placeholders of a path template, as a union of literal names. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;

/** Names of the `{name}` placeholders of a path template, in order. */
export function pathParams<const P extends string>(path: P): PathParams<P>[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as PathParams<P>);
}

/** What `endpoint()` needs: the definition without what it derives (params) or defaults (auth, shown, status, errors). */
export type EndpointSpec<Id extends string, Path extends string, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType, K extends ResponseKind> = Omit<
  EndpointDef<Id, PathParams<Path>, Q, B, R, K>,
  'params' | 'path' | 'auth' | 'shown' | 'successStatus' | 'errors'
> & {
  path: Path;
  auth?: EndpointDef['auth'];
  shown?: boolean;
  successStatus?: EndpointDef['successStatus'];
  errors?: readonly number[];
};

/**
 * `defineEndpoint` with the params taken from the path and the usual defaults: bearer auth, shown
 * by the spec, 204 for empty answers, 201 for creates (the spec states 201 for achievements and
 * awards; we answer creates alike) and 200 otherwise, no documented errors. An endpoint without
 * `query` or `body` types them as `never`, so a typed call cannot send one.
 */
export function endpoint<
  const Id extends string,
  const Path extends string,
  Q extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
  R extends z.ZodType = z.ZodType,
  const K extends ResponseKind = ResponseKind,
>(spec: EndpointSpec<Id, Path, Q, B, R, K>): EndpointDef<Id, PathParams<Path>, Q, B, R, K> {
  return defineEndpoint<Id, PathParams<Path>, Q, B, R, K>({
    auth: 'bearer',
    shown: true,
    successStatus: spec.responseKind === 'empty' ? 204 : spec.creates ? 201 : 200,
    errors: [],
    ...spec,
    params: pathParams(spec.path),
  });
}

/** The `response` of an endpoint that answers 204 with no body. */
export const NoContentSchema = z.undefined();
