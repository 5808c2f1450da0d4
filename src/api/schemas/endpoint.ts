import type { z } from 'zod';

/**
 * One endpoint of the platform API, described once. The typed client, the sandbox's routing and
 * scope checks, the proxy's scope map and the OpenAPI document all derive from these definitions:
 * a shape chosen where the spec shows none is chosen here, once, and marked `shown: false`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How a successful answer is shaped:
 * - `single`: `{ data: <response> }`
 * - `list`: the paginated envelope `{ data: [item], links, meta }` (follow `links.next`)
 * - `meta-list`: `{ data: [item], meta }` where `links` may be missing (award lists: iterate by page)
 * - `array`: `{ data: [item] }`, not paginated (GET /users/{id}/achievements)
 * - `empty`: 204 with no body
 * - `raw`: a body whose shape is `response` itself, without a `data` wrapper
 */
export type ResponseKind = 'single' | 'list' | 'meta-list' | 'array' | 'empty' | 'raw';

export interface EndpointDef<
  Id extends string = string,
  Params extends string = string,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
  Kind extends ResponseKind = ResponseKind,
> {
  /** Stable id, `<resource>.<action>`: `posts.create`, `achievements.award`. */
  id: Id;
  method: HttpMethod;
  /** Path template relative to `/api/open/v1`, with `{name}` placeholders: `/walls/{wall_id}/posts`. */
  path: string;
  /** Names of the path placeholders, in order. */
  params: readonly Params[];
  /** The scope the token needs; `null` for "any valid token" (GET /token, POST /feedback). */
  scope: string | null;
  /**
   * Scopes needed only in some cases, e.g. `write:media` when a post carries `media_ids`. `field`,
   * when set, makes the case checkable: the scope is needed when the JSON body has that field
   * with a non-empty value.
   */
  conditionalScopes?: readonly { scope: string; when: string; field?: string }[];
  /** `bearer` for the token header; `url-token` for incoming webhooks (token in the path, no bearer). */
  auth: 'bearer' | 'url-token';
  /** The spec section this endpoint is documented in, e.g. `Posts`, `Other endpoints that exist`. */
  section: string;
  summary: string;
  /** False when the spec shows no shape for the request or response (our choice, `// spec: not shown`). */
  shown: boolean;
  query?: Query;
  /** Request body schema (JSON), validated before anything is sent. */
  body?: Body;
  /** True for multipart/form-data bodies (media upload, avatar). */
  multipart?: boolean;
  responseKind: Kind;
  /** The schema of `data` (for `single`), of one item (for the list kinds), or of the whole body (`raw`). */
  response: Res;
  /** The success status: 200, 201 or 204. */
  successStatus: 200 | 201 | 204;
  /** Error statuses the spec documents for this endpoint (401/403/429 are implied for bearer routes). */
  errors: readonly number[];
  /** True for list endpoints that accept `status` = published | draft | all. */
  statusFilter?: boolean;
  /** Creates something: a retry after an unknown outcome could duplicate it (see UncertainWriteError). */
  creates?: boolean;
}

export type AnyEndpoint = EndpointDef<string, string, z.ZodType, z.ZodType, z.ZodType, ResponseKind>;

/** Identity function that keeps the literal types of a definition (ids, params). */
export function defineEndpoint<
  const Id extends string,
  const Params extends string,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
  const Kind extends ResponseKind = ResponseKind,
>(def: EndpointDef<Id, Params, Query, Body, Res, Kind>): EndpointDef<Id, Params, Query, Body, Res, Kind> {
  return def;
}

/** Fills `{name}` placeholders, URL-encoding each value. Throws naming the missing parameter. */
export function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new TypeError(`path parameter ${name} is required for ${template}`);
    return encodeURIComponent(String(value));
  });
}
