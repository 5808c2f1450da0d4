import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { IntrabotError } from '../errors';

/** What the proxy forwards as the request body. */
export type ForwardBody =
  | { kind: 'none' }
  /** Read whole (JSON and anything not multipart): `json` is set when it parsed, for scope checks. */
  | { kind: 'buffered'; data: Buffer; contentType: string; json?: unknown }
  /** Multipart uploads: the caller's bytes flow to the platform as they arrive. */
  | { kind: 'stream'; stream: Readable; contentType: string };

/** True when the request announces a body (a length above zero, or chunked). */
export function hasBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/**
 * Takes the request body as the proxy forwards it: multipart streamed (uploads may be 100 MB,
 * spec: Limits, Upload size), anything else buffered up to `limit` bytes and, when it is JSON,
 * parsed so that scopes that depend on the body can be checked (spec: Posts, `media_ids`).
 */
export async function readBody(stream: Readable, headers: IncomingHttpHeaders, limit: number): Promise<ForwardBody> {
  if (!hasBody(headers)) return { kind: 'none' };
  const contentType = headers['content-type'] ?? 'application/octet-stream';
  if (/^multipart\//i.test(contentType)) return { kind: 'stream', stream, contentType };
  const data = await collect(stream, limit);
  const json = /^application\/([\w.+-]+\+)?json\b/i.test(contentType) ? parseJson(data) : undefined;
  return json === undefined ? { kind: 'buffered', data, contentType } : { kind: 'buffered', data, contentType, json };
}

/** Reads the whole body; past `limit`, the rest is discarded (not destroyed: the 413 must still reach the caller). */
function collect(stream: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string): void => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size <= limit) return void chunks.push(buffer);
      stream.off('data', onData).off('end', onEnd).off('error', reject);
      stream.resume();
      reject(new IntrabotError('payload_too_large', `the request body is larger than ${limit} bytes (multipart uploads are streamed and have no such limit)`));
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks));
    stream.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

function parseJson(data: Buffer): unknown {
  try {
    return JSON.parse(data.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
