import type { GalleryKind, MediaRecord } from './records';

/**
 * spec: Posts, create body — "A single-type batch is stored as an image, video or file gallery; a mix,
 * or more than one video, as a mixed gallery." No media, no gallery.
 */
export function galleryKind(media: Pick<MediaRecord, 'type'>[]): GalleryKind | null {
  if (media.length === 0) return null;
  const types = new Set(media.map((m) => m.type));
  const videos = media.filter((m) => m.type === 'video').length;
  if (types.size > 1 || videos > 1) return 'mixed';
  const [only] = types;
  return only === 'image' ? 'image' : only === 'video' ? 'video' : 'file';
}
