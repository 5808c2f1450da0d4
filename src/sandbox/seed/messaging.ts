import type { SandboxContext } from '../context';
import { MESSAGING_KIND } from '../routes/messaging/messaging-records';

/** The demo's two chat rooms (the API has no chat list: `GET /_sandbox/chats` shows them). */
export function seedMessaging(ctx: SandboxContext): void {
  for (const name of ['General', 'Ops alerts']) ctx.db.insert(MESSAGING_KIND.chats, { name, created_at: ctx.now() });
}
