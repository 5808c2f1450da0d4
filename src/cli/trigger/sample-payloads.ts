import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import type { EventName } from '../../webhooks/events';
import type { EmbeddedAchievementSchema, EmbeddedAnnouncementSchema, EmbeddedUser } from '../../webhooks/payload-parts';

/**
 * The platform entities a sample payload names. In sandbox mode `intrabot trigger` looks real ones
 * up (src/cli/trigger/sandbox-refs.ts), so what a bot does with the event lands somewhere; what it
 * cannot find, and everything in connected mode, is made up.
 */
export interface TriggerRefs {
  /** An employee: the author of comments, the registered user, the award holder, the confirming employee. */
  user: EmbeddedUser;
  /** A post that replies can land under; `post.created` names it as the created post. */
  post: { id: number; wall_id: number; wall_name: string; author: EmbeddedUser };
  announcement: z.infer<typeof EmbeddedAnnouncementSchema>;
  /** A form response (and its form). */
  response: { id: number; form_id: number; status: string };
  achievement: z.infer<typeof EmbeddedAchievementSchema>;
}

export type RefName = keyof TriggerRefs;

/** The command a sample post or comment carries: every bot with commands answers it. */
export const SAMPLE_COMMAND = '/help';

const GROUP = { id: 2, name: 'Engineering', type: 'department', is_manager: false };
const ADA: EmbeddedUser = { id: 10, name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', groups: [GROUP] };

/** What stands in for an entity no real one was found for. The post has no id: a fresh one is used. */
const MADE_UP = {
  user: ADA,
  post: { wall_id: 1, wall_name: 'Company', author: ADA },
  comment_post_id: 301,
  announcement: { id: 7, title: 'New office hours', body: 'From Monday the office opens at 8.', author: ADA, is_published: true, is_confirmable: true },
  response: { form_id: 4, status: 'submitted' },
  achievement: { id: 3, title: 'Team player', emoji: '🤝', type: 'custom', visibility: 'public' },
} as const;

/** The entities each event's sample names (the event's own new id aside). */
export const REFS_USED: Readonly<Record<EventName, readonly RefName[]>> = {
  'post.created': ['post'],
  'comment.created': ['post', 'user'],
  'comment.updated': ['post', 'user'],
  'comment.deleted': ['post'],
  'announcement.published': ['announcement'],
  'announcement.confirmed': ['announcement', 'user'],
  'formresponse.created': ['response'],
  'formresponse.updated': ['response'],
  'formresponse.comment.created': ['response', 'user'],
  'formresponse.comment.deleted': ['response'],
  'formresponse.alarm_triggered': ['response'],
  'user.registered': ['user'],
  'onboarding.completed': ['user'],
  'achievement.awarded': ['user', 'achievement'],
  test: [],
};

/**
 * A plausible payload of each event (spec: Events), naming the entities in `refs` and made-up ones
 * for the rest. What the event itself creates (a comment, an award, a confirmation) gets the fresh
 * `id`: the runtime dedupes by event and entity id, so a fixed one would be handled once only.
 * `post.created` names `refs.post` when given, so replies land under a post that exists.
 *
 * @example samplePayload('comment.created', clock.now(), { post, user }).post_id === post.id
 */
export function samplePayload(event: EventName, nowMs: number, refs: Partial<TriggerRefs> = {}, id = randomInt(900_000, 1_000_000)): Record<string, unknown> {
  const at = new Date(nowMs).toISOString().replace('Z', '+00:00');
  const user = refs.user ?? MADE_UP.user;
  const post = refs.post ?? { ...MADE_UP.post, id: MADE_UP.comment_post_id };
  const announcement: TriggerRefs['announcement'] = refs.announcement ?? { ...MADE_UP.announcement, groups: [GROUP] };
  const response = refs.response ?? { ...MADE_UP.response, id };
  const comment = { id, body: SAMPLE_COMMAND, post_id: post.id, wall_id: post.wall_id, author: user, created_at: at, updated_at: at };
  const formResponse = { id: response.id, form_id: response.form_id, status: response.status, created_at: at, updated_at: at };
  const samples: Record<EventName, () => Record<string, unknown>> = {
    'post.created': () => ({
      id: refs.post?.id ?? id,
      body: SAMPLE_COMMAND,
      wall_id: post.wall_id,
      wall_name: post.wall_name,
      author: reduced(post.author),
      created_at: at,
      updated_at: at,
    }),
    'comment.created': () => comment,
    'comment.updated': () => comment,
    'comment.deleted': () => ({ id, post_id: post.id, wall_id: post.wall_id }),
    'announcement.published': () => ({ ...announcement, published_at: announcement.published_at ?? at }),
    'announcement.confirmed': () => ({ id, employee: user, announcement, confirmed_at: at, created_at: at }),
    'formresponse.created': () => formResponse,
    'formresponse.updated': () => ({ ...formResponse, deleted_at: null }),
    'formresponse.comment.created': () => ({ id, body: 'Thanks, looking into it', form_response_id: response.id, author: user, created_at: at }),
    'formresponse.comment.deleted': () => ({ id, form_response_id: response.id }),
    'formresponse.alarm_triggered': () => ({ id: response.id, form_id: response.form_id }),
    'user.registered': () => ({ ...user, groups: user.groups ?? [], registered_at: user.registered_at ?? at, created_at: user.created_at ?? at }),
    'onboarding.completed': () => ({ id: user.id, user, onboarding_completed_at: at }),
    'achievement.awarded': () => ({
      id,
      awarded_at: at,
      is_manually_added: true,
      user,
      achievement: refs.achievement ?? MADE_UP.achievement,
      created_at: at,
      updated_at: at,
    }),
    test: () => ({}),
  };
  return samples[event]();
}

/** A post's author as `post.created` carries it: `{ id, name, email }` (spec: Events). */
function reduced(user: EmbeddedUser): Record<string, unknown> {
  return { id: user.id, name: user.name, email: user.email ?? '' };
}
