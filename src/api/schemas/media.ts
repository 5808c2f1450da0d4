import { z } from 'zod';
import { DateTimeSchema, IdSchema, MediaTypeSchema } from './common';

/** spec: Media */
export const MediaSchema = z.looseObject({
  id: IdSchema,
  type: MediaTypeSchema,
  mime_type: z.string(),
  filename: z.string(),
  size: z.int(),
  url: z.string(),
  width: z.int().nullable().optional(),
  height: z.int().nullable().optional(),
  created_at: DateTimeSchema,
});
export type Media = z.infer<typeof MediaSchema>;

/**
 * The multipart fields of POST /media (spec: Media): `media` (the file) and `type`. The file is a
 * Blob in a FormData; this schema checks the fields as a plain object (the sandbox parses the
 * multipart body into one).
 */
export const MediaUploadSchema = z.strictObject({
  media: z.instanceof(Blob, { error: 'media (the file) is required' }),
  type: z.enum(['image', 'video', 'document'], { error: 'type must be one of image, video, document' }),
});
export type MediaUpload = z.input<typeof MediaUploadSchema>;

/** POST /users/{id}/avatar: multipart field `media` (spec: Other endpoints that exist). */
export const AvatarUploadSchema = z.strictObject({
  media: z.instanceof(Blob, { error: 'media (the image file) is required' }),
});
export type AvatarUpload = z.input<typeof AvatarUploadSchema>;
