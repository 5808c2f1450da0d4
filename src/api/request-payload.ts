import { InvalidInputError } from '../errors';
import { apiPathProblem } from './api-path';
import { parseOrThrow } from '../validation';
import type { CallInput } from './caller';
import { fillPath, type AnyEndpoint } from './schemas/endpoint';
import type { WireBody } from './transport';

/** What goes on the wire as the body of a request, and its content type when we set one. */
export interface Payload {
  body?: WireBody | undefined;
  contentType?: string | undefined;
}

/** Fills the path template; a missing parameter is bad input naming `params.<name>`. */
export function endpointPath(endpoint: AnyEndpoint, params: unknown): string {
  const values = (params ?? {}) as Record<string, string | number>;
  for (const name of endpoint.params) {
    const value = values[name];
    if (value === undefined || value === '') throw new InvalidInputError(`params.${name}`, `params.${name}: required for ${endpoint.path}`);
    // a value from an event or a configured URL may not turn into `..` (the parser would resolve it)
    const problem = apiPathProblem(`/${encodeURIComponent(String(value))}`);
    if (problem !== undefined) throw new InvalidInputError(`params.${name}`, `params.${name}: ${problem}`);
  }
  return fillPath(endpoint.path, values);
}

/** The body to send, validated before anything touches the network. */
export function requestPayload(endpoint: AnyEndpoint, input: CallInput<AnyEndpoint>): Payload {
  if (endpoint.multipart) {
    if (!input.form) throw new InvalidInputError('form', `form: ${endpoint.id} takes multipart form data`);
    if (endpoint.body) parseOrThrow(endpoint.body, formFields(input.form), 'form');
    return { body: input.form };
  }
  const body = endpoint.body ? parseOrThrow(endpoint.body, input.body, 'body') : input.body;
  return body === undefined ? {} : { body: JSON.stringify(body), contentType: 'application/json' };
}

/** The fields of a multipart form as an object, so the endpoint's schema can check them. */
function formFields(form: FormData): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) fields[name] = value;
  return fields;
}

export function rawPayload(request: {
  body?: unknown;
  form?: WireBody | undefined;
  bytes?: { data: Buffer | string; contentType: string } | undefined;
}): Payload {
  if (request.bytes) return { body: request.bytes.data, contentType: request.bytes.contentType };
  if (request.form) return { body: request.form };
  return request.body === undefined ? {} : { body: JSON.stringify(request.body), contentType: 'application/json' };
}

/** A JSON answer parsed; text that is not JSON as is; an empty body as null. */
export function parseBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
