import type { SandboxContext } from '../context';
import { DELIVERY_KIND, type DeliveryAttemptRecord } from '../delivery/records';
import { isApiVisible, publishDuePosts } from '../routes/posts/publish';
import { POSTS_KIND, type CommentRecord, type PostRecord } from '../routes/posts/records';
import { newestFirst } from '../routes/posts/wall-posts';
import { MESSAGING_KIND, type ChatRecord } from '../routes/messaging/messaging-records';
import { serializeComment, serializePost } from '../serialize/post';
import { isListedUser } from '../serialize/user';
import type { Handling } from './runtime-trail';
import { KIND, type GroupRecord, type UserRecord, type WallRecord } from '../state/records';

/** Someone the playground can act as, or a bot user whose posts it shows. */
export interface PlaygroundPerson {
  id: number;
  name: string;
  type: string;
  title: string | null;
  is_manager: boolean;
  department: string | null;
}

/** One delivery of an event to a bot: the first line of "why" beside what the bot answered. */
export interface PlaygroundDelivery {
  event: string;
  delivery_id: string;
  /** The bot and tenant, read from the runtime's hook address (`/hooks/:tenant/:bot`), when it is one. */
  tenant: string | null;
  bot: string | null;
  attempts: number;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  at: string;
  /** The runtime's console, on the deliveries of that bot (the runtime that received it serves it). */
  console_url: string | null;
  /** The origin of the runtime it went to, when it went to a runtime's hook address. */
  runtime: string | null;
  /** What that runtime did with it (runtime-trail.ts), when its console told. */
  handling?: Handling;
}

/** A comment as the wall shows it: the Comment with a brief author, how it was made, its event's deliveries. */
export type PlaygroundComment = Record<string, unknown> & { via_api: boolean; deliveries: PlaygroundDelivery[] };

/** A post as the wall shows it, with its comments. */
export type PlaygroundPost = PlaygroundComment & { comments: PlaygroundComment[] };

export interface PlaygroundWall {
  id: number;
  name: string;
  version: number;
  posts: PlaygroundPost[];
}

const WALL_POSTS_SHOWN = 50;

/** What the page needs once: the walls, the chat rooms, who can act, the bot users, the clock (the routes add the sample alerts). */
export function playgroundDirectory(ctx: SandboxContext): Record<string, unknown> {
  const users = ctx.db.all<UserRecord & { id: number }>(KIND.users).filter((u) => u.status === 'registered' && u.deleted_at === null);
  const departments = new Map(
    ctx.db
      .all<GroupRecord & { id: number }>(KIND.groups)
      .filter((g) => g.type === 'department')
      .map((g) => [g.id, g.name]),
  );
  return {
    walls: ctx.db.all<WallRecord & { id: number }>(KIND.walls).map((w) => ({ id: w.id, name: w.name })),
    chats: ctx.db.all<ChatRecord>(MESSAGING_KIND.chats).map((c) => ({ id: c.id, name: c.name })),
    // who can act: employees (kiosk and shadow accounts, listed by the API, post as nobody would)
    people: users.filter((u) => u.kind === 'default' && isListedUser(u)).map((u) => person(u, departments)),
    bots: users.filter((u) => u.kind === 'bot').map((u) => person(u, departments)),
    clock: { now: ctx.nowIso(), epoch_ms: ctx.now(), timezone: ctx.settings.timezone },
  };
}

/** A wall as employees see it, newest post first, each with its comments (oldest first) and the deliveries its events caused. */
export function playgroundWall(ctx: SandboxContext, wallId: number, origin: string): PlaygroundWall | undefined {
  const wall = ctx.db.get<WallRecord & { id: number }>(KIND.walls, wallId);
  if (!wall) return undefined;
  publishDuePosts(ctx);
  const posts = newestFirst(ctx.db.filter<PostRecord>(POSTS_KIND.posts, (p) => p.wall_id === wallId && isApiVisible(p))).slice(0, WALL_POSTS_SHOWN);
  const shown = new Set(posts.map((p) => p.id));
  const comments = ctx.db.filter<CommentRecord>(POSTS_KIND.comments, (c) => shown.has(c.post_id));
  const deliveries = deliveriesByEntity(ctx);
  return {
    id: wall.id,
    name: wall.name,
    version: ctx.db.version,
    posts: posts.map((post) => ({
      ...brief(serializePost(ctx, post, origin)),
      via_api: post.origin === 'api',
      deliveries: deliveries.get(`post:${post.id}`) ?? [],
      comments: comments
        .filter((c) => c.post_id === post.id)
        .map((c) => ({ ...brief(serializeComment(ctx, c)), via_api: c.origin === 'api', deliveries: deliveries.get(`comment:${c.id}`) ?? [] })),
    })),
  };
}

