import type { BotContext } from 'intrabot';
import { describeUrl } from 'intrabot/helpers';

/** An image as the post takes it: the bytes, uploaded through POST /media with the post. */
export interface ItemImage {
  data: Uint8Array<ArrayBuffer>;
  filename: string;
  type: 'image';
}

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Downloads an item's image, or answers undefined (logged) when it cannot be had: an error status, a
 * timeout, something other than an image, or more than 5 MB. The item is posted without it then: an
 * image is never a reason to hold the news back.
 */
export async function itemImage(ctx: BotContext<unknown>, url: string, timeoutMs: number): Promise<ItemImage | undefined> {
  const where = describeUrl(url);
  try {
    const res = await fetch(url, { signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), ctx.signal]) });
    const type = res.headers.get('content-type') ?? '';
    if (!res.ok || !type.startsWith('image/') || Number(res.headers.get('content-length')) > MAX_IMAGE_BYTES) {
      await res.body?.cancel();
      ctx.log.warn(`image ${where} left out: ${res.ok ? `${type || 'no content type'}, not an image of at most 5 MB` : `answered ${res.status}`}`);
      return undefined;
    }
    const data = new Uint8Array(await res.arrayBuffer());
    if (data.byteLength > MAX_IMAGE_BYTES) return void ctx.log.warn(`image ${where} left out: larger than 5 MB`);
    return { data, filename: fileNameOf(url, type), type: 'image' };
  } catch (error) {
    ctx.log.warn(`image ${where} left out: ${(error as Error).message}`);
    return undefined;
  }
}

/** The image's file name: the URL's last segment, with an extension after its type when it has none. */
function fileNameOf(url: string, type: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || 'image';
  return /\.[a-z0-9]{2,5}$/i.test(last) ? last : `${last}.${type.slice('image/'.length).split(/[;+]/)[0] || 'img'}`;
}
