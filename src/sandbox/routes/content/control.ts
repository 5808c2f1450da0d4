import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { notFound } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { KIND, type UserRecord } from '../../state/records';
import { createAnnouncement, serializeAnnouncement } from './announcements';
import { confirmAnnouncement, serializeConfirmation } from './confirmations';
import { CONTENT_KIND, type AnnouncementRecord } from './records';

const ConfirmBodySchema = z.object({ user_id: z.number().int().positive() });

/** The API cannot create confirmable announcements (spec: Announcements, create body); the admin interface can. */
const ControlAnnouncementSchema = z.strictObject({
  title: z.string().trim().min(1, { error: 'title is required' }),
  body: z.string().trim().min(1, { error: 'body is required' }),
  groups: z.array(z.number().int().positive()).default([]),
  is_confirmable: z.boolean().default(true),
  is_published: z.boolean().default(true),
});

/**
 * Employee and admin actions on announcements: `POST /_sandbox/announcements` (as in the admin
 * interface) and `POST /_sandbox/announcements/:id/confirm {user_id}` (an employee confirms:
 * 201 with a new confirmation, 200 with the existing one).
 */
export function registerContentControl(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/_sandbox/announcements', async (request, reply) => {
    const fields = validate(ControlAnnouncementSchema, request.body);
    const admin = ctx.db.find<UserRecord & { id: number }>(KIND.users, (u) => u.kind === 'default' && u.status === 'registered');
    const record = createAnnouncement(ctx, fields, admin?.id ?? 1);
    return reply.code(201).send({ data: serializeAnnouncement(ctx, record) });
  });

  app.post('/_sandbox/announcements/:id/confirm', async (request, reply) => {
    const { id } = request.params as { id: string };
    const announcement = ctx.db.get<AnnouncementRecord>(CONTENT_KIND.announcements, idParam(id));
    if (!announcement) throw notFound();
    const { user_id } = validate(ConfirmBodySchema, request.body);
    const result = confirmAnnouncement(ctx, announcement, user_id);
    return reply.code(result.created ? 201 : 200).send({ data: serializeConfirmation(ctx, result.confirmation) });
  });
}