/** The author shown as a name and a kind (a bot's posts say so), not the whole User. */
function brief(item: Record<string, unknown>): Record<string, unknown> {
  const author = item.author as { id: number; name: string; type: string; is_manager?: boolean };
  return { ...item, author: { id: author.id, name: author.name, type: author.type, is_manager: author.is_manager === true } };
}

function person(user: UserRecord & { id: number }, departments: Map<number, string>): PlaygroundPerson {
  const department = user.memberships.map((m) => departments.get(m.group_id)).find((name) => name !== undefined) ?? null;
  return { id: user.id, name: user.name, type: user.kind, title: user.title, is_manager: user.is_manager, department };
}

/**
 * The outgoing webhook attempts of post and comment events, grouped by what they were about
 * (`post:12`, `comment:40`), one line per delivery (its last attempt).
 */
function deliveriesByEntity(ctx: SandboxContext): Map<string, PlaygroundDelivery[]> {
  const latest = new Map<string, { attempt: DeliveryAttemptRecord; count: number }>();
  for (const attempt of ctx.db.all<DeliveryAttemptRecord>(DELIVERY_KIND.attempts)) {
    const seen = latest.get(attempt.delivery_id);
    latest.set(attempt.delivery_id, { attempt, count: (seen?.count ?? 0) + 1 });
  }
  const byEntity = new Map<string, PlaygroundDelivery[]>();
  for (const { attempt, count } of latest.values()) {
    const entity = entityOf(attempt);
    if (!entity) continue;
    const list = byEntity.get(entity) ?? [];
    list.push(deliveryLine(ctx, attempt, count));
    byEntity.set(entity, list);
  }
  return byEntity;
}

/** `post:<id>` or `comment:<id>` for a post or comment event's attempt; undefined for the rest. */
function entityOf(attempt: DeliveryAttemptRecord): string | undefined {
  const kind = /\.(post|comment)\.created$/.exec(attempt.event)?.[1];
  if (!kind) return undefined;
  try {
    const id = (JSON.parse(attempt.body) as { payload?: { id?: unknown } }).payload?.id;
    return typeof id === 'number' ? `${kind}:${id}` : undefined;
  } catch {
    return undefined;
  }
}

function deliveryLine(ctx: SandboxContext, attempt: DeliveryAttemptRecord, attempts: number): PlaygroundDelivery {
  const hook = hookOf(attempt.url);
  return {
    event: attempt.event,
    delivery_id: attempt.delivery_id,
    tenant: hook?.tenant ?? null,
    bot: hook?.bot ?? null,
    attempts,
    ok: attempt.ok,
    status_code: attempt.status_code,
    error: attempt.error,
    at: ctx.iso(attempt.created_at),
    console_url: hook ? `${hook.origin}/console/#/deliveries?bot=${encodeURIComponent(hook.bot)}` : null,
    runtime: hook?.origin ?? null,
  };
}

/** The runtime's origin, tenant and bot in a hook address (`http://127.0.0.1:3000/hooks/default/ops`). */
function hookOf(url: string): { origin: string; tenant: string; bot: string } | undefined {
  try {
    const parsed = new URL(url);
    const match = /^(.*)\/hooks\/([^/]+)\/([^/]+)\/?$/.exec(parsed.pathname);
    if (!match) return undefined;
    return { origin: `${parsed.origin}${match[1]}`, tenant: decodeURIComponent(match[2]!), bot: decodeURIComponent(match[3]!) };
  } catch {
    return undefined;
  }
}
