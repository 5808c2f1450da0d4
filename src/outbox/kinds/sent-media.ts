/** An attachment as `testBot` records it: a file's path, stashed bytes by file name, or a URL the platform downloads. */
export interface SentMedia {
  type: 'image' | 'video' | 'document';
  path?: string;
  filename?: string;
  url?: string;
}

/** A recorded send with its attachments, when it has some (a stashed file's ref stays out: the test knows it by name). */
export function withMedia<T extends object>(sent: T, media: readonly object[] | undefined): T {
  if (!media?.length) return sent;
  const out = media.map((item) => {
    const { type, path, filename, url } = item as SentMedia & { blobRef?: string };
    return { type, ...(path ? { path } : {}), ...(filename ? { filename } : {}), ...(url ? { url } : {}) };
  });
  return { ...sent, media: out };
}
