import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SandboxContext } from '../../context';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { KIND, type UserRecord } from '../../state/records';
import { findCompletable } from '../content/learning-records';
import { recordCompletion } from './automatic';
import { isAwardableEmployee } from './awards';
import { serializeAward } from './serialize';

const CompleteSchema = z.strictObject({
  completable_type: z.enum(['handbook', 'course', 'journey'], { error: 'completable_type must be one of handbook, course, journey' }),
  completable_id: z.number().int().positive(),
});

/**
 * `POST /_sandbox/users/:id/complete {completable_type, completable_id}`: an employee completes a
 * handbook, course or journey; matching published completion achievements award them (and fire
 * `achievement.awarded`). Answers the completion and the awards it earned.
 */
export function registerAchievementControl(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/_sandbox/users/:id/complete', async (request) => {
    const userId = idParam((request.params as { id: string }).id);
    const user = ctx.db.get<UserRecord & { id: number }>(KIND.users, userId);
    if (!user) throw notFound();
    if (!isAwardableEmployee(user)) throw validationError('user_id', `user ${userId} is not a registered employee`);
    const body = validate(CompleteSchema, request.body);
    if (!findCompletable(ctx.db, body.completable_type, body.completable_id)) {
      throw validationError('completable_id', `${body.completable_type} ${body.completable_id} does not exist`);
    }
    const outcome = recordCompletion(ctx, user, body.completable_type, body.completable_id);
    return {
      data: {
        completion: { ...body, user_id: user.id, completed_at: ctx.iso(outcome.completion.completed_at) },
        awards: outcome.awards.map((w) => serializeAward(ctx, w, { user: true, achievement: true })),
      },
    };
  });
}
