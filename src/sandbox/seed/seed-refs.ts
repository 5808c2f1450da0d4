import { z } from 'zod';
import type { SandboxContext } from '../context';
import { MESSAGING_KIND } from '../routes/messaging/messaging-records';
import { achievementRefs, AchievementSeedRefsSchema } from './achievements';
import { directoryRefs, DirectorySeedRefsSchema } from './directory-refs';

/**
 * The named ids of a seeded sandbox, as `GET /_sandbox/refs` serves them to tests (`pair.refs()`): the
 * directory's (employees, managers, departments and other groups, walls), the chat rooms by name and the
 * demo achievements. Ids are deterministic for a seed; a test names "an employee" or "the Operations
 * wall" through them instead of hard-coding numbers.
 */
export const SeedRefsSchema = DirectorySeedRefsSchema.extend({
  /** The chat rooms by name (`General`, `Ops alerts`): the API has no chat list. */
  chats: z.record(z.string(), z.number().int().positive()),
  /** The demo achievements: a published public custom one, employee of the month, a draft... */
  achievements: AchievementSeedRefsSchema,
});
export type SeedRefs = z.infer<typeof SeedRefsSchema>;

/** The refs of the current seed, or undefined when it has none (the `empty` seed). */
export function seedRefs(ctx: SandboxContext): SeedRefs | undefined {
  const directory = directoryRefs(ctx);
  const achievements = achievementRefs(ctx);
  if (!directory || !achievements) return undefined;
  const chats = Object.fromEntries(ctx.db.all<{ id: number; name: string }>(MESSAGING_KIND.chats).map((chat) => [chat.name, chat.id]));
  return { ...directory, chats, achievements };
}
