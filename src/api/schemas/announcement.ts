import { z } from 'zod';
import { DateSchema, DateTimeSchema, GroupIdsInputSchema, IdInputSchema, IdSchema, optionalText, requiredText } from './common';
import { EmbeddedGroupSchema } from './group';
import { EmbeddedUserSchema } from './user';
import { refuseBodyWithArticle, requireBodyXorArticle } from './article-content';

/** spec: Announcement */
export const AnnouncementSchema = z.looseObject({
  id: IdSchema,
  article_id: IdSchema.nullable(),
  title: z.string(),
  subtitle: z.string().nullable(),
  body: z.string(),
  author: EmbeddedUserSchema,
  groups: z.array(EmbeddedGroupSchema),
  is_published: z.boolean(),
  is_commentable: z.boolean(),
  is_confirmable: z.boolean(),
  is_pinned: z.boolean(),
  comments_count: z.int(),
  completions_count: z.int(),
  confirmations_count: z.int(),
  // spec: a date; null tolerated: hosts have answered null (issue #12)
  starts_at: DateSchema.nullable(),
  published_at: DateTimeSchema.nullable(),
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

const announcementFields = {
  title: requiredText('title'),
  body: requiredText('body').optional(),
  subtitle: optionalText('subtitle'),
  groups: GroupIdsInputSchema.optional(),
  article_id: IdInputSchema.optional(),
};

/** POST /announcements body (spec: Announcements): `is_published` defaults to true. */
export const AnnouncementCreateSchema = z
  .strictObject({ ...announcementFields, is_published: z.boolean({ error: 'is_published must be a boolean' }).default(true) })
  .superRefine(requireBodyXorArticle);
export type AnnouncementCreate = z.input<typeof AnnouncementCreateSchema>;

/** PUT /announcements/{id} body: all fields optional, only sent fields change (spec: Announcements). */
export const AnnouncementUpdateSchema = z
  .strictObject({
    ...announcementFields,
    title: announcementFields.title.optional(),
    is_published: z.boolean({ error: 'is_published must be a boolean' }).optional(),
  })
  .superRefine(refuseBodyWithArticle);
export type AnnouncementUpdate = z.input<typeof AnnouncementUpdateSchema>;
