import { z } from 'zod';
import { IdSchema, oneOfKeys } from './manifest-parts';

/** spec: Incoming webhooks, the four actions. */
export const IncomingActionSchema = z.enum(['wall_post', 'chat_message', 'direct_message', 'calendar_entry']);

/** Which id each incoming-webhook action is bound to (our choice; the spec does not show it). */
const ACTION_BINDING = {
  wall_post: 'wall_id',
  chat_message: 'chat_id',
  direct_message: 'user_id',
  calendar_entry: undefined,
} as const;

/**
 * An incoming webhook the runtime creates through the management API for this bot:
 * `incoming: { action, wall_id | chat_id | user_id }`.
 */
export const IncomingBindingSchema = z
  .strictObject({
    action: IncomingActionSchema,
    wall_id: IdSchema.optional(),
    chat_id: IdSchema.optional(),
    user_id: IdSchema.optional(),
  })
  .superRefine((binding, ctx) => {
    const needed = ACTION_BINDING[binding.action];
    for (const key of ['wall_id', 'chat_id', 'user_id'] as const) {
      if (key === needed && binding[key] === undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${binding.action} needs ${key}` });
      } else if (key !== needed && binding[key] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [key], message: `${binding.action} does not take ${key}` });
      }
    }
  });

/**
 * Where a bot sends, by a name of its choosing (`ctx.post('team', ...)`):
 * - `{ wall: 3 }` or `{ wall: "Engineering" }`: a wall by id or by name, resolved per tenant,
 *   posted to through the API as the bot user;
 * - `{ incoming_webhook: "https://.../incoming/<token>" }`: an incoming webhook URL from
 *   configuration (a secret: it carries the token);
 * - `{ incoming: { action, wall_id | chat_id | user_id } }`: an incoming webhook the runtime creates
 *   and keeps through the management API;
 * - `{ chat: 12 }`: shorthand for `{ incoming: { action: chat_message, chat_id: 12 } }`, since chat
 *   rooms are reachable only through incoming webhooks.
 */
/**
 * What the outbox does when a write to this target may or may not have arrived (a timeout after
 * sending): `resend` (default; at least once) or `drop` (at most once). Posts and comments on walls are
 * read back before any resend, so this matters for what cannot be read back: chat and direct
 * messages and other incoming-webhook messages.
 */
export const OnUncertainSchema = z.enum(['resend', 'drop']);
const uncertain = { on_uncertain: OnUncertainSchema.optional() };

export const TargetSchema = oneOfKeys(
  {
    wall: z.strictObject({ wall: z.union([IdSchema, z.string().min(1)]), ...uncertain }),
    incoming_webhook: z.strictObject({ incoming_webhook: z.url({ protocol: /^https?$/ }), ...uncertain }),
    incoming: z.strictObject({ incoming: IncomingBindingSchema, ...uncertain }),
    chat: z
      .strictObject({ chat: IdSchema, ...uncertain })
      .transform(({ chat, on_uncertain }) => ({ incoming: { action: 'chat_message' as const, chat_id: chat }, ...(on_uncertain ? { on_uncertain } : {}) })),
  },
  'a target',
);

export type Target = z.output<typeof TargetSchema>;
