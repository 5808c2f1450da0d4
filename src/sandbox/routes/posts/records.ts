import { z } from 'zod';

/** The record kinds of the posts module. */
export const POSTS_KIND = { posts: 'posts', comments: 'comments', media: 'media' } as const;

/** spec: Posts, create body — a single-type batch is an image, video or file gallery; a mix or several videos a mixed one. */
export const GalleryKindSchema = z.enum(['image', 'video', 'file', 'mixed']);
export type GalleryKind = z.infer<typeof GalleryKindSchema>;

export const PostRecordSchema = z.object({
  id: z.number().int(),
  wall_id: z.number().int(),
  body: z.string(),
  author_id: z.number().int(),
  media_ids: z.array(z.number().int()),
  gallery: z.object({ kind: GalleryKindSchema, media_ids: z.array(z.number().int()) }).nullable(),
  /**
   * spec: Wall post visibility — API posts are published at once; an employee's post scheduled for
   * later is `scheduled` (invisible, 404) until the clock reaches `scheduled_at`.
   */
  status: z.enum(['published', 'draft', 'scheduled']),
  scheduled_at: z.number().nullable(),
  /** Who made it: through the API (a token) or by an employee (control API). */
  origin: z.enum(['api', 'employee']),
  created_at: z.number(),
  updated_at: z.number(),
});
export type PostRecord = z.infer<typeof PostRecordSchema>;

export const CommentRecordSchema = z.object({
  id: z.number().int(),
  post_id: z.number().int(),
  wall_id: z.number().int(),
  body: z.string(),
  author_id: z.number().int(),
  /** Who made it: through the API (a token) or by an employee (control API); absent on comments stored before it was kept. */
  origin: z.enum(['api', 'employee']).optional(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type CommentRecord = z.infer<typeof CommentRecordSchema>;

export const MediaRecordSchema = z.object({
  id: z.number().int(),
  type: z.enum(['image', 'video', 'document']),
  mime_type: z.string(),
  filename: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** The file's bytes, base64; served by `GET /_sandbox/media/{id}/{filename}`, never in API answers. */
  data_base64: z.string(),
  created_at: z.number(),
});
export type MediaRecord = z.infer<typeof MediaRecordSchema>;
