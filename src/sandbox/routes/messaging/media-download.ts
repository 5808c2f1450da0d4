import { request } from 'undici';
import type { IncomingMediaItem } from '../../../api/schemas/incoming-webhook';
import { validationError } from '../../http/sandbox-error';
import type { StoredMedia } from './messaging-records';

/** spec: Limits — "Incoming media download timeout: 15 seconds per URL". */
export const MEDIA_DOWNLOAD_TIMEOUT_MS = 15_000;

export interface DownloadedMedia extends StoredMedia {
  bytes: Buffer;
}

async function downloadOne(item: IncomingMediaItem, index: number, timeoutMs: number): Promise<DownloadedMedia> {
  let reason: string;
  try {
    const response = await request(item.url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    if (response.statusCode >= 200 && response.statusCode < 300) {
      const bytes = Buffer.from(await response.body.arrayBuffer());
      const header = response.headers['content-type'];
      const mime = (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim() || 'application/octet-stream';
      return { url: item.url, type: item.type, mime_type: mime, size: bytes.length, bytes };
    }
    await response.body.dump();
    reason = `the server answered ${response.statusCode}`;
  } catch (error) {
    reason =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
        ? `no answer within ${timeoutMs / 1000} s`
        : 'the URL could not be reached';
  }
  throw validationError(`media.${index}.url`, `could not download ${item.url}: ${reason}`);
}

/**
 * spec: Incoming webhooks — "the server downloads each URL (must be publicly reachable; per-URL
 * download timeout 15 seconds; a failed download gives 422 with a descriptive error)". The sandbox
 * also downloads from loopback URLs, so tests and local tools can serve media (a documented deviation).
 * Downloads run side by side; the first failure in list order is the one reported.
 */
export async function downloadMedia(items: readonly IncomingMediaItem[], timeoutMs = MEDIA_DOWNLOAD_TIMEOUT_MS): Promise<DownloadedMedia[]> {
  const results = await Promise.allSettled(items.map((item, i) => downloadOne(item, i, timeoutMs)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<DownloadedMedia>).value);
}

/** What a message keeps of a download (not the bytes). */
export function storedMedia(media: DownloadedMedia[]): StoredMedia[] {
  return media.map(({ url, type, mime_type, size }) => ({ url, type, mime_type, size }));
}
