import type { FastifyReply } from 'fastify';
import type { RawRequest, RawResponse } from '../api/client';
import type { ForwardBody } from './read-body';
import { budgetHeaders, passThroughHeaders, type ShareView } from './response-headers';
import { rewriteLinks } from './rewrite-links';

/** What the proxy needs of a tenant's API client (`ApiClient` fits). */
export interface ProxyClient {
  /** The platform's API root, `{base_url}/api/open/v1`. */
  readonly root: URL;
  request(request: RawRequest): Promise<RawResponse>;
}

/**
 * The client request that forwards a caller's request: the caller's bytes as they are, one attempt
 * (the caller decides about retries, as it would talking to the platform), statuses returned rather
 * than thrown.
 *
 * A multipart stream goes in `bytes.data`: `RawRequest` types it as a Buffer or string, but the
 * transport underneath (`WireBody`) takes a Readable and undici streams it, so the upload is never
 * held whole in memory.
 */
export function forwardRequest(method: string, path: string, body: ForwardBody, signal: AbortSignal): RawRequest {
  const request: RawRequest = { method, path, signal, retry: 'never', httpErrors: 'return' };
  if (body.kind === 'buffered') request.bytes = { data: body.data, contentType: body.contentType };
  if (body.kind === 'stream') request.bytes = { data: body.stream as unknown as Buffer, contentType: body.contentType };
  return request;
}

export interface ReplyInput {
  answer: RawResponse;
  platformRoot: string;
  proxyRoot: string;
  share: ShareView | undefined;
}

/** Sends the platform's answer on: its status, headers (minus hop-by-hop) and body, links rewritten. */
export function sendAnswer(reply: FastifyReply, input: ReplyInput): FastifyReply {
  const { answer } = input;
  const headers = { ...passThroughHeaders(answer.headers), ...budgetHeaders(answer.headers, input.share) };
  void reply.code(answer.status).headers(headers);
  if (answer.body === null || answer.body === undefined) return reply.send();
  if (typeof answer.body === 'string') return reply.send(answer.body);
  if (!headers['content-type']) void reply.header('content-type', 'application/json; charset=utf-8');
  return reply.send(JSON.stringify(rewriteLinks(answer.body, input.platformRoot, input.proxyRoot)));
}
