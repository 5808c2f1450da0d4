import { z } from 'zod';
import { defineLocal, type HandlerInput, type Middleware } from './middleware';
import { RUN_SENDS } from './run-sends';

/** One run of a bot's code, as the audit log keeps it: who set it off, what ran, where, and what the bot did. */
export const AuditRecordSchema = z.object({
  at: z.number(),
  tenant: z.string(),
  bot: z.string(),
  /** `command`, `event`, `job`, `report`, `help`, `unknown`, a conversation's `answer`, `reask`, `not-asked`, `timeout`, or an `alert` message. */
  kind: z.string(),
  /** What ran, as the delivery log names it (`/deploy`, `on.post.created`, `job digest`). */
  what: z.string(),
  /** The employee who wrote the command or caused the event; absent for jobs and reports. */
  who: z.object({ id: z.number(), name: z.string() }).optional(),
  /** Where it happened (`post 7 on wall 3`), when it happened somewhere. */
  where: z.string().optional(),
  /** What the bot queued, in order (`post to wall 3`, `comment to post 7 (held until ...)`). */
  did: z.array(z.string()),
  outcome: z.enum(['done', 'failed']),
  /** The error of a failed run (its message only). */
  error: z.string().optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

/** Where audit records go: the runtime's trail in the store, or `testBot`'s list. */
export interface AuditWriter {
  record(entry: AuditRecord): Promise<void>;
}

/** The writer the runtime hands every run (through `ctx.locals`); `auditLog` writes to it. */
export const AUDIT_TRAIL = defineLocal<AuditWriter>('intrabot.auditTrail');

/**
 * An audit log of what the bot does: one record per run (command, event, job, report, alert message) with who set it
 * off, what ran, where, what the bot queued and whether it failed, kept in the store
 * (`intrabot deliveries --audit`, `GET /_admin/deliveries?state=audit`, the console). A failed run is
 * recorded and its error passed on.
 *
 * @example
 * export default defineBot({ use: [auditLog()], commands: { deploy } });
 */
export function auditLog(): Middleware {
  return async (input, ctx, next) => {
    let error: unknown;
    try {
      await next();
    } catch (caught) {
      error = caught;
      throw caught;
    } finally {
      const record: AuditRecord = {
        at: ctx.now(),
        tenant: ctx.tenant.id,
        bot: ctx.bot.name,
        kind: input.kind,
        what: input.what,
        ...whoAndWhere(input),
        did: (RUN_SENDS.get(ctx) ?? []).map(
          (s) => `${s.kind} to ${s.to}${s.heldUntil === undefined ? '' : ` (held until ${new Date(s.heldUntil).toISOString()})`}`,
        ),
        outcome: error === undefined ? 'done' : 'failed',
        ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
      };
      const trail = AUDIT_TRAIL.get(ctx);
      if (trail) await trail.record(record);
      else ctx.log.info(`audit: ${record.what}`, record);
    }
  };
}

function whoAndWhere(input: HandlerInput): Pick<AuditRecord, 'who' | 'where'> {
  if (input.kind === 'command') {
    const { user, source } = input.command;
    return { who: { id: user.id, name: user.name }, where: `post ${source.postId} on wall ${source.wallId}` };
  }
  if (input.kind === 'answer' || input.kind === 'timeout') {
    const who = input.user.name !== undefined ? { who: { id: input.user.id, name: input.user.name } } : {};
    return { ...who, where: `post ${input.postId}` };
  }
  if (input.kind === 'alert') return { where: input.alert.replyTo === undefined ? `target ${input.alert.target}` : `post ${input.alert.replyTo}` };
  if (input.kind !== 'event') return {};
  const payload = input.event.payload as { id?: unknown; post_id?: unknown; wall_id?: unknown; author?: { id?: unknown; name?: unknown } | null };
  const author = payload.author;
  const who = typeof author?.id === 'number' && typeof author.name === 'string' ? { who: { id: author.id, name: author.name } } : {};
  const post = typeof payload.post_id === 'number' ? payload.post_id : input.event.name.startsWith('post.') ? payload.id : undefined;
  const wall = typeof payload.wall_id === 'number' ? ` on wall ${payload.wall_id}` : '';
  return { ...who, ...(typeof post === 'number' ? { where: `post ${post}${wall}` } : {}) };
}
