import { z } from 'zod';
import { InvalidInputError } from '../../errors';

/** The fields several kinds of entry share (`src/outbox/kinds/`). */

export const TenantSchema = z.string().min(1);
export const IdSchema = z.number().int().positive();
export const TextSchema = z.string().trim().min(1, 'must not be empty');
export const BotNameSchema = z.string().min(1);

/** A file for a wall post: uploaded once through POST /media (spec: Media), its id reused on retry. */
export const PostMediaSchema = z
  .strictObject({
    type: z.enum(['image', 'video', 'document']),
    /** A local file. */
    path: z.string().min(1).optional(),
    /** A buffer stashed with `Outbox.stashMedia` (kv key). */
    blobRef: z.string().min(1).optional(),
    /** The stored name; defaults to the file's name for a path. */
    filename: z.string().min(1).optional(),
  })
  .refine((m) => (m.path === undefined) !== (m.blobRef === undefined), { error: 'a post media item needs exactly one of path or blobRef' })
  .refine((m) => m.path !== undefined || m.filename !== undefined, { error: 'filename is required with blobRef', path: ['filename'] });
export type PostMedia = z.infer<typeof PostMediaSchema>;

/**
 * The bot user a post or direct message is sent as (undefined: a post of the token's user). An entry
 * that names its bot without the bot user is never sent: it would appear as the token's user.
 */
export function sendingBotUser(entry: { bot?: string | undefined; botUserId?: number | undefined }): number | undefined {
  if (entry.botUserId !== undefined || entry.bot === undefined) return entry.botUserId;
  throw new InvalidInputError('entry.botUserId', `entry.botUserId: the bot user of ${entry.bot} was never filled in`);
}
