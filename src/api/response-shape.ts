import { z } from 'zod';
import { describeIssues } from '../validation';
import { ApiBadResponseError, type RequestContext } from './errors';
import type { PageBody } from './pagination';
import type { AnyEndpoint } from './schemas/endpoint';

/**
 * The shape of a successful answer by `responseKind` (spec: Resources and their fields: single
 * resources are `{ data }`, lists `{ data, links, meta }`). Envelopes keep unknown keys: the
 * platform may add fields within v1 (spec: Versioning).
 */
const LinksSchema = z.looseObject({ next: z.string().nullable().optional() }).nullable().optional();
const MetaSchema = z.record(z.string(), z.unknown()).nullable().optional();

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item), links: LinksSchema, meta: MetaSchema });
}

function envelopeSchema(endpoint: AnyEndpoint): z.ZodType | undefined {
  switch (endpoint.responseKind) {
    case 'single':
      return z.looseObject({ data: endpoint.response });
    case 'list':
    case 'meta-list':
      return pageSchema(endpoint.response);
    case 'array':
      return z.looseObject({ data: z.array(endpoint.response) });
    case 'raw':
      return endpoint.response;
    case 'empty':
      return undefined;
  }
}

/** Parses `body` with `schema`, or throws `api_bad_response` naming the field (`response.data.id`). */
export function parseResponse<S extends z.ZodType>(schema: S, body: unknown, context: RequestContext): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const { field, message } = describeIssues(result.error, 'response');
  throw new ApiBadResponseError(context, field, `unexpected answer: ${message}`);
}

/** The value `call` returns for `endpoint`: the `data` of a single, the page of a list, ... */
export function parseAnswer(endpoint: AnyEndpoint, body: unknown, context: RequestContext): unknown {
  const schema = envelopeSchema(endpoint);
  if (!schema) return undefined;
  const parsed = parseResponse(schema, body, context) as { data?: unknown };
  if (endpoint.responseKind === 'single' || endpoint.responseKind === 'array') return parsed.data;
  return parsed;
}

/** One page of a list endpoint, items validated by the endpoint's item schema. */
export function parsePage(endpoint: AnyEndpoint, body: unknown, context: RequestContext): PageBody<unknown> {
  if (endpoint.responseKind === 'array') {
    const parsed = parseResponse(z.looseObject({ data: z.array(endpoint.response) }), body, context);
    return { data: parsed.data, links: { next: null } };
  }
  return parseResponse(pageSchema(endpoint.response), body, context);
}
